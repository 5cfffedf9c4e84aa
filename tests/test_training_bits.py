"""The epoch learners' weights, bit for bit as before any speed change (issue 22).

Every error-correcting learner (Perceptron, LinearMachine, MulticlassSVM,
PiecewiseLinearClassifier) is fitted on seeded workloads: float32 and float64, dense
and CSR (with empty rows), with and without ``sample_weight``, with the options that
take other branches of the loops (``update="all"``, ``averaged``, ``margin``, a
learning rate, no shuffling, a recorded history).  Each case's SHA-256 of
``coef_``, ``intercept_`` and the per-epoch counts is compared with ``GOLDEN``, the
values the build of main gave before the loops were made faster (commit c570e7f).
A speed change to the kernels of ``patrec/_training.pxd`` or to the epoch loops must
leave every hash as it is: no reordered sum, no fused multiply-add.

The perceptron rules' weights depend on the scores only through comparisons, so a
score rounded differently rarely changes them; `MulticlassSVM`'s ``objective_``
after every epoch is computed with the same scoring kernel (``class_scores``) and
changes with its last bit.  Summing the four terms of a block left to right instead
of pairwise made 32 of these cases fail, all of them through that objective.

Run this file as a script to print the hashes of the current build::

    python tests/test_training_bits.py
"""

import hashlib
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from patrec import (
    LinearMachine,
    MulticlassSVM,
    Perceptron,
    PiecewiseLinearClassifier,
)


def _mixture(n, d, n_classes, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    means = rng.normal(scale=0.8, size=(n_classes, d))
    y = rng.integers(n_classes, size=n)
    return scale * (means[y] + rng.normal(size=(n, d))), y


def _sparse_mixture(n, d, n_classes, seed):
    X, y = _mixture(n, d, n_classes, seed)
    rng = np.random.default_rng(seed + 100)
    X[rng.random(X.shape) < 0.6] = 0.0
    X[::17] = 0.0  # rows without stored entries
    return X, y


def _decimals(n, d, n_classes, seed):
    """Features in tenths and random labels: sums of numbers that binary floating
    point cannot hold exactly, and scores that tie but for their rounding, so a
    change in the order of a sum changes the decisions (ties count as mistakes)."""
    rng = np.random.default_rng(seed)
    return rng.integers(-3, 4, size=(n, d)) / 10, rng.integers(n_classes, size=n)


# name: (X, y); d chosen so that the loops' blocks of four leave 0, 1, 2 and 3 over
DATASETS = {
    "mix4": lambda: _mixture(240, 13, 4, seed=1),
    "mix10": lambda: _mixture(300, 50, 10, seed=2),
    "binary": lambda: _mixture(200, 7, 2, seed=3, scale=3.0),
    "narrow": lambda: _mixture(150, 3, 3, seed=4),
    "sparse": lambda: _sparse_mixture(260, 22, 5, seed=5),
    "decimals": lambda: _decimals(200, 9, 3, seed=6),
}

# name: (estimator class, parameters, weighted)
SETTINGS = {
    "perceptron": (Perceptron, {}, False),
    "perceptron-margin-avg": (
        Perceptron,
        {"margin": 0.5, "averaged": True, "learning_rate": 0.3},
        False,
    ),
    "perceptron-weighted": (Perceptron, {"averaged": True}, True),
    "perceptron-ordered": (Perceptron, {"shuffle": False, "margin": 0.1}, False),
    "machine": (LinearMachine, {}, False),
    "machine-all": (LinearMachine, {"update": "all"}, False),
    "machine-avg": (LinearMachine, {"averaged": True, "learning_rate": 0.7}, False),
    "machine-margin": (LinearMachine, {"margin": 1.0}, False),
    "machine-all-avg-margin": (
        LinearMachine,
        {"update": "all", "averaged": True, "margin": 0.5},
        False,
    ),
    "machine-weighted": (LinearMachine, {}, True),
    "machine-all-avg-weighted": (
        LinearMachine,
        {"update": "all", "averaged": True},
        True,
    ),
    "machine-ordered": (LinearMachine, {"shuffle": False}, False),
    "machine-tenth": (LinearMachine, {"learning_rate": 0.1}, False),
    "machine-history": (LinearMachine, {"record_history": True}, False),
    "svm": (MulticlassSVM, {}, False),
    "svm-plain": (MulticlassSVM, {"averaged": False, "alpha": 1e-2}, False),
    "svm-weighted": (MulticlassSVM, {}, True),
    "svm-history": (MulticlassSVM, {"record_history": True}, False),
    "piecewise": (PiecewiseLinearClassifier, {}, False),
    "piecewise-zeros-avg": (
        PiecewiseLinearClassifier,
        {"init": "zeros", "averaged": True, "n_subclasses": 3},
        False,
    ),
    "piecewise-margin": (
        PiecewiseLinearClassifier,
        {"margin": 0.5, "learning_rate": 0.5},
        False,
    ),
}

LAYOUTS = [("float64", "dense"), ("float32", "dense"), ("float64", "csr"),
           ("float32", "csr")]  # fmt: skip


def _cases():
    for setting, (cls, _, _) in SETTINGS.items():
        for data in DATASETS:
            for dtype, layout in LAYOUTS:
                if layout == "csr" and cls is PiecewiseLinearClassifier:
                    continue  # dense input only
                yield f"{setting}/{data}/{dtype}/{layout}"


def _fingerprint(case):
    setting, data, dtype, layout = case.split("/")
    cls, params, weighted = SETTINGS[setting]
    X, y = DATASETS[data]()
    X = X.astype(dtype)
    if layout == "csr":
        X = sp.csr_matrix(X)
    fit_params = {}
    if weighted:
        rng = np.random.default_rng(7)
        weights = rng.choice([0.0, 0.5, 1.0, 2.5], size=len(y))
        weights[:10] = 1.0  # every class keeps some weight
        fit_params["sample_weight"] = weights
    clf = cls(max_epochs=4, random_state=0, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X, y, **fit_params)
    digest = hashlib.sha256()
    digest.update(np.ascontiguousarray(clf.coef_, dtype=np.float64).tobytes())
    digest.update(np.ascontiguousarray(clf.intercept_, dtype=np.float64).tobytes())
    for name in ("mistakes_", "corrections_"):  # the counts of every epoch
        if hasattr(clf, name):
            digest.update(np.asarray(getattr(clf, name), np.int64).tobytes())
    if hasattr(clf, "objective_"):  # MulticlassSVM: the objective after every epoch
        digest.update(np.asarray(clf.objective_, np.float64).tobytes())
    history = getattr(clf, "history_", None)
    if history is not None:
        digest.update(history.corrections.tobytes())
        digest.update(np.ascontiguousarray(history.weights).tobytes())
    return digest.hexdigest()[:24]


GOLDEN = {  # main at c570e7f: python tests/test_training_bits.py
    "perceptron/mix4/float64/dense": "771080b443c40e4b63ded83b",
    "perceptron/mix4/float32/dense": "b4660ad7576e9e8f63325f47",
    "perceptron/mix4/float64/csr": "771080b443c40e4b63ded83b",
    "perceptron/mix4/float32/csr": "b4660ad7576e9e8f63325f47",
    "perceptron/mix10/float64/dense": "d9243840403ebdd4229b8641",
    "perceptron/mix10/float32/dense": "f19775174320935b12dd49a0",
    "perceptron/mix10/float64/csr": "d9243840403ebdd4229b8641",
    "perceptron/mix10/float32/csr": "f19775174320935b12dd49a0",
    "perceptron/binary/float64/dense": "7c837880330ea940cba6acd5",
    "perceptron/binary/float32/dense": "41f0a52ad412598a5ecdef46",
    "perceptron/binary/float64/csr": "7c837880330ea940cba6acd5",
    "perceptron/binary/float32/csr": "41f0a52ad412598a5ecdef46",
    "perceptron/narrow/float64/dense": "8c68f45e63dceb1633bb5da5",
    "perceptron/narrow/float32/dense": "2093186183121df1ba0d940c",
    "perceptron/narrow/float64/csr": "8c68f45e63dceb1633bb5da5",
    "perceptron/narrow/float32/csr": "2093186183121df1ba0d940c",
    "perceptron/sparse/float64/dense": "e3982773f423d7590785fa57",
    "perceptron/sparse/float32/dense": "26fdadd38200e3ba23116d83",
    "perceptron/sparse/float64/csr": "e3982773f423d7590785fa57",
    "perceptron/sparse/float32/csr": "26fdadd38200e3ba23116d83",
    "perceptron/decimals/float64/dense": "73f7ea9ac0350d2edea56993",
    "perceptron/decimals/float32/dense": "b79a15f2932978a984e7533f",
    "perceptron/decimals/float64/csr": "73f7ea9ac0350d2edea56993",
    "perceptron/decimals/float32/csr": "b79a15f2932978a984e7533f",
    "perceptron-margin-avg/mix4/float64/dense": "d10f7df15b9d15aaab7e1388",
    "perceptron-margin-avg/mix4/float32/dense": "9b0262aaced15bcd46a0a353",
    "perceptron-margin-avg/mix4/float64/csr": "d10f7df15b9d15aaab7e1388",
    "perceptron-margin-avg/mix4/float32/csr": "9b0262aaced15bcd46a0a353",
    "perceptron-margin-avg/mix10/float64/dense": "a3583a4c9885a69824a4707c",
    "perceptron-margin-avg/mix10/float32/dense": "1820fc71998a078c9e77b65c",
    "perceptron-margin-avg/mix10/float64/csr": "a3583a4c9885a69824a4707c",
    "perceptron-margin-avg/mix10/float32/csr": "1820fc71998a078c9e77b65c",
    "perceptron-margin-avg/binary/float64/dense": "39f2180cb08649a1a5cfdf0e",
    "perceptron-margin-avg/binary/float32/dense": "ed1873ea8a282a3a2b2a5c9a",
    "perceptron-margin-avg/binary/float64/csr": "39f2180cb08649a1a5cfdf0e",
    "perceptron-margin-avg/binary/float32/csr": "ed1873ea8a282a3a2b2a5c9a",
    "perceptron-margin-avg/narrow/float64/dense": "0b7cf27f8a84480d2d2b4f84",
    "perceptron-margin-avg/narrow/float32/dense": "a2cde692b3cb195d2c20a728",
    "perceptron-margin-avg/narrow/float64/csr": "0b7cf27f8a84480d2d2b4f84",
    "perceptron-margin-avg/narrow/float32/csr": "a2cde692b3cb195d2c20a728",
    "perceptron-margin-avg/sparse/float64/dense": "da9750072ef6126c71592326",
    "perceptron-margin-avg/sparse/float32/dense": "e9c571626315de312c8cd7d6",
    "perceptron-margin-avg/sparse/float64/csr": "da9750072ef6126c71592326",
    "perceptron-margin-avg/sparse/float32/csr": "e9c571626315de312c8cd7d6",
    "perceptron-margin-avg/decimals/float64/dense": "7c58ba9782179544cf17b738",
    "perceptron-margin-avg/decimals/float32/dense": "bcce8e72371fee30bdc822d2",
    "perceptron-margin-avg/decimals/float64/csr": "7c58ba9782179544cf17b738",
    "perceptron-margin-avg/decimals/float32/csr": "bcce8e72371fee30bdc822d2",
    "perceptron-weighted/mix4/float64/dense": "c98d3e5c208bbc09ebe58f6f",
    "perceptron-weighted/mix4/float32/dense": "ff6877dc057ef63ceea1b308",
    "perceptron-weighted/mix4/float64/csr": "c98d3e5c208bbc09ebe58f6f",
    "perceptron-weighted/mix4/float32/csr": "ff6877dc057ef63ceea1b308",
    "perceptron-weighted/mix10/float64/dense": "49d135ca2f001aeeabd23681",
    "perceptron-weighted/mix10/float32/dense": "2b2c4939e9d21ddb1b2fa42d",
    "perceptron-weighted/mix10/float64/csr": "49d135ca2f001aeeabd23681",
    "perceptron-weighted/mix10/float32/csr": "2b2c4939e9d21ddb1b2fa42d",
    "perceptron-weighted/binary/float64/dense": "f367178df7c42759a7a4d6a8",
    "perceptron-weighted/binary/float32/dense": "3210e0ff22e4685a0c3254b5",
    "perceptron-weighted/binary/float64/csr": "f367178df7c42759a7a4d6a8",
    "perceptron-weighted/binary/float32/csr": "3210e0ff22e4685a0c3254b5",
    "perceptron-weighted/narrow/float64/dense": "f12472628708c8b5e6b4f25b",
    "perceptron-weighted/narrow/float32/dense": "26b45daad690fafaaea9bb2e",
    "perceptron-weighted/narrow/float64/csr": "f12472628708c8b5e6b4f25b",
    "perceptron-weighted/narrow/float32/csr": "26b45daad690fafaaea9bb2e",
    "perceptron-weighted/sparse/float64/dense": "5dc34c7757fa692a3b142650",
    "perceptron-weighted/sparse/float32/dense": "446db0b91c93db65433cde18",
    "perceptron-weighted/sparse/float64/csr": "5dc34c7757fa692a3b142650",
    "perceptron-weighted/sparse/float32/csr": "446db0b91c93db65433cde18",
    "perceptron-weighted/decimals/float64/dense": "ecd800cd72b980d06ff912e1",
    "perceptron-weighted/decimals/float32/dense": "a8371dc20c4f838bbd1619db",
    "perceptron-weighted/decimals/float64/csr": "ecd800cd72b980d06ff912e1",
    "perceptron-weighted/decimals/float32/csr": "a8371dc20c4f838bbd1619db",
    "perceptron-ordered/mix4/float64/dense": "6b3f4c71577f93eaad9b1663",
    "perceptron-ordered/mix4/float32/dense": "93adee9c8982b876523a51ff",
    "perceptron-ordered/mix4/float64/csr": "6b3f4c71577f93eaad9b1663",
    "perceptron-ordered/mix4/float32/csr": "93adee9c8982b876523a51ff",
    "perceptron-ordered/mix10/float64/dense": "3c7cd6da94553f86e0e8f289",
    "perceptron-ordered/mix10/float32/dense": "1f14dfd71e8557aef90e54de",
    "perceptron-ordered/mix10/float64/csr": "3c7cd6da94553f86e0e8f289",
    "perceptron-ordered/mix10/float32/csr": "1f14dfd71e8557aef90e54de",
    "perceptron-ordered/binary/float64/dense": "e392544198d8baf2a2022239",
    "perceptron-ordered/binary/float32/dense": "940e2897bfaa371fd1c67c61",
    "perceptron-ordered/binary/float64/csr": "e392544198d8baf2a2022239",
    "perceptron-ordered/binary/float32/csr": "940e2897bfaa371fd1c67c61",
    "perceptron-ordered/narrow/float64/dense": "5a5599a2d6c982d5d6a4dd69",
    "perceptron-ordered/narrow/float32/dense": "29876238e25c5d61f80f48bb",
    "perceptron-ordered/narrow/float64/csr": "5a5599a2d6c982d5d6a4dd69",
    "perceptron-ordered/narrow/float32/csr": "29876238e25c5d61f80f48bb",
    "perceptron-ordered/sparse/float64/dense": "c2436d2bb11c77ac9e9b2aca",
    "perceptron-ordered/sparse/float32/dense": "7c2bacf60d5bab34959d911e",
    "perceptron-ordered/sparse/float64/csr": "c2436d2bb11c77ac9e9b2aca",
    "perceptron-ordered/sparse/float32/csr": "7c2bacf60d5bab34959d911e",
    "perceptron-ordered/decimals/float64/dense": "5a0f2aee590b13ff99685902",
    "perceptron-ordered/decimals/float32/dense": "85e5cf432b16b8b19955f11e",
    "perceptron-ordered/decimals/float64/csr": "5a0f2aee590b13ff99685902",
    "perceptron-ordered/decimals/float32/csr": "85e5cf432b16b8b19955f11e",
    "machine/mix4/float64/dense": "d53a563511acf004a32a8fd3",
    "machine/mix4/float32/dense": "9a741a57e08df7a2fcb8e64d",
    "machine/mix4/float64/csr": "d53a563511acf004a32a8fd3",
    "machine/mix4/float32/csr": "9a741a57e08df7a2fcb8e64d",
    "machine/mix10/float64/dense": "6ca46d59ebd7cf0585c1754a",
    "machine/mix10/float32/dense": "e5dea519234ba80b1cecaab5",
    "machine/mix10/float64/csr": "6ca46d59ebd7cf0585c1754a",
    "machine/mix10/float32/csr": "e5dea519234ba80b1cecaab5",
    "machine/binary/float64/dense": "b42729bf5193b31c2fc8e3a6",
    "machine/binary/float32/dense": "4b89fe51199ec39589de3654",
    "machine/binary/float64/csr": "b42729bf5193b31c2fc8e3a6",
    "machine/binary/float32/csr": "4b89fe51199ec39589de3654",
    "machine/narrow/float64/dense": "c0a05a372be0d132d47a210f",
    "machine/narrow/float32/dense": "ce4c6a6e4ede862737860b21",
    "machine/narrow/float64/csr": "c0a05a372be0d132d47a210f",
    "machine/narrow/float32/csr": "ce4c6a6e4ede862737860b21",
    "machine/sparse/float64/dense": "a6d3bcd12b6b1d1ca25db95f",
    "machine/sparse/float32/dense": "bc5549dd0e79c7df7d5af5e1",
    "machine/sparse/float64/csr": "a6d3bcd12b6b1d1ca25db95f",
    "machine/sparse/float32/csr": "bc5549dd0e79c7df7d5af5e1",
    "machine/decimals/float64/dense": "4ae849455befb6ff6baa09d2",
    "machine/decimals/float32/dense": "7807ae04c40f0792c711c4f1",
    "machine/decimals/float64/csr": "4ae849455befb6ff6baa09d2",
    "machine/decimals/float32/csr": "7807ae04c40f0792c711c4f1",
    "machine-all/mix4/float64/dense": "ed5a8f23718edd2087880d23",
    "machine-all/mix4/float32/dense": "48e431226280148c6184187a",
    "machine-all/mix4/float64/csr": "ed5a8f23718edd2087880d23",
    "machine-all/mix4/float32/csr": "48e431226280148c6184187a",
    "machine-all/mix10/float64/dense": "c8f1a82ef7ff7912bff1b381",
    "machine-all/mix10/float32/dense": "d7631c78ab8d2294126db8bd",
    "machine-all/mix10/float64/csr": "c8f1a82ef7ff7912bff1b381",
    "machine-all/mix10/float32/csr": "d7631c78ab8d2294126db8bd",
    "machine-all/binary/float64/dense": "b42729bf5193b31c2fc8e3a6",
    "machine-all/binary/float32/dense": "4b89fe51199ec39589de3654",
    "machine-all/binary/float64/csr": "b42729bf5193b31c2fc8e3a6",
    "machine-all/binary/float32/csr": "4b89fe51199ec39589de3654",
    "machine-all/narrow/float64/dense": "b00343c1e081893333742d84",
    "machine-all/narrow/float32/dense": "4d878151df5ce9d2dbc782a5",
    "machine-all/narrow/float64/csr": "b00343c1e081893333742d84",
    "machine-all/narrow/float32/csr": "4d878151df5ce9d2dbc782a5",
    "machine-all/sparse/float64/dense": "9a4e4aed71338c1b31a66a2b",
    "machine-all/sparse/float32/dense": "fc6a25c3d8a852dc25158c1b",
    "machine-all/sparse/float64/csr": "9a4e4aed71338c1b31a66a2b",
    "machine-all/sparse/float32/csr": "fc6a25c3d8a852dc25158c1b",
    "machine-all/decimals/float64/dense": "03ff82e3189c0c3793b8e0d8",
    "machine-all/decimals/float32/dense": "e39bb959f821b40bfb47a7e2",
    "machine-all/decimals/float64/csr": "03ff82e3189c0c3793b8e0d8",
    "machine-all/decimals/float32/csr": "e39bb959f821b40bfb47a7e2",
    "machine-avg/mix4/float64/dense": "dfac585ee1aedc2c7c114783",
    "machine-avg/mix4/float32/dense": "dd0107b23c5b330b8839fa9a",
    "machine-avg/mix4/float64/csr": "dfac585ee1aedc2c7c114783",
    "machine-avg/mix4/float32/csr": "dd0107b23c5b330b8839fa9a",
    "machine-avg/mix10/float64/dense": "0aa73965eca53d1fdb0bc4af",
    "machine-avg/mix10/float32/dense": "ec53c60d5c48b12c189f91b2",
    "machine-avg/mix10/float64/csr": "0aa73965eca53d1fdb0bc4af",
    "machine-avg/mix10/float32/csr": "ec53c60d5c48b12c189f91b2",
    "machine-avg/binary/float64/dense": "dea15c6042a1cbaf5e285a57",
    "machine-avg/binary/float32/dense": "dac69989d226f4d2fddc958e",
    "machine-avg/binary/float64/csr": "dea15c6042a1cbaf5e285a57",
    "machine-avg/binary/float32/csr": "dac69989d226f4d2fddc958e",
    "machine-avg/narrow/float64/dense": "91019d8976bacaa69759bd31",
    "machine-avg/narrow/float32/dense": "4e30585dbf6aea4330270888",
    "machine-avg/narrow/float64/csr": "91019d8976bacaa69759bd31",
    "machine-avg/narrow/float32/csr": "4e30585dbf6aea4330270888",
    "machine-avg/sparse/float64/dense": "52bb6251ab293a6ddc5cc1f8",
    "machine-avg/sparse/float32/dense": "14c0b1d20cc0a00b4dde0fc7",
    "machine-avg/sparse/float64/csr": "52bb6251ab293a6ddc5cc1f8",
    "machine-avg/sparse/float32/csr": "14c0b1d20cc0a00b4dde0fc7",
    "machine-avg/decimals/float64/dense": "d93ea1bf493e43c71439c202",
    "machine-avg/decimals/float32/dense": "2cdeab377bb9626bdb9076c2",
    "machine-avg/decimals/float64/csr": "d93ea1bf493e43c71439c202",
    "machine-avg/decimals/float32/csr": "2cdeab377bb9626bdb9076c2",
    "machine-margin/mix4/float64/dense": "cfec228509416cb84b992902",
    "machine-margin/mix4/float32/dense": "68dfe178416ae6706701e7c8",
    "machine-margin/mix4/float64/csr": "cfec228509416cb84b992902",
    "machine-margin/mix4/float32/csr": "68dfe178416ae6706701e7c8",
    "machine-margin/mix10/float64/dense": "7f27563da703d63fb3aed90f",
    "machine-margin/mix10/float32/dense": "fd94e86502355bedbd698448",
    "machine-margin/mix10/float64/csr": "7f27563da703d63fb3aed90f",
    "machine-margin/mix10/float32/csr": "fd94e86502355bedbd698448",
    "machine-margin/binary/float64/dense": "b42729bf5193b31c2fc8e3a6",
    "machine-margin/binary/float32/dense": "4b89fe51199ec39589de3654",
    "machine-margin/binary/float64/csr": "b42729bf5193b31c2fc8e3a6",
    "machine-margin/binary/float32/csr": "4b89fe51199ec39589de3654",
    "machine-margin/narrow/float64/dense": "bf8d2ab4be42c39391ff17e8",
    "machine-margin/narrow/float32/dense": "5701ab2fbb321fb2f0055261",
    "machine-margin/narrow/float64/csr": "bf8d2ab4be42c39391ff17e8",
    "machine-margin/narrow/float32/csr": "5701ab2fbb321fb2f0055261",
    "machine-margin/sparse/float64/dense": "61c98bdd459ef7bbe1360554",
    "machine-margin/sparse/float32/dense": "0229efadffe298e842f3f4f4",
    "machine-margin/sparse/float64/csr": "61c98bdd459ef7bbe1360554",
    "machine-margin/sparse/float32/csr": "0229efadffe298e842f3f4f4",
    "machine-margin/decimals/float64/dense": "6dc1dbef7dcf334fab35b1c7",
    "machine-margin/decimals/float32/dense": "3215ec42c1c3a51405aefcdf",
    "machine-margin/decimals/float64/csr": "6dc1dbef7dcf334fab35b1c7",
    "machine-margin/decimals/float32/csr": "3215ec42c1c3a51405aefcdf",
    "machine-all-avg-margin/mix4/float64/dense": "1466ff6b736242af1232c7c1",
    "machine-all-avg-margin/mix4/float32/dense": "82bc671c34eb6340af0603cd",
    "machine-all-avg-margin/mix4/float64/csr": "1466ff6b736242af1232c7c1",
    "machine-all-avg-margin/mix4/float32/csr": "82bc671c34eb6340af0603cd",
    "machine-all-avg-margin/mix10/float64/dense": "cd3ed0784ee1fab6fd3dcb95",
    "machine-all-avg-margin/mix10/float32/dense": "f0cc57ef3623b6986ecbc890",
    "machine-all-avg-margin/mix10/float64/csr": "cd3ed0784ee1fab6fd3dcb95",
    "machine-all-avg-margin/mix10/float32/csr": "f0cc57ef3623b6986ecbc890",
    "machine-all-avg-margin/binary/float64/dense": "d379ff7803ffc5fd497b22f6",
    "machine-all-avg-margin/binary/float32/dense": "f71f4f697e09187a18b32b95",
    "machine-all-avg-margin/binary/float64/csr": "d379ff7803ffc5fd497b22f6",
    "machine-all-avg-margin/binary/float32/csr": "f71f4f697e09187a18b32b95",
    "machine-all-avg-margin/narrow/float64/dense": "f97fcd41061a49e2393122af",
    "machine-all-avg-margin/narrow/float32/dense": "c9b7879df029302c959770f5",
    "machine-all-avg-margin/narrow/float64/csr": "f97fcd41061a49e2393122af",
    "machine-all-avg-margin/narrow/float32/csr": "c9b7879df029302c959770f5",
    "machine-all-avg-margin/sparse/float64/dense": "e605bcf32bbc6a4bf102e5e4",
    "machine-all-avg-margin/sparse/float32/dense": "9c93332453304ecebab564ff",
    "machine-all-avg-margin/sparse/float64/csr": "e605bcf32bbc6a4bf102e5e4",
    "machine-all-avg-margin/sparse/float32/csr": "9c93332453304ecebab564ff",
    "machine-all-avg-margin/decimals/float64/dense": "1e3119031efaf383c6df885e",
    "machine-all-avg-margin/decimals/float32/dense": "868b4ef33b26cc9f7a73a822",
    "machine-all-avg-margin/decimals/float64/csr": "1e3119031efaf383c6df885e",
    "machine-all-avg-margin/decimals/float32/csr": "868b4ef33b26cc9f7a73a822",
    "machine-weighted/mix4/float64/dense": "f98c7312b66a93e9b388da69",
    "machine-weighted/mix4/float32/dense": "32490aedcff32b27dad4ad93",
    "machine-weighted/mix4/float64/csr": "f98c7312b66a93e9b388da69",
    "machine-weighted/mix4/float32/csr": "32490aedcff32b27dad4ad93",
    "machine-weighted/mix10/float64/dense": "8809d623e4c6d057b4d3a7d9",
    "machine-weighted/mix10/float32/dense": "472ae2cfd1f31e0b5d174549",
    "machine-weighted/mix10/float64/csr": "8809d623e4c6d057b4d3a7d9",
    "machine-weighted/mix10/float32/csr": "472ae2cfd1f31e0b5d174549",
    "machine-weighted/binary/float64/dense": "7ac03fdeee766a4ff2e407a5",
    "machine-weighted/binary/float32/dense": "c4fd54debb47f8437726ab42",
    "machine-weighted/binary/float64/csr": "7ac03fdeee766a4ff2e407a5",
    "machine-weighted/binary/float32/csr": "c4fd54debb47f8437726ab42",
    "machine-weighted/narrow/float64/dense": "ab8c79dabb2f30a895e40d27",
    "machine-weighted/narrow/float32/dense": "1dee6322d66b47bc5539821a",
    "machine-weighted/narrow/float64/csr": "ab8c79dabb2f30a895e40d27",
    "machine-weighted/narrow/float32/csr": "1dee6322d66b47bc5539821a",
    "machine-weighted/sparse/float64/dense": "9f35ea41f74f78b66418bde9",
    "machine-weighted/sparse/float32/dense": "c43735c846f550d3f5018367",
    "machine-weighted/sparse/float64/csr": "9f35ea41f74f78b66418bde9",
    "machine-weighted/sparse/float32/csr": "c43735c846f550d3f5018367",
    "machine-weighted/decimals/float64/dense": "d0c1dc351ea564380132b29b",
    "machine-weighted/decimals/float32/dense": "00fa028eb48717e7631066b5",
    "machine-weighted/decimals/float64/csr": "d0c1dc351ea564380132b29b",
    "machine-weighted/decimals/float32/csr": "00fa028eb48717e7631066b5",
    "machine-all-avg-weighted/mix4/float64/dense": "dccf4b4e0afb7d10e15bcfd4",
    "machine-all-avg-weighted/mix4/float32/dense": "521e20d48144ad948fde9f75",
    "machine-all-avg-weighted/mix4/float64/csr": "dccf4b4e0afb7d10e15bcfd4",
    "machine-all-avg-weighted/mix4/float32/csr": "521e20d48144ad948fde9f75",
    "machine-all-avg-weighted/mix10/float64/dense": "423585e880c341e8cf921c94",
    "machine-all-avg-weighted/mix10/float32/dense": "179ca38b2bd433e77aeeb329",
    "machine-all-avg-weighted/mix10/float64/csr": "423585e880c341e8cf921c94",
    "machine-all-avg-weighted/mix10/float32/csr": "179ca38b2bd433e77aeeb329",
    "machine-all-avg-weighted/binary/float64/dense": "39b630c503fa18d602acfce6",
    "machine-all-avg-weighted/binary/float32/dense": "7100cdd9e49a836db04e423e",
    "machine-all-avg-weighted/binary/float64/csr": "39b630c503fa18d602acfce6",
    "machine-all-avg-weighted/binary/float32/csr": "7100cdd9e49a836db04e423e",
    "machine-all-avg-weighted/narrow/float64/dense": "60fc3f66679ca30fcf65cbbe",
    "machine-all-avg-weighted/narrow/float32/dense": "aa2845af121f72c14d65634b",
    "machine-all-avg-weighted/narrow/float64/csr": "60fc3f66679ca30fcf65cbbe",
    "machine-all-avg-weighted/narrow/float32/csr": "aa2845af121f72c14d65634b",
    "machine-all-avg-weighted/sparse/float64/dense": "84b63d9a6fb7186123f9bd20",
    "machine-all-avg-weighted/sparse/float32/dense": "f147a13ce14fb1e7c88b5838",
    "machine-all-avg-weighted/sparse/float64/csr": "84b63d9a6fb7186123f9bd20",
    "machine-all-avg-weighted/sparse/float32/csr": "f147a13ce14fb1e7c88b5838",
    "machine-all-avg-weighted/decimals/float64/dense": "6ece6b5a56bc44fa8b7d7fb9",
    "machine-all-avg-weighted/decimals/float32/dense": "b9b54fdb02b1cfb7bda07926",
    "machine-all-avg-weighted/decimals/float64/csr": "6ece6b5a56bc44fa8b7d7fb9",
    "machine-all-avg-weighted/decimals/float32/csr": "b9b54fdb02b1cfb7bda07926",
    "machine-ordered/mix4/float64/dense": "1658920c3fe3927b8cbe614d",
    "machine-ordered/mix4/float32/dense": "3ae327e15268bfe972bf7668",
    "machine-ordered/mix4/float64/csr": "1658920c3fe3927b8cbe614d",
    "machine-ordered/mix4/float32/csr": "3ae327e15268bfe972bf7668",
    "machine-ordered/mix10/float64/dense": "cf3730d1e056e0d1fa78b44c",
    "machine-ordered/mix10/float32/dense": "bc0b4433da9edba159d78ced",
    "machine-ordered/mix10/float64/csr": "cf3730d1e056e0d1fa78b44c",
    "machine-ordered/mix10/float32/csr": "bc0b4433da9edba159d78ced",
    "machine-ordered/binary/float64/dense": "acce7f6d8daf8d17b4b54121",
    "machine-ordered/binary/float32/dense": "bb0dfb734ce5cebc1f94827b",
    "machine-ordered/binary/float64/csr": "acce7f6d8daf8d17b4b54121",
    "machine-ordered/binary/float32/csr": "bb0dfb734ce5cebc1f94827b",
    "machine-ordered/narrow/float64/dense": "63319aee134efb26e0e8eacc",
    "machine-ordered/narrow/float32/dense": "3e2d41aca1b6213e2d71b24e",
    "machine-ordered/narrow/float64/csr": "63319aee134efb26e0e8eacc",
    "machine-ordered/narrow/float32/csr": "3e2d41aca1b6213e2d71b24e",
    "machine-ordered/sparse/float64/dense": "bcbe81b249b2103106d2ce9b",
    "machine-ordered/sparse/float32/dense": "4a6ba8cda3f6e5eb7d0a8be6",
    "machine-ordered/sparse/float64/csr": "bcbe81b249b2103106d2ce9b",
    "machine-ordered/sparse/float32/csr": "4a6ba8cda3f6e5eb7d0a8be6",
    "machine-ordered/decimals/float64/dense": "2e9131b062d4c0da1b0e24ef",
    "machine-ordered/decimals/float32/dense": "56f8c688f7f49e4a8873e8cb",
    "machine-ordered/decimals/float64/csr": "2e9131b062d4c0da1b0e24ef",
    "machine-ordered/decimals/float32/csr": "56f8c688f7f49e4a8873e8cb",
    "machine-tenth/mix4/float64/dense": "cd82d0b7272e55a2192a39d8",
    "machine-tenth/mix4/float32/dense": "afe7248f59c7deb76e860bbd",
    "machine-tenth/mix4/float64/csr": "cd82d0b7272e55a2192a39d8",
    "machine-tenth/mix4/float32/csr": "afe7248f59c7deb76e860bbd",
    "machine-tenth/mix10/float64/dense": "74a74eebcb140ae656c6f69e",
    "machine-tenth/mix10/float32/dense": "b3983ca6555251bc09882fbd",
    "machine-tenth/mix10/float64/csr": "74a74eebcb140ae656c6f69e",
    "machine-tenth/mix10/float32/csr": "b3983ca6555251bc09882fbd",
    "machine-tenth/binary/float64/dense": "73eb54bce9e83d0321e3ffdc",
    "machine-tenth/binary/float32/dense": "786bd106568d80aa45274c8e",
    "machine-tenth/binary/float64/csr": "73eb54bce9e83d0321e3ffdc",
    "machine-tenth/binary/float32/csr": "786bd106568d80aa45274c8e",
    "machine-tenth/narrow/float64/dense": "5c2d37b2c6aa92ec783afd98",
    "machine-tenth/narrow/float32/dense": "946d70b91622ed2bb3d0cde0",
    "machine-tenth/narrow/float64/csr": "5c2d37b2c6aa92ec783afd98",
    "machine-tenth/narrow/float32/csr": "946d70b91622ed2bb3d0cde0",
    "machine-tenth/sparse/float64/dense": "affbd7500026273636804e36",
    "machine-tenth/sparse/float32/dense": "1376219a5a987e6160e9d9d1",
    "machine-tenth/sparse/float64/csr": "affbd7500026273636804e36",
    "machine-tenth/sparse/float32/csr": "1376219a5a987e6160e9d9d1",
    "machine-tenth/decimals/float64/dense": "f0ffc6e52be34fd3ce6d1060",
    "machine-tenth/decimals/float32/dense": "58ab1d17fa5ebf83820e5f8e",
    "machine-tenth/decimals/float64/csr": "f0ffc6e52be34fd3ce6d1060",
    "machine-tenth/decimals/float32/csr": "58ab1d17fa5ebf83820e5f8e",
    "machine-history/mix4/float64/dense": "9cc0e2b7d33e54146c1b0ad9",
    "machine-history/mix4/float32/dense": "2c596875cb509f442603f24d",
    "machine-history/mix4/float64/csr": "9cc0e2b7d33e54146c1b0ad9",
    "machine-history/mix4/float32/csr": "2c596875cb509f442603f24d",
    "machine-history/mix10/float64/dense": "86912de32d3068f4b087edc0",
    "machine-history/mix10/float32/dense": "e81d7ef24bc2e2863bd3a43b",
    "machine-history/mix10/float64/csr": "86912de32d3068f4b087edc0",
    "machine-history/mix10/float32/csr": "e81d7ef24bc2e2863bd3a43b",
    "machine-history/binary/float64/dense": "5255bce89375a3c1d299b6cc",
    "machine-history/binary/float32/dense": "26836674092b7c36040d1497",
    "machine-history/binary/float64/csr": "5255bce89375a3c1d299b6cc",
    "machine-history/binary/float32/csr": "26836674092b7c36040d1497",
    "machine-history/narrow/float64/dense": "ced5f0dfe8f53ac0ec73b452",
    "machine-history/narrow/float32/dense": "793843829ef63c7415fdb09d",
    "machine-history/narrow/float64/csr": "ced5f0dfe8f53ac0ec73b452",
    "machine-history/narrow/float32/csr": "793843829ef63c7415fdb09d",
    "machine-history/sparse/float64/dense": "9edea5c1811081f371c99c2f",
    "machine-history/sparse/float32/dense": "a3b71e043d4c7cfecb873cfa",
    "machine-history/sparse/float64/csr": "9edea5c1811081f371c99c2f",
    "machine-history/sparse/float32/csr": "a3b71e043d4c7cfecb873cfa",
    "machine-history/decimals/float64/dense": "60b82c57a41326a76c17656c",
    "machine-history/decimals/float32/dense": "0b3fbf1609ce905d2b3f3e71",
    "machine-history/decimals/float64/csr": "60b82c57a41326a76c17656c",
    "machine-history/decimals/float32/csr": "0b3fbf1609ce905d2b3f3e71",
    "svm/mix4/float64/dense": "bf61ce64ed7fd4c651aa6fef",
    "svm/mix4/float32/dense": "4be5ab3117c5c406b2d3b79f",
    "svm/mix4/float64/csr": "bf61ce64ed7fd4c651aa6fef",
    "svm/mix4/float32/csr": "4be5ab3117c5c406b2d3b79f",
    "svm/mix10/float64/dense": "c0805914a30d314f55b79483",
    "svm/mix10/float32/dense": "40aa2d1cbf00d2c5faafe863",
    "svm/mix10/float64/csr": "c0805914a30d314f55b79483",
    "svm/mix10/float32/csr": "40aa2d1cbf00d2c5faafe863",
    "svm/binary/float64/dense": "90dfea0ce368922c241f48d9",
    "svm/binary/float32/dense": "235d2816f6e5045b530c6983",
    "svm/binary/float64/csr": "90dfea0ce368922c241f48d9",
    "svm/binary/float32/csr": "235d2816f6e5045b530c6983",
    "svm/narrow/float64/dense": "3d50e400563b3765c47cae4c",
    "svm/narrow/float32/dense": "d578d8506e8365f3c843725b",
    "svm/narrow/float64/csr": "3d50e400563b3765c47cae4c",
    "svm/narrow/float32/csr": "d578d8506e8365f3c843725b",
    "svm/sparse/float64/dense": "a185cd3ef3701d6a682b31c8",
    "svm/sparse/float32/dense": "9030114bd99b33d52288e9bc",
    "svm/sparse/float64/csr": "a38c5fd7e4fa8a2028166ea1",
    "svm/sparse/float32/csr": "9030114bd99b33d52288e9bc",
    "svm/decimals/float64/dense": "4620896a7079ce1b948218e2",
    "svm/decimals/float32/dense": "ef90061dec1c98625c4a8d55",
    "svm/decimals/float64/csr": "4620896a7079ce1b948218e2",
    "svm/decimals/float32/csr": "9146cf9cbbb3a817cb5e280f",
    "svm-plain/mix4/float64/dense": "c0bd31ca1d42b7717b8b3ec3",
    "svm-plain/mix4/float32/dense": "05e773e83df573d419f3b116",
    "svm-plain/mix4/float64/csr": "c0bd31ca1d42b7717b8b3ec3",
    "svm-plain/mix4/float32/csr": "05e773e83df573d419f3b116",
    "svm-plain/mix10/float64/dense": "0bad5ee4a0b2fc47207163a3",
    "svm-plain/mix10/float32/dense": "10272e663f361d8bc4df7d17",
    "svm-plain/mix10/float64/csr": "0bad5ee4a0b2fc47207163a3",
    "svm-plain/mix10/float32/csr": "10272e663f361d8bc4df7d17",
    "svm-plain/binary/float64/dense": "9f3258642e94ee77b2a957f9",
    "svm-plain/binary/float32/dense": "b4d2bfff34bf5f6ed8546ee9",
    "svm-plain/binary/float64/csr": "9f3258642e94ee77b2a957f9",
    "svm-plain/binary/float32/csr": "b4d2bfff34bf5f6ed8546ee9",
    "svm-plain/narrow/float64/dense": "aad62bace501ffbee44360e0",
    "svm-plain/narrow/float32/dense": "fc20251c275c4b9ea210bff4",
    "svm-plain/narrow/float64/csr": "aad62bace501ffbee44360e0",
    "svm-plain/narrow/float32/csr": "fc20251c275c4b9ea210bff4",
    "svm-plain/sparse/float64/dense": "555f802569d957e3e22cdbe8",
    "svm-plain/sparse/float32/dense": "1cdbbb2f29c3d8147dd38889",
    "svm-plain/sparse/float64/csr": "555f802569d957e3e22cdbe8",
    "svm-plain/sparse/float32/csr": "1cdbbb2f29c3d8147dd38889",
    "svm-plain/decimals/float64/dense": "32ab144727047beb76971045",
    "svm-plain/decimals/float32/dense": "404eec59d8cde1f98d034a06",
    "svm-plain/decimals/float64/csr": "32ab144727047beb76971045",
    "svm-plain/decimals/float32/csr": "404eec59d8cde1f98d034a06",
    "svm-weighted/mix4/float64/dense": "1080300452cf0c7929fb2f57",
    "svm-weighted/mix4/float32/dense": "dd54241023c61477dba3064d",
    "svm-weighted/mix4/float64/csr": "1080300452cf0c7929fb2f57",
    "svm-weighted/mix4/float32/csr": "dd54241023c61477dba3064d",
    "svm-weighted/mix10/float64/dense": "1d84dfd56e0bb540d0453ae2",
    "svm-weighted/mix10/float32/dense": "5cce3860892ffe9eaf024b0c",
    "svm-weighted/mix10/float64/csr": "1d84dfd56e0bb540d0453ae2",
    "svm-weighted/mix10/float32/csr": "5cce3860892ffe9eaf024b0c",
    "svm-weighted/binary/float64/dense": "a4671451ff6c02d969515637",
    "svm-weighted/binary/float32/dense": "6637db1a3b0b9e799dc0e789",
    "svm-weighted/binary/float64/csr": "a4671451ff6c02d969515637",
    "svm-weighted/binary/float32/csr": "6637db1a3b0b9e799dc0e789",
    "svm-weighted/narrow/float64/dense": "fc84f6a9cdd823640e39d8e9",
    "svm-weighted/narrow/float32/dense": "c9762662115c95ada0dea3e6",
    "svm-weighted/narrow/float64/csr": "fc84f6a9cdd823640e39d8e9",
    "svm-weighted/narrow/float32/csr": "c9762662115c95ada0dea3e6",
    "svm-weighted/sparse/float64/dense": "3dfb93b3b4e186767c2a372c",
    "svm-weighted/sparse/float32/dense": "6464a3fd548be7f358351e25",
    "svm-weighted/sparse/float64/csr": "5df1df786977e31e0b3b71dc",
    "svm-weighted/sparse/float32/csr": "6464a3fd548be7f358351e25",
    "svm-weighted/decimals/float64/dense": "9dd814ff20b54c049ce33c6e",
    "svm-weighted/decimals/float32/dense": "b1e7ed5300e376f89de0ccc4",
    "svm-weighted/decimals/float64/csr": "9dd814ff20b54c049ce33c6e",
    "svm-weighted/decimals/float32/csr": "6efbc5fcb76f7db70f64d985",
    "svm-history/mix4/float64/dense": "4d8e6dfefa28a374b41de309",
    "svm-history/mix4/float32/dense": "8a20d59ebf286c29c435af0c",
    "svm-history/mix4/float64/csr": "4d8e6dfefa28a374b41de309",
    "svm-history/mix4/float32/csr": "8a20d59ebf286c29c435af0c",
    "svm-history/mix10/float64/dense": "f8632b90c29c6117f09e7f22",
    "svm-history/mix10/float32/dense": "8ed3d4f4b9a595af003fd91e",
    "svm-history/mix10/float64/csr": "f8632b90c29c6117f09e7f22",
    "svm-history/mix10/float32/csr": "8ed3d4f4b9a595af003fd91e",
    "svm-history/binary/float64/dense": "ba5157cf42f77b089035edd5",
    "svm-history/binary/float32/dense": "750e0d3420c7a81935cb4c23",
    "svm-history/binary/float64/csr": "ba5157cf42f77b089035edd5",
    "svm-history/binary/float32/csr": "750e0d3420c7a81935cb4c23",
    "svm-history/narrow/float64/dense": "1b2c117a59907a84fe40cf24",
    "svm-history/narrow/float32/dense": "7623788ff773f5d1e0e3a3b9",
    "svm-history/narrow/float64/csr": "1b2c117a59907a84fe40cf24",
    "svm-history/narrow/float32/csr": "7623788ff773f5d1e0e3a3b9",
    "svm-history/sparse/float64/dense": "cd5fdc37a04066c3f9cbde10",
    "svm-history/sparse/float32/dense": "10104936d62702a2bb1c9ae1",
    "svm-history/sparse/float64/csr": "aa57370f5e9deede08aaad54",
    "svm-history/sparse/float32/csr": "10104936d62702a2bb1c9ae1",
    "svm-history/decimals/float64/dense": "39d6dfe460b9735e1c3c33e7",
    "svm-history/decimals/float32/dense": "3d70b566650a73b56a524fac",
    "svm-history/decimals/float64/csr": "39d6dfe460b9735e1c3c33e7",
    "svm-history/decimals/float32/csr": "2dc38e239e6432e8e9f470ce",
    "piecewise/mix4/float64/dense": "7bee19ad274b6138990e155f",
    "piecewise/mix4/float32/dense": "c3f00ff993d7fc4e52769a43",
    "piecewise/mix10/float64/dense": "513622cc3c50e9b394c886bf",
    "piecewise/mix10/float32/dense": "215b401f26d8d4bae279177a",
    "piecewise/binary/float64/dense": "76e7e83d422d210cc96f8044",
    "piecewise/binary/float32/dense": "7af23c57ab368c75905f7b4d",
    "piecewise/narrow/float64/dense": "bd1f68823e1568ddd3b2e9f1",
    "piecewise/narrow/float32/dense": "5ecf5180381b36a20e152121",
    "piecewise/sparse/float64/dense": "25725d3cde8aa3d738cf03fa",
    "piecewise/sparse/float32/dense": "ca2a9343c5c4c57a1aa8e227",
    "piecewise/decimals/float64/dense": "854edf330a4422a221fd217d",
    "piecewise/decimals/float32/dense": "655bdcbd06351a47143f7025",
    "piecewise-zeros-avg/mix4/float64/dense": "7ce7b674a2de89bdd3405c55",
    "piecewise-zeros-avg/mix4/float32/dense": "e27f8ecbb4d77974d15bc7c5",
    "piecewise-zeros-avg/mix10/float64/dense": "5d131dabdcd413da4f17b41f",
    "piecewise-zeros-avg/mix10/float32/dense": "3961551f5338f1f534b089d7",
    "piecewise-zeros-avg/binary/float64/dense": "f2c30413516c87af044ec201",
    "piecewise-zeros-avg/binary/float32/dense": "8ed16475eb11bb55942f2d8d",
    "piecewise-zeros-avg/narrow/float64/dense": "394de343d580f4bfbb140744",
    "piecewise-zeros-avg/narrow/float32/dense": "7538aa57fe6d8f71aeeea820",
    "piecewise-zeros-avg/sparse/float64/dense": "7e64e6eb312fdf9dd6952ff5",
    "piecewise-zeros-avg/sparse/float32/dense": "8ca9521d1518f4b79d43eee5",
    "piecewise-zeros-avg/decimals/float64/dense": "2041ce587b919150c17b7490",
    "piecewise-zeros-avg/decimals/float32/dense": "7ee5107533b90b18fed342c7",
    "piecewise-margin/mix4/float64/dense": "b9c44fb1b07cd967f84366b5",
    "piecewise-margin/mix4/float32/dense": "81a6e817da4c1cc7a1f93516",
    "piecewise-margin/mix10/float64/dense": "513622cc3c50e9b394c886bf",
    "piecewise-margin/mix10/float32/dense": "215b401f26d8d4bae279177a",
    "piecewise-margin/binary/float64/dense": "6d14f0829f86b50cfee95f9a",
    "piecewise-margin/binary/float32/dense": "e382d13f4963f34ed6af5c93",
    "piecewise-margin/narrow/float64/dense": "05822e18155dcd9ee4f43ef7",
    "piecewise-margin/narrow/float32/dense": "c958b7aa68ec310859fc7aec",
    "piecewise-margin/sparse/float64/dense": "699bdb1743f30939f7c93e5f",
    "piecewise-margin/sparse/float32/dense": "17782c291b55eebb72f8e9f1",
    "piecewise-margin/decimals/float64/dense": "cedebd04aba704afdd94b580",
    "piecewise-margin/decimals/float32/dense": "cbee808829525b548ad957dc",
}


@pytest.mark.parametrize("case", list(_cases()))
def test_weights_are_bit_for_bit_those_of_main(case):
    assert _fingerprint(case) == GOLDEN[case]


def test_every_case_has_a_golden_value():
    assert sorted(GOLDEN) == sorted(_cases())


if __name__ == "__main__":
    for case in _cases():
        print(f'    "{case}": "{_fingerprint(case)}",')

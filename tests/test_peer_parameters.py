"""A script written for scikit-learn or imbalanced-learn, with its import swapped for
patrec's, either behaves the same or fails with patrec's message: a peer's keyword
never reaches Python's own "unexpected keyword argument"."""

import inspect

import imblearn.under_sampling
import numpy as np
import pytest
import sklearn.discriminant_analysis
import sklearn.linear_model
import sklearn.multiclass
import sklearn.neighbors

import patrec
from patrec import NearestNeighbors
from patrec.neighbors import Condensing, Editing

# patrec's class and the peer's class it stands in for
PEERS = {
    "Perceptron": sklearn.linear_model.Perceptron,
    "LinearMachine": sklearn.linear_model.Perceptron,
    "SoftmaxRegression": sklearn.linear_model.LogisticRegression,
    "FisherLDA": sklearn.discriminant_analysis.LinearDiscriminantAnalysis,
    "QDA": sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis,
    "MinimumDistanceClassifier": sklearn.neighbors.NearestCentroid,
    "KNeighborsClassifier": sklearn.neighbors.KNeighborsClassifier,
    "NearestNeighbors": sklearn.neighbors.NearestNeighbors,
    "OneVsAll": sklearn.multiclass.OneVsRestClassifier,
    "AllPairs": sklearn.multiclass.OneVsOneClassifier,
    "OutputCodes": sklearn.multiclass.OutputCodeClassifier,
    "Editing": imblearn.under_sampling.AllKNN,
    "Condensing": imblearn.under_sampling.CondensedNearestNeighbour,
}


def _patrec_class(name):
    return getattr(patrec, name, None) or getattr(patrec.neighbors, name)


def _peer_parameters():
    for name, peer in PEERS.items():
        ours = _patrec_class(name)
        theirs = set(inspect.signature(peer.__init__).parameters) - {"self"}
        for parameter in sorted(theirs - set(ours._param_names())):
            yield name, parameter


@pytest.mark.parametrize("name, parameter", list(_peer_parameters()))
def test_every_peer_keyword_gets_patrecs_message(name, parameter):
    cls = _patrec_class(name)
    with pytest.raises(TypeError) as raised:
        cls(**{parameter: None})
    message = str(raised.value)
    assert "unexpected keyword argument" not in message
    assert f"{parameter}:" in message and "in patrec" in message
    assert cls._PEER_PARAMETERS.get(parameter), (
        f"{name} has no word on the peer's {parameter!r}"
    )
    with pytest.raises(ValueError, match=f"{parameter}: "):
        cls().set_params(**{parameter: None})


def test_the_reported_cases():
    with pytest.raises(TypeError, match="tol: none: the course's rule stops"):
        patrec.Perceptron(tol=1e-3)
    X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]
    # weights=None is scikit-learn's spelling of "uniform": the same answers
    np.testing.assert_array_equal(
        patrec.KNeighborsClassifier(3, weights=None).fit(X, y).predict_proba(X),
        patrec.KNeighborsClassifier(3).fit(X, y).predict_proba(X),
    )
    # a message about the metric, even when the data hold what it is made for
    with pytest.raises(ValueError, match="nan_euclidean.*impute"):
        patrec.KNeighborsClassifier(metric="nan_euclidean").fit(
            [[0.0], [np.nan]], [0, 1]
        )
    with pytest.raises(ValueError, match="cosine.*norm"):
        NearestNeighbors(metric="cosine").fit(X)
    with pytest.raises(TypeError, match="takes the number k itself"):
        Editing(n_neighbors=NearestNeighbors()).fit_resample(X * 3, y * 3)
    with pytest.raises(ValueError, match="code_size"):
        patrec.OutputCodes(code="one-vs-all", code_size=2).fit(X, y)


def test_condensing_takes_imbalanced_learns_n_neighbors():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 2))
    y = (X[:, 0] + rng.normal(0, 0.5, 120) > 0).astype(int)
    kept = Condensing().fit(X, y).sample_indices_
    for one in (1, None):
        np.testing.assert_array_equal(
            Condensing(n_neighbors=one).fit(X, y).sample_indices_, kept
        )
    for other in (3, True, 1.5):
        with pytest.raises(ValueError, match="n_neighbors.*1-NN"):
            Condensing(n_neighbors=other).fit(X, y)
    with pytest.raises(TypeError, match="n_seeds_S: always 1"):
        Condensing(n_seeds_S=1)


@pytest.mark.parametrize("seed", range(4))
def test_repeated_editing_counts_its_rounds_as_imbalanced_learn(seed):
    imblearn = pytest.importorskip("imblearn.under_sampling")
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(300, 2)), rng.normal(1.0, 1, size=(80, 2))])
    y = np.repeat([0, 1], [300, 80])
    ours = Editing(max_iter=20, kind_sel="all", sampling_strategy="all")
    theirs = imblearn.RepeatedEditedNearestNeighbours(
        max_iter=20, kind_sel="all", sampling_strategy="all"
    )
    ours.fit_resample(X, y)
    theirs.fit_resample(X, y)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_array_equal(ours.sample_indices_, np.sort(theirs.sample_indices_))

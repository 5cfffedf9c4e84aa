"""The training history of the error-correcting learners (``record_history``).

The record must be exact: replaying its corrections with the course's rule, written
here from the textbook and not from the library, must give every epoch's weights
and the final ``coef_`` / ``intercept_``; and recording must never change a result.
"""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris

from patrec import LinearMachine, MulticlassSVM, Perceptron, PiecewiseLinearClassifier
from patrec._training import TrainingHistory, replay
from patrec.exceptions import ConvergenceWarning

FIELDS = ("epoch", "t", "sample", "target", "rival", "step")


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return X[::2], y[::2]


def augmented(X):
    return np.hstack([np.asarray(X, dtype=np.float64), np.ones((len(X), 1))])


def final_weights(clf):
    return np.hstack([clf.coef_, clf.intercept_[:, None]])


def corrections_by_epoch(history):
    """The correction rows grouped by epoch (epochs without corrections included)."""
    rows = history.corrections
    return [rows[rows["epoch"] == e] for e in range(1, history.n_epochs + 1)]


def average_of_steps(W0, moves, steps_total):
    """The mean of the weights after each of the ``steps_total`` steps, given every
    move (t, row, delta) applied at step t: delta counts for steps t .. T."""
    mean = W0.copy()
    for t, row, delta in moves:
        mean[row] += delta * (steps_total - t + 1) / steps_total
    return mean


# -- the course's rules, one per learner ----------------------------------------------


def replay_perceptron(clf, X, n_samples):
    """a_r += rho (x, 1) for a missed sample of perceptron r's own class, a_r -= rho
    (x, 1) for one of another class (two classes: one perceptron, positive class 1)."""
    history, Z = clf.history_, augmented(X)
    W = history.weights[0].copy()
    binary = len(clf.classes_) == 2
    moves, last_epoch = [], np.zeros(W.shape[0], dtype=int)
    for epoch, rows in enumerate(corrections_by_epoch(history), start=1):
        for row in rows:
            z = Z[row["sample"]]
            if binary:
                problem, sign = 0, (1.0 if row["target"] == 1 else -1.0)
                assert row["rival"] == 1 - row["target"]
            elif row["rival"] == -1:  # perceptron of the sample's own class
                problem, sign = row["target"], 1.0
            else:
                problem, sign = row["rival"], -1.0
            if sign > 0:
                W[problem] += row["step"] * z
            else:
                W[problem] -= row["step"] * z
            moves.append((row["t"], problem, sign * row["step"] * z))
            last_epoch[problem] = epoch
        np.testing.assert_array_equal(W, history.weights[epoch])
    # a perceptron trains until the epoch after its last correction
    active_epochs = np.minimum(last_epoch + 1, history.n_epochs)
    if clf.averaged:
        means = [
            average_of_steps(
                history.weights[0],
                [m for m in moves if m[1] == r],
                n_samples * active_epochs[r],
            )[r]
            for r in range(W.shape[0])
        ]
        return np.array(means)
    return W


def replay_linear_machine(clf, X, n_samples):
    """Winner: a_y += rho (x, 1), a_rival -= rho (x, 1).  All: a_y += rho (x, 1) once
    and each of the |E| rivals loses rho (x, 1) / |E|."""
    history, Z = clf.history_, augmented(X)
    W = history.weights[0].copy()
    moves = []
    for epoch, rows in enumerate(corrections_by_epoch(history), start=1):
        for t in np.unique(rows["t"]):  # one correction: the rows of one step
            group = rows[rows["t"] == t]
            z, y, step = Z[group[0]["sample"]], group[0]["target"], group[0]["step"]
            assert (group["sample"] == group[0]["sample"]).all()
            assert (group["target"] == y).all() and (group["rival"] != y).all()
            assert clf.update == "all" or len(group) == 1
            scores = W @ z
            E = [
                r
                for r in range(len(W))
                if r != y and scores[y] - scores[r] <= clf.margin
            ]
            if clf.update == "all":
                assert sorted(group["rival"]) == E
            else:
                assert group[0]["rival"] == max(E, key=lambda r: (scores[r], -r))
            W[y] += step * z
            moves.append((t, y, step * z))
            for r in group["rival"]:
                W[r] -= step / len(group) * z
                moves.append((t, r, -step / len(group) * z))
        np.testing.assert_array_equal(W, history.weights[epoch])
    if clf.averaged:
        return average_of_steps(history.weights[0], moves, n_samples * history.n_epochs)
    return W


def replay_piecewise(clf, X, n_samples):
    """The best own subclass m gains rho (x, 1), the best subclass n of another class
    loses it, whenever alpha_m . y - alpha_n . y <= margin."""
    history, Z = clf.history_, augmented(X)
    owner = np.repeat(np.arange(len(clf.classes_)), clf.n_subclasses_)
    W = history.weights[0].copy()
    moves = []
    for epoch, rows in enumerate(corrections_by_epoch(history), start=1):
        for row in rows:
            z, y = Z[row["sample"]], row["target"]
            scores = W @ z
            own = np.flatnonzero(owner == y)
            other = np.flatnonzero(owner != y)
            m, n = own[np.argmax(scores[own])], other[np.argmax(scores[other])]
            assert (row["raised"], row["lowered"]) == (m, n)
            assert row["rival"] == owner[n] and scores[m] - scores[n] <= clf.margin
            W[m] += row["step"] * z
            W[n] -= row["step"] * z
            moves += [(row["t"], m, row["step"] * z), (row["t"], n, -row["step"] * z)]
        np.testing.assert_array_equal(W, history.weights[epoch])
    if clf.averaged:
        return average_of_steps(history.weights[0], moves, n_samples * history.n_epochs)
    return W


def replay_svm(clf, X, n_samples):
    """Step s: every w_r shrinks by (1 - lambda eta_s), eta_s = 1 / (lambda s); then
    the true class gains eta_s (x, 1) and the winner r* loses it.  The averaged
    weights are the mean of the weights after each step of the last half of the
    epochs."""
    history, Z = clf.history_, augmented(X)
    lam = clf.alpha
    W = history.weights[0].copy()
    rows = history.corrections
    first_averaged = clf.max_epochs // 2 + 1
    total, count, k = np.zeros_like(W), 0, 0
    for s in range(1, n_samples * history.n_epochs + 1):
        W *= 1 - lam * (1 / (lam * s))
        while k < len(rows) and rows[k]["t"] == s:
            row = rows[k]
            assert row["step"] == pytest.approx(1 / (lam * s), rel=1e-15)
            z = Z[row["sample"]]
            scores = W @ z
            rivals = np.where(np.arange(len(W)) == row["target"], -np.inf, scores)
            assert row["rival"] == np.argmax(rivals)
            W[row["target"]] += row["step"] * z
            W[row["rival"]] -= row["step"] * z
            k += 1
        epoch = -(-s // n_samples)
        if s % n_samples == 0:
            scale = np.abs(history.weights[epoch]).max()
            np.testing.assert_allclose(
                W, history.weights[epoch], rtol=0, atol=1e-11 * scale
            )
        if epoch >= first_averaged:
            total += W
            count += 1
    assert k == len(rows)
    return total / count if clf.averaged else W


REPLAYS = {
    Perceptron: replay_perceptron,
    LinearMachine: replay_linear_machine,
    PiecewiseLinearClassifier: replay_piecewise,
    MulticlassSVM: replay_svm,
}

CASES = [
    Perceptron(max_epochs=8, random_state=0),
    Perceptron(
        max_epochs=8, averaged=True, margin=0.5, learning_rate=0.3, random_state=1
    ),
    LinearMachine(max_epochs=8, random_state=0),
    LinearMachine(max_epochs=8, averaged=True, random_state=0),
    LinearMachine(
        update="all", margin=0.3, learning_rate=0.7, max_epochs=8, random_state=2
    ),
    LinearMachine(update="all", averaged=True, max_epochs=8, random_state=2),
    PiecewiseLinearClassifier(2, max_epochs=8, random_state=0),
    PiecewiseLinearClassifier(
        3, averaged=True, margin=0.2, max_epochs=8, random_state=0
    ),
    MulticlassSVM(alpha=1e-2, max_epochs=6, averaged=False, random_state=0),
    MulticlassSVM(alpha=1e-2, max_epochs=6, random_state=0),
]


def case_id(clf):
    return repr(clf)


@pytest.mark.parametrize("clf", CASES, ids=case_id)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_replaying_the_corrections_gives_every_epoch_and_the_result(iris, clf, dtype):
    X, y = iris
    X = X.astype(dtype)
    clf.set_params(record_history=True).fit(X, y)
    history = clf.history_
    assert isinstance(history, TrainingHistory)
    assert history.weights.shape == (clf.n_iter_ + 1,) + final_weights(clf).shape
    for field in FIELDS:
        assert field in history.corrections.dtype.names
    rows = history.corrections
    assert len(rows) > 0
    assert (rows["target"] == y[rows["sample"]]).all()
    assert (np.diff(rows["epoch"]) >= 0).all()
    result = REPLAYS[type(clf)](clf, X, len(y))
    if clf.averaged or isinstance(clf, MulticlassSVM):
        np.testing.assert_allclose(
            result, final_weights(clf), rtol=1e-9, atol=1e-9 * np.abs(result).max()
        )
    else:
        np.testing.assert_array_equal(result, final_weights(clf))
        np.testing.assert_array_equal(history.weights[-1], final_weights(clf))


@pytest.mark.parametrize("clf", CASES, ids=case_id)
def test_corrections_per_epoch_match_the_counts(iris, clf):
    X, y = iris
    clf.set_params(record_history=True).fit(X, y)
    rows = clf.history_.corrections
    per_epoch = clf.history_.corrections_per_epoch
    counted = getattr(clf, "mistakes_", getattr(clf, "corrections_", None))
    if counted is not None:
        np.testing.assert_array_equal(per_epoch, counted)
    for epoch, count in enumerate(per_epoch, start=1):
        inside = rows[rows["epoch"] == epoch]
        if isinstance(clf, Perceptron):  # each perceptron counts its own
            keys = {(r["t"], r["raised"], r["lowered"]) for r in inside}
        else:
            keys = set(inside["t"].tolist())
        assert len(keys) == count


@pytest.mark.parametrize("clf", CASES, ids=case_id)
def test_recording_changes_nothing(iris, clf):
    X, y = iris
    plain = clf.set_params(record_history=False).fit(X, y)
    coef, intercept, n_iter = plain.coef_.copy(), plain.intercept_.copy(), plain.n_iter_
    assert not hasattr(plain, "history_")
    recorded = clf.set_params(record_history=True).fit(X, y)
    np.testing.assert_array_equal(recorded.coef_, coef)
    np.testing.assert_array_equal(recorded.intercept_, intercept)
    assert recorded.n_iter_ == n_iter
    full = recorded.history_
    light = clf.set_params(record_history="weights").fit(X, y).history_
    assert len(light.corrections) == 0
    assert light.corrections.dtype == full.corrections.dtype
    np.testing.assert_array_equal(light.weights, full.weights)
    np.testing.assert_array_equal(
        light.corrections_per_epoch, full.corrections_per_epoch
    )
    assert "history_" not in vars(clf.set_params(record_history=False).fit(X, y))


@pytest.mark.parametrize("clf", CASES, ids=case_id)
def test_library_replay_reaches_every_epoch(iris, clf):
    X, y = iris
    clf.set_params(record_history=True).fit(X, y)
    history = clf.history_
    ends = (
        np.searchsorted(
            history.corrections["epoch"],
            np.arange(1, history.n_epochs + 1),
            side="right",
        )
        - 1
    )
    reached = {}
    for index, W in replay(history, X):
        reached[index] = W.copy()
    assert len(reached) == history.corrections_per_epoch.sum()  # one per correction
    for epoch, end in enumerate(ends, start=1):
        if end < 0 or history.corrections[end]["epoch"] != epoch:
            continue  # an epoch without corrections
        if history.shrinks:  # the SVM's weights keep shrinking after the last update
            continue
        np.testing.assert_array_equal(reached[end], history.weights[epoch])


def test_initial_weights_are_the_starting_point(iris):
    X, y = iris
    zero = LinearMachine(max_epochs=3, record_history=True, random_state=0).fit(X, y)
    assert not zero.history_.weights[0].any()
    pw = PiecewiseLinearClassifier(
        2, max_epochs=3, record_history=True, random_state=0
    ).fit(X, y)
    start = pw.history_.weights[0]
    assert start.shape == (6, X.shape[1] + 1)
    means = start[:, :-1]  # alpha = (m, -|m|^2 / 2) for the k-means means m
    np.testing.assert_allclose(start[:, -1], -0.5 * (means**2).sum(axis=1))


def test_binary_perceptron_history_has_one_row(iris):
    X, y = iris
    keep = y < 2
    clf = Perceptron(record_history=True, random_state=0).fit(X[keep], y[keep])
    assert clf.history_.weights.shape[1:] == (1, X.shape[1] + 1)
    assert set(clf.history_.corrections["rival"]) <= {0, 1}


def test_weighted_steps_are_recorded(iris):
    X, y = iris
    weights = np.random.default_rng(0).uniform(0.5, 2.0, size=len(y))
    clf = LinearMachine(
        learning_rate=0.5, max_epochs=4, record_history=True, random_state=0
    ).fit(X, y, sample_weight=weights)
    rows = clf.history_.corrections
    np.testing.assert_array_equal(rows["step"], 0.5 * weights[rows["sample"]])
    np.testing.assert_array_equal(
        replay_linear_machine(clf, X, len(y)), final_weights(clf)
    )


def test_history_pickles_and_a_refit_forgets_it(iris):
    X, y = iris
    clf = LinearMachine(max_epochs=3, record_history=True, random_state=0).fit(X, y)
    copy = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(copy.history_.corrections, clf.history_.corrections)
    np.testing.assert_array_equal(copy.history_.weights, clf.history_.weights)
    assert "n_epochs=3" in repr(copy.history_)
    clf.set_params(record_history=False).fit(X, y)
    assert not hasattr(clf, "history_")


def test_replay_needs_the_corrections(iris):
    X, y = iris
    clf = LinearMachine(max_epochs=3, record_history="weights", random_state=0).fit(
        X, y
    )
    with pytest.raises(ValueError, match="record_history=True"):
        next(replay(clf.history_, X))


@pytest.mark.parametrize(
    "value, error, match",
    [
        ("yes", ValueError, "record_history must be True, False or 'weights'"),
        (1, TypeError, "record_history must be True, False or 'weights', got 1"),
        (None, TypeError, "record_history must be True, False or 'weights', got None"),
    ],
)
@pytest.mark.parametrize(
    "cls", [Perceptron, LinearMachine, MulticlassSVM, PiecewiseLinearClassifier]
)
def test_bad_record_history_is_refused(iris, cls, value, error, match):
    X, y = iris
    with pytest.raises(error, match=match):
        cls(record_history=value).fit(X, y)


def test_replay_refuses_data_that_are_not_the_training_data(iris):
    X, y = iris
    clf = LinearMachine(max_epochs=5, record_history=True, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=r"4 features, at least \d+ rows"):
        list(replay(clf.history_, X[:, :3]))
    with pytest.raises(ValueError, match=r"at least \d+ rows"):
        list(replay(clf.history_, X[:10]))
    other = X[::-1].copy()  # the same rows in another order
    with pytest.raises(
        ValueError, match="does not give the weights recorded after epoch 1"
    ):
        list(replay(clf.history_, other))


@pytest.mark.parametrize(
    "clf",
    [
        LinearMachine(update="all", max_epochs=4, random_state=0),
        MulticlassSVM(alpha=1e-2, max_epochs=3, random_state=0),
    ],
    ids=case_id,
)
def test_replay_takes_the_training_data_sparse_or_in_another_precision(iris, clf):
    import scipy.sparse as sp

    X, y = iris
    dense = clf.set_params(record_history=True).fit(X.astype(np.float32), y).history_
    # fitted on float32, replayed on the float64 originals: within rounding
    last = None
    for _, W in replay(dense, X):
        last = W.copy()
    sparse = clf.fit(sp.csr_matrix(X), y).history_
    *_, (_, W) = replay(sparse, sp.csr_matrix(X))
    np.testing.assert_allclose(W, last, rtol=1e-5, atol=1e-5 * np.abs(last).max())


def test_docstring_examples_run():
    import doctest

    import patrec._training

    result = doctest.testmod(patrec._training, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0

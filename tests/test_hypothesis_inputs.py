"""Property-based tests (hypothesis) over every registered classifier and the
neighbour search: awkward but valid inputs give a sound answer or a clear error.

Drawn: one to six samples per class (so one sample per class, and more features than
samples, occur), one to eight features, float32 or float64, magnitudes from 1e-300 to
1e300 (1e-30 .. 1e30 in float32; ordinary ones more often), duplicate rows, constant
columns, signed zeros, Fortran-ordered and strided views, string or integer labels.
Each call must either return a result consistent with the data (labels among
``classes_``, finite probabilities summing to one, finite scores, exact neighbours) or
raise ValueError or TypeError; it must never crash, hang, return NaN silently
(patrec's RuntimeWarnings are errors in this suite) or change the caller's arrays.

Of the data in a classifier's scope (ordinary magnitudes, and what the classifier
documents that it needs: enough samples, non-singular covariances), at least the
share `ANSWERED` must be answered: the examples outside it run too, but hypothesis
draws until `EXAMPLES` in scope have run.
"""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from patrec.exceptions import ConvergenceWarning
from patrec.neighbors import BranchBoundTree, BruteForce
from patrec.registry import classifier_names, get_classifier

EXAMPLES = 25  # per estimator; the whole file runs in a few minutes at most
COUNTS = {}
ANSWERED = 1.0  # the share of the examples in scope that must be answered


@st.composite
def datasets(draw):
    dtype = draw(st.sampled_from([np.float64, np.float32]))
    n_classes = draw(st.integers(2, 3))
    per_class = draw(st.integers(1, 6))
    n_features = draw(st.integers(1, 8))
    extreme = st.integers(-30, 30) if dtype == np.float32 else st.integers(-300, 300)
    # ordinary magnitudes twice as often as the whole range
    exponent = draw(st.one_of(st.integers(-3, 3), st.integers(-3, 3), extreme))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    n = n_classes * per_class
    codes = np.repeat(np.arange(n_classes), per_class)
    X = rng.normal(size=(n, n_features)) + 3.0 * codes[:, None]
    if draw(st.booleans()):  # duplicate rows (possibly with different labels)
        X[-1] = X[0]
    if draw(st.booleans()):  # a constant column
        X[:, draw(st.integers(0, n_features - 1))] = 1.5
    if draw(st.booleans()):  # signed zeros
        X[0, 0], X[-1, -1] = -0.0, 0.0
    X = (X * 10.0**exponent).astype(dtype)
    layout = draw(st.sampled_from(["C", "F", "strided"]))
    if layout == "F":
        X = np.asfortranarray(X)
    elif layout == "strided":
        X = np.repeat(X, 2, axis=1)[:, ::2]
    labels = draw(
        st.sampled_from([np.array(["cat", "dog", "eel"]), np.array([-3, 7, 100])])
    )
    return X, labels[codes]


def _tame(X):
    """Data whose distances and sums stay far inside the range of their dtype (the
    largest magnitude within 1e-15 .. 1e15, or all zero)."""
    largest = float(np.max(np.abs(X))) if X.size else 0.0
    return largest == 0 or 1e-15 <= largest <= 1e15


def _in_scope(name, X, y):
    """Whether the data are tame and meet what the classifier ``name`` documents
    that it needs (it refuses other data with a clear error)."""
    if not _tame(X):
        return False
    X = X.astype(np.float64)
    groups = [X[y == label] for label in np.unique(y)]
    if name == "knn":  # n_neighbors=5 neighbours
        return len(X) >= 5
    if name == "qda":  # a non-singular covariance matrix per class
        n_features = X.shape[1]
        return all(
            len(group) > n_features
            and np.linalg.matrix_rank(group - group.mean(axis=0)) == n_features
            for group in groups
        )
    if name == "fisher-lda":  # some within-class variation
        return len(X) > len(groups) and any(
            np.ptp(group, axis=0).any() for group in groups
        )
    if name == "piecewise-linear":  # n_subclasses=2 per class
        return min(len(group) for group in groups) >= 2
    return True


def _check_estimator_on(name, X, y):
    X_before, y_before = X.copy(), y.copy()
    clf = get_classifier(name)()
    if "random_state" in clf.get_params():
        clf.set_params(random_state=0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(X, y)
    except (ValueError, TypeError) as error:
        assert str(error), "an error must say what is wrong"
        outcome = "refused"
    else:
        try:
            predicted = clf.predict(X)
            assert set(predicted.tolist()) <= set(clf.classes_.tolist())
            if hasattr(clf, "predict_proba"):
                proba = clf.predict_proba(X)
                assert np.isfinite(proba).all()
                np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-6)
            if hasattr(clf, "decision_function"):
                assert np.isfinite(clf.decision_function(X)).all()
            outcome = "fitted"
        except (ValueError, TypeError) as error:  # e.g. distances that overflow
            assert str(error)
            outcome = "refused at predict"
    np.testing.assert_array_equal(X, X_before)  # the caller's arrays are untouched
    np.testing.assert_array_equal(y, y_before)
    assume(_in_scope(name, X, y))
    key = (name, outcome)
    COUNTS[key] = COUNTS.get(key, 0) + 1


@pytest.mark.parametrize("name", classifier_names())
def test_awkward_inputs_give_an_answer_or_a_clear_error(name):
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(datasets())
    def check(data):
        _check_estimator_on(name, *data)

    check()
    runs = {outcome: count for (n, outcome), count in COUNTS.items() if n == name}
    total = sum(runs.values())
    print(f"{name}: {total} examples in scope {runs}")
    assert total > 0, f"no example in the scope of {name}"
    share = runs.get("fitted", 0) / total
    assert share >= ANSWERED, (
        f"{name} answered {share:.0%} of {total} examples in scope; the test states "
        f"at least {ANSWERED:.0%}"
    )


def _reference_neighbors(X, queries, k):
    """Brute force in NumPy: order by (squared distance in float64, index)."""
    X64, Q64 = X.astype(np.float64), queries.astype(np.float64)
    d = ((Q64[:, None, :] - X64[None, :, :]) ** 2).sum(axis=2)
    order = np.lexsort((np.broadcast_to(np.arange(len(X)), d.shape), d), axis=1)
    return order[:, :k]


@pytest.mark.parametrize("index", [BruteForce, BranchBoundTree])
@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(data=datasets(), k=st.integers(1, 4))
def test_neighbour_search_is_exact_on_awkward_inputs(index, data, k):
    X, _ = data
    # squared distances out of range are refused (clear error), checked elsewhere
    assume(_tame(X))
    X_before = X.copy()
    k = min(k, len(X))
    searcher = index(X)
    queries = X[::-1] * np.asarray(0.5, X.dtype)
    _, found = searcher.query(queries, k=k)
    expected = _reference_neighbors(X, queries, k)
    if X.dtype == np.float64:
        np.testing.assert_array_equal(found, expected)
    np.testing.assert_array_equal(X, X_before)

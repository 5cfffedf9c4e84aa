"""Bad input to the neighbour searches and the classifier: a clear error, never a
crash, a hang or a changed caller array."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp

from patrec import MinimumDistanceClassifier
from patrec.neighbors import BranchBoundTree, BruteForce, KNeighborsClassifier

RNG = np.random.default_rng(0)
X = RNG.normal(size=(60, 3))
Y = np.arange(60) % 3
INDEXES = [BruteForce, lambda data: BranchBoundTree(data, random_state=0)]


@pytest.mark.parametrize("make", INDEXES)
@pytest.mark.parametrize(
    "k, error",
    [
        (True, TypeError),
        (np.float64(2.0), TypeError),
        ("2", TypeError),
        (-3, ValueError),
    ],
)
def test_bad_k(make, k, error):
    with pytest.raises(error, match="k must"):
        make(X).query(X, k=k)


@pytest.mark.parametrize("make", INDEXES)
@pytest.mark.parametrize(
    "n_jobs, error", [(0, ValueError), ("2", TypeError), (1.5, TypeError)]
)
def test_bad_n_jobs(make, n_jobs, error):
    with pytest.raises(error, match="n_jobs"):
        make(X).query(X, n_jobs=n_jobs)


@pytest.mark.parametrize("make", INDEXES)
def test_bad_query_shapes(make):
    index = make(X)
    with pytest.raises(ValueError, match="2-D"):
        index.query(X[None])
    with pytest.raises(ValueError, match="coordinates"):  # (1-D: one point, SciPy's)
        index.query(X[0][:-1])
    with pytest.raises(TypeError, match="[Ss]parse"):
        index.query(sp.csr_matrix(X))
    with pytest.raises(TypeError, match="[Ss]parse"):
        make(sp.csr_matrix(X))
    with pytest.raises(ValueError, match="features"):
        index.query(np.zeros((2, 4)))


@pytest.mark.parametrize(
    "r, error",
    [
        (np.nan, ValueError),
        (np.inf, ValueError),
        (-0.5, ValueError),
        (True, TypeError),
        ("1", TypeError),
    ],
)
def test_bad_radius(r, error):
    with pytest.raises(error, match="r must"):
        BranchBoundTree(X, random_state=0).query_radius(X[:2], r)


@pytest.mark.parametrize("metric_params", [{"VI": np.eye(3)}, {"w": 1}])
def test_metric_params_of_another_metric_are_rejected(metric_params):
    with pytest.raises(ValueError, match="metric_params"):
        BruteForce(X, metric="euclidean", metric_params=metric_params)


@pytest.mark.parametrize("metric_params", [5, "abc", "", [1], [], ("VI", 1)])
@pytest.mark.parametrize(
    "make",
    [
        lambda params: BruteForce(X, metric_params=params),
        lambda params: KNeighborsClassifier(metric_params=params).fit(X, Y),
        lambda params: MinimumDistanceClassifier(metric_params=params).fit(X, Y),
    ],
)
def test_metric_params_that_are_no_dict_are_refused(make, metric_params):
    with pytest.raises(TypeError, match="metric_params must be a dict or None"):
        make(metric_params)


@pytest.mark.parametrize("metric", ["euclidean", "cityblock", "minkowski"])
@pytest.mark.parametrize(
    "p, error", [(-1, ValueError), (0.5, ValueError), ("abc", TypeError)]
)
@pytest.mark.parametrize("cls", [KNeighborsClassifier, MinimumDistanceClassifier])
def test_a_bad_p_is_refused_with_any_metric(cls, metric, p, error):
    # p is used by minkowski alone, but a bad one is never accepted silently
    with pytest.raises(error, match="p must"):
        cls(metric=metric, p=p).fit(X, Y)


def test_a_valid_p_with_another_metric_is_ignored_as_in_sklearn():
    plain = KNeighborsClassifier(metric="euclidean").fit(X, Y)
    other_p = KNeighborsClassifier(metric="euclidean", p=1).fit(X, Y)
    np.testing.assert_array_equal(other_p.predict(X), plain.predict(X))


@pytest.mark.parametrize(
    "weights",
    [
        lambda d: d * np.nan,
        lambda d: -np.ones_like(d),
        lambda d: np.full_like(d, np.inf),
    ],
)
def test_weights_callable_returning_nonsense(weights):
    model = KNeighborsClassifier(n_neighbors=3, weights=weights).fit(X, Y)
    with pytest.raises(ValueError, match="finite weights >= 0"):
        model.predict(X[:4])


@pytest.mark.parametrize(
    "threshold, error",
    [(np.nan, ValueError), (-0.1, ValueError), (1.5, ValueError), ("0.5", TypeError)],
)
def test_reject_threshold_outside_zero_one(threshold, error):
    with pytest.raises(error, match="reject_threshold"):
        KNeighborsClassifier(reject_threshold=threshold).fit(X, Y)


@pytest.mark.parametrize("algorithm", ["brute", "bnb"])
def test_classifier_leaves_the_caller_arrays_alone_and_pickles(algorithm):
    data, labels = X.copy(), Y.copy()
    model = KNeighborsClassifier(
        n_neighbors=4, weights="distance", algorithm=algorithm
    ).fit(data, labels)
    queries = RNG.normal(size=(10, 3))
    saved = queries.copy()
    proba = model.predict_proba(queries)
    model.kneighbors(queries)
    np.testing.assert_array_equal(data, X)
    np.testing.assert_array_equal(labels, Y)
    np.testing.assert_array_equal(queries, saved)
    clone = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(clone.predict_proba(queries), proba)


def test_radius_query_leaves_the_caller_array_alone():
    queries = np.asfortranarray(RNG.normal(size=(10, 3)))
    saved = queries.copy()
    BranchBoundTree(X, random_state=0).query_radius(queries, 0.7, return_distance=True)
    np.testing.assert_array_equal(queries, saved)

"""Brute force and the branch-and-bound tree return exactly brute force's answer.

The references:

- the same reduced-distance kernel (`Metric.reduced`) with a stable sort by
  (distance, index): bit-for-bit the same values, so the order must match exactly;
- integer-valued data, where numpy computes every reduced distance exactly, for an
  independent reference including ties and duplicates;
- SciPy's ``cdist`` and scikit-learn's ``KDTree`` for the distances themselves.
"""

import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.neighbors import KDTree

from patrec.neighbors import BranchBoundTree, BruteForce, Metric
from patrec.neighbors.search import _brute

INDEXES = {
    "brute": BruteForce,
    "bnb": lambda X, **kw: BranchBoundTree(X, random_state=0, **kw),
    "bnb-small": lambda X, **kw: BranchBoundTree(X, leaf_size=3, **kw),
    "bnb-kmeans": lambda X, **kw: BranchBoundTree(
        X, partition="kmeans", random_state=0, **kw
    ),
    "bnb-kmeans-small": lambda X, **kw: BranchBoundTree(
        X, partition="kmeans", branching=2, leaf_size=3, random_state=1, **kw
    ),
}
METRICS = [
    "euclidean",
    "sqeuclidean",
    "cityblock",
    "chebyshev",
    "minkowski",
    "mahalanobis",
]


def metric_kwargs(metric, n_features, rng):
    if metric == "minkowski":
        return {"p": 3}
    if metric == "mahalanobis":
        A = rng.normal(size=(n_features, n_features))
        return {"metric_params": {"VI": A @ A.T + n_features * np.eye(n_features)}}
    return {}


def reference(X, Q, k, metric, **kwargs):
    """Indices and reduced distances from patrec's own pairwise kernel."""
    spec = Metric(metric, kwargs.get("p", 2), kwargs.get("metric_params"), X.shape[1])
    reduced = spec.reduced(spec.prepare(Q), spec.prepare(X))
    columns = np.broadcast_to(np.arange(X.shape[0]), reduced.shape)
    order = np.lexsort((columns, reduced), axis=1)[:, :k]
    distances = spec.finish(np.take_along_axis(reduced, order, axis=1))
    return distances, order


@pytest.mark.parametrize("index", INDEXES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("metric", METRICS)
def test_same_answer_as_the_kernel_reference(index, dtype, metric):
    rng = np.random.default_rng(sum(map(ord, index + metric)))
    for n_features in [1, 2, 3, 7, 16, 50]:
        n = int(rng.integers(50, 400))
        X = (
            rng.normal(size=(n, n_features)) * rng.uniform(0.1, 10)
            + rng.uniform(-100, 100)
        ).astype(dtype)
        Q = (X[rng.integers(0, n, 20)] + rng.normal(size=(20, n_features))).astype(
            dtype
        )
        kwargs = metric_kwargs(metric, n_features, rng)
        tree = INDEXES[index](X, metric=metric, **kwargs)
        for k in (1, 4, n):
            distances, indices = tree.query(Q, k=k)
            ref_distances, ref_indices = reference(X, Q, k, metric, **kwargs)
            assert distances.dtype == dtype
            np.testing.assert_array_equal(indices, ref_indices)
            np.testing.assert_array_equal(distances, ref_distances)


def integer_data(rng, n, n_features, high=4):
    """Few distinct integer values: many duplicates and many equal distances."""
    return rng.integers(-high, high + 1, size=(n, n_features)).astype(np.float64)


def exact_reduced(X, Q, metric):
    diff = np.abs(Q[:, None, :] - X[None, :, :])
    if metric in ("euclidean", "sqeuclidean"):
        return (diff**2).sum(-1)
    if metric == "cityblock":
        return diff.sum(-1)
    if metric == "chebyshev":
        return diff.max(-1)
    return (diff**3).sum(-1)  # minkowski, p = 3


@pytest.mark.parametrize("index", INDEXES)
@pytest.mark.parametrize(
    "metric", ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski"]
)
def test_ties_and_duplicates_go_to_the_lower_index(index, metric):
    rng = np.random.default_rng(7)
    for n_features in (1, 2, 5):
        X = integer_data(rng, 300, n_features, high=2)
        Q = integer_data(rng, 40, n_features, high=3)
        reduced = exact_reduced(X, Q, metric)
        order = np.lexsort(
            (np.broadcast_to(np.arange(300), reduced.shape), reduced), axis=1
        )
        kwargs = {"p": 3} if metric == "minkowski" else {}
        for dtype in (np.float64, np.float32):
            tree = INDEXES[index](X.astype(dtype), metric=metric, **kwargs)
            for k in (1, 3, 17):
                np.testing.assert_array_equal(
                    tree.query(Q, k=k, return_distance=False), order[:, :k]
                )


@pytest.mark.parametrize("index", INDEXES)
@pytest.mark.parametrize("metric", METRICS)
def test_distances_match_scipy(index, metric):
    rng = np.random.default_rng(3)
    X, Q = rng.normal(size=(500, 6)), rng.normal(size=(30, 6))
    kwargs = metric_kwargs(metric, 6, rng)
    scipy_kwargs = dict(kwargs.get("metric_params", {}))
    if metric == "minkowski":
        scipy_kwargs["p"] = 3
    distances, indices = INDEXES[index](X, metric=metric, **kwargs).query(Q, k=5)
    expected = cdist(Q, X, metric=metric, **scipy_kwargs)
    np.testing.assert_allclose(
        distances, np.take_along_axis(expected, indices, 1), rtol=1e-12
    )
    np.testing.assert_allclose(distances, np.sort(expected, axis=1)[:, :5], rtol=1e-12)


@pytest.mark.parametrize("index", INDEXES)
def test_euclidean_matches_scikit_learn_kdtree(index):
    rng = np.random.default_rng(11)
    for n_features in (2, 10, 30):
        X, Q = rng.uniform(size=(2000, n_features)), rng.uniform(size=(100, n_features))
        expected_distances, expected_indices = KDTree(X).query(Q, k=7)
        distances, indices = INDEXES[index](X).query(Q, k=7)
        np.testing.assert_array_equal(indices, expected_indices)
        np.testing.assert_allclose(distances, expected_distances, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("offset", [0.0, 1e3, 1e6])
def test_gemm_path_is_exact_far_from_the_origin(dtype, offset):
    """Large norms make |q|^2 + |t|^2 - 2 q.t cancel: the re-check must hide it."""
    rng = np.random.default_rng(5)
    for n_features in (1, 3, 40):
        X = (offset + rng.normal(size=(3000, n_features))).astype(dtype)
        X[::7] = X[3]  # many exact duplicates
        Q = (offset + rng.normal(size=(50, n_features))).astype(dtype)
        Q[:5] = X[3]
        index = BruteForce(X)
        assert index._use_gemm
        k = 9
        direct_d = np.empty((50, k), dtype=dtype)
        direct_i = np.empty((50, k), dtype=np.intp)
        _brute.knn_direct(0, 2.0, Q, index._data, direct_d, direct_i)
        distances, indices = index.query(Q, k=k)
        np.testing.assert_array_equal(indices, direct_i)
        np.testing.assert_array_equal(distances, np.sqrt(direct_d))


@pytest.mark.parametrize("index", INDEXES)
def test_edge_cases_and_errors(index):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    tree = INDEXES[index](X)
    distances, indices = tree.query(np.empty((0, 3)), k=2)
    assert distances.shape == (0, 2) and indices.shape == (0, 2)
    np.testing.assert_array_equal(
        tree.query(X, k=1, return_distance=False)[:, 0], np.arange(20)
    )
    with pytest.raises(ValueError, match="k=21 neighbours.*only 20"):
        tree.query(X, k=21)
    with pytest.raises(ValueError, match=r"k must be in \[1"):
        tree.query(X, k=0)
    with pytest.raises(TypeError, match="k must be an integer"):
        tree.query(X, k=1.5)
    with pytest.raises(ValueError, match="NaN or infinity"):
        tree.query([[0.0, np.nan, 1.0]])
    with pytest.raises(ValueError, match="NaN or infinity"):
        tree.query([[0.0, np.inf, 1.0]])
    with pytest.raises(ValueError, match="2 features.*3 features"):
        tree.query([[0.0, 1.0]])
    with pytest.raises(ValueError, match="NaN or infinity"):
        INDEXES[index]([[0.0, np.nan]])


@pytest.mark.parametrize("index", INDEXES)
def test_concurrent_queries_and_n_jobs_agree(index):
    rng = np.random.default_rng(2)
    X, Q = rng.normal(size=(3000, 4)), rng.normal(size=(400, 4))
    tree = INDEXES[index](X)
    expected = tree.query(Q, k=5)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: tree.query(Q, k=5), range(8)))
    results.append(tree.query(Q, k=5, n_jobs=2))
    results.append(tree.query(Q, k=5, n_jobs=-1))
    for distances, indices in results:
        np.testing.assert_array_equal(indices, expected[1])
        np.testing.assert_array_equal(distances, expected[0])


@pytest.mark.parametrize("index", INDEXES)
def test_pickle_round_trip(index):
    rng = np.random.default_rng(4)
    X, Q = rng.normal(size=(1000, 3)), rng.normal(size=(50, 3))
    tree = INDEXES[index](X, metric="cityblock")
    clone = pickle.loads(pickle.dumps(tree))
    for a, b in zip(tree.query(Q, k=4), clone.query(Q, k=4)):
        np.testing.assert_array_equal(a, b)


def test_caller_array_is_neither_changed_nor_shared():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    saved = X.copy()
    tree, brute = BranchBoundTree(X, random_state=0), BruteForce(X)
    np.testing.assert_array_equal(X, saved)
    before = brute.query(saved[:5], k=3)
    X[:] = 0
    np.testing.assert_array_equal(brute.query(saved[:5], k=3)[1], before[1])
    np.testing.assert_array_equal(tree.query(saved[:5], k=3)[1], before[1])


def test_float32_filter_of_float64_data_is_exact_below_float32_resolution():
    """Differences of 1e-9 vanish in float32: the float64 re-check must decide."""
    rng = np.random.default_rng(6)
    base = rng.normal(size=(1, 64))
    X = base + 1e-9 * rng.normal(size=(2000, 64))
    Q = base + 1e-9 * rng.normal(size=(30, 64))
    index = BruteForce(X)
    assert index._centered.dtype == np.float32
    distances, indices = index.query(Q, k=5)
    ref_distances, ref_indices = reference(X, Q, 5, "euclidean")
    np.testing.assert_array_equal(indices, ref_indices)
    np.testing.assert_array_equal(distances, ref_distances)


def test_counts_of_brute_force_are_the_training_size():
    rng = np.random.default_rng(8)
    X, Q = rng.normal(size=(300, 2)), rng.normal(size=(7, 2))
    indices, counts = BruteForce(X).query(
        Q, k=2, return_distance=False, return_counts=True
    )
    np.testing.assert_array_equal(counts, np.full(7, 300))
    tree_indices, tree_counts = BranchBoundTree(X, random_state=0).query(
        Q, k=2, return_distance=False, return_counts=True
    )
    np.testing.assert_array_equal(tree_indices, indices)
    assert (tree_counts < 300).all()

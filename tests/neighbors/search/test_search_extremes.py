"""Brute force and the tree stay exact where floating point is at its worst.

Adversarial cases for the GEMM filter's rounding-error bound and the tree's pruning
margins: two clusters far apart on either side of the origin (centring cannot shrink
the norms, so |q|^2 + |t|^2 - 2 q.t cancels almost completely), exact ties on an
integer grid, values near the ends of the floating-point range, and metrics whose
kernels round differently (large Minkowski p, chebyshev).  Integer-valued grids make
every reduced distance exact in numpy, so the reference is independent of patrec.
"""

import numpy as np
import pytest

from patrec.neighbors import BranchBoundTree, BruteForce, KNeighborsClassifier
from patrec.neighbors.search import _brute

INDEXES = {
    "brute": BruteForce,
    "bnb": lambda X, **kw: BranchBoundTree(X, leaf_size=3, **kw),
    "bnb-kmeans": lambda X, **kw: BranchBoundTree(
        X, partition="kmeans", branching=2, leaf_size=3, random_state=0, **kw
    ),
}


def exact_reference(X, Q, k, metric="euclidean", p=2):
    """k nearest by (distance, index), from float64 differences of grid points."""
    diff = np.abs(Q[:, None, :].astype(np.float64) - X[None, :, :].astype(np.float64))
    if metric == "chebyshev":
        reduced = diff.max(axis=2)
    elif metric == "cityblock":
        reduced = diff.sum(axis=2)
    elif metric == "minkowski":
        top = diff.max(axis=2, keepdims=True)
        reduced = top[..., 0] * (
            np.divide(diff, top, out=np.zeros_like(diff), where=top > 0) ** p
        ).sum(axis=2) ** (1 / p)
    else:
        reduced = (diff**2).sum(axis=2)
    columns = np.broadcast_to(np.arange(X.shape[0]), reduced.shape)
    return np.lexsort((columns, reduced), axis=1)[:, :k]


def two_far_clusters(offset, n_features, dtype, seed):
    """Integer grid points in two clusters at +offset and -offset; queries on
    half-integers in the first cluster (many exact ties), some on training points."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(600, n_features)).astype(np.float64)
    X[300:] -= 2 * offset
    X[:300] += offset
    X[::11] = X[4]  # duplicates
    Q = offset + rng.integers(0, 8, size=(40, n_features)) / 2
    Q[:4] = X[4]
    return X.astype(dtype), Q.astype(dtype)


@pytest.mark.parametrize("index", INDEXES)
@pytest.mark.parametrize(
    "dtype, offset",
    [(np.float64, 1e8), (np.float64, 1e12), (np.float32, 1e5), (np.float32, 2e6)],
)
@pytest.mark.parametrize("n_features", [1, 3, 40])
def test_exact_with_norms_far_above_the_distances(index, dtype, offset, n_features):
    X, Q = two_far_clusters(offset, n_features, dtype, seed=n_features)
    searcher = INDEXES[index](X)
    indices = searcher.query(Q, k=7, return_distance=False)
    np.testing.assert_array_equal(indices, exact_reference(X, Q, 7))


@pytest.mark.parametrize(
    "metric, p",
    [("minkowski", 50.0), ("minkowski", 300.0), ("chebyshev", 2), ("cityblock", 2)],
)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_tree_margins_keep_samples_on_the_node_radius(metric, p, dtype):
    """Grid points lie exactly on node radii and at equal distances from queries."""
    X, Q = two_far_clusters(1e5, 3, dtype, seed=7)
    for index in INDEXES:
        indices = INDEXES[index](X, metric=metric, p=p).query(
            Q, k=6, return_distance=False
        )
        np.testing.assert_array_equal(
            indices, exact_reference(X, Q, 6, metric, p), err_msg=index
        )


def test_float32_filter_never_overflows_on_large_float64_data():
    """Norms of 1e40 overflow float32: the filter must switch to float64."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 40)) * 1e20
    Q = X[:10] + rng.normal(size=(10, 40)) * 1e19
    indices = BruteForce(X).query(Q, k=3, return_distance=False)
    np.testing.assert_array_equal(indices, exact_reference(X / 1e19, Q / 1e19, 3))


def test_query_far_outside_the_filter_range_is_compared_directly():
    """A query whose float32 norm overflows still gets its (finite) neighbours."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 40))
    Q = np.vstack([X[:3], np.full((1, 40), 1e25)])
    index = BruteForce(X)
    assert index._centered.dtype == np.float32
    distances, indices = index.query(Q, k=2)
    scaled = exact_reference(X, Q, 2)
    np.testing.assert_array_equal(indices[:3], scaled[:3])
    far = np.linalg.norm(X - Q[3], axis=1)
    np.testing.assert_array_equal(indices[3], np.argsort(far, kind="stable")[:2])
    assert np.isfinite(distances).all()


@pytest.mark.parametrize(
    "dtype, scale", [(np.float64, 2.0**-100), (np.float32, 2.0**-66)]
)
def test_tiny_values_below_the_normal_range_stay_exact(dtype, scale):
    """Squares of such values underflow in float32 (the GEMM filter's dtype for
    float64 data with 40 features): the filter must not drop neighbours.  The
    answer must be the direct kernel's, computed sample by sample."""
    rng = np.random.default_rng(3)
    X = (rng.integers(0, 4, size=(400, 40)) * scale).astype(dtype)
    Q = (rng.integers(0, 8, size=(20, 40)) / 2 * scale).astype(dtype)
    direct_d = np.empty((20, 5), dtype=dtype)
    direct_i = np.empty((20, 5), dtype=np.intp)
    _brute.knn_direct(0, 2.0, Q, X, direct_d, direct_i)
    if dtype == np.float64:  # squares of multiples of 2^-100 are exact in float64
        np.testing.assert_array_equal(direct_i, exact_reference(X, Q, 5))
    for index in INDEXES:
        indices = INDEXES[index](X).query(Q, k=5, return_distance=False)
        np.testing.assert_array_equal(indices, direct_i, err_msg=index)


@pytest.mark.parametrize(
    "dtype, value", [(np.float32, 1e20), (np.float64, 1e160), (np.float64, 1e200)]
)
@pytest.mark.parametrize("n_features", [2, 40])
def test_overflowing_distances_are_a_clear_error(dtype, value, n_features):
    """Distances beyond the dtype's range are reported, never returned as ties."""
    rng = np.random.default_rng(4)
    X = (rng.normal(size=(200, n_features)) * value).astype(dtype)
    for index in INDEXES:
        with pytest.raises(ValueError, match="overflow"):
            INDEXES[index](X).query(X[:5], k=3)
    y = np.arange(200) % 2
    for algorithm in ("brute", "bnb"):
        model = KNeighborsClassifier(algorithm=algorithm).fit(X, y)
        with pytest.raises(ValueError, match="overflow"):
            model.predict(X[:5])


@pytest.mark.parametrize("dtype, scale", [(np.float64, 1e-170), (np.float32, 1e-25)])
def test_distances_underflowing_to_zero_are_a_clear_error(dtype, scale):
    """Distinct samples whose squared differences all underflow come out at
    distance 0: reported, never returned as ties broken by index.  (Copies of a
    query at distance 0 are no underflow: the tests above have them.)"""
    rng = np.random.default_rng(7)
    X = (rng.normal(size=(200, 3)) * scale).astype(dtype)
    Q = X[:5] * dtype(1.5)
    for index in INDEXES:
        with pytest.raises(ValueError, match="underflow"):
            INDEXES[index](X).query(Q, k=3)
        with pytest.raises(ValueError, match="underflow"):
            INDEXES[index](X).query(Q[0], k=1)  # (one row: the fast path)
    y = np.arange(200) % 2
    for algorithm in ("brute", "bnb"):
        model = KNeighborsClassifier(algorithm=algorithm).fit(X, y)
        with pytest.raises(ValueError, match="underflow"):
            model.predict(Q)
        with pytest.raises(ValueError, match="underflow"):
            INDEXES[index](X).query_radius(Q, r=float(scale))
    # a gradual underflow keeps distinct distances apart: the kernel's answer stands
    tiny = X / dtype(scale) * dtype(2.0**-520 if dtype == np.float64 else 2.0**-66)
    for index in INDEXES:
        INDEXES[index](tiny).query(tiny[:5] * dtype(1.5), k=3)
        # copies at distance 0 are no underflow
        found = INDEXES[index](tiny).query_radius(tiny[:3], r=0.0)
        assert [list(matches) for matches in found] == [[0], [1], [2]]


@pytest.mark.parametrize("index", INDEXES)
def test_mahalanobis_map_that_overflows_is_a_clear_error(index):
    """x -> x L beyond float64's range once crashed k-means inside the tree."""
    X = np.random.default_rng(5).normal(size=(300, 3)) * 1e300
    VI = np.eye(3) * 1e20
    with pytest.raises(ValueError, match="overflows"):
        INDEXES[index](X, metric="mahalanobis", metric_params={"VI": VI})
    small = INDEXES[index](X / 1e300, metric="mahalanobis", metric_params={"VI": VI})
    with pytest.raises(ValueError, match="overflows"):
        small.query(X[:2], k=1)


@pytest.mark.parametrize("metric", ["cityblock", "chebyshev"])
def test_tree_on_values_near_the_largest_float(metric):
    """Node means and k-means must not overflow where the distances do not."""
    rng = np.random.default_rng(6)
    X = rng.uniform(-1, 1, size=(400, 2)) * 4e307
    expected = BruteForce(X, metric=metric).query(X[:20], k=3)
    found = INDEXES["bnb"](X, metric=metric).query(X[:20], k=3)
    np.testing.assert_array_equal(found[1], expected[1])
    np.testing.assert_array_equal(found[0], expected[0])

"""Every search against a plain NumPy reference, on random and adversarial data.

For every metric, both indexes (brute force and the tree, in both partitions), both
dtypes and both kinds of query (the k nearest, everything within a radius), the
answers are compared with distances computed here in a few lines of NumPy.  The data
include what breaks a search quietly: every point equal, points on one line, exact
ties of integer coordinates, spacings of 1e-300 and of 1e300.

Where the reference's distances are exact (integer coordinates and a metric that
needs no root of a non-square, nor a linear map), the indices must be the
reference's exactly, ties by the lower index.  Elsewhere the two differ by rounding
only, so the answer must be one the reference admits within a rounding tolerance.
Data whose distances leave the floating-point range must raise a ValueError that
says so; any other answer is compared.

The module counts its comparisons (`COMPARISONS`); run with ``-s`` to see the total.
"""

import zlib

import numpy as np
import pytest

from patrec.neighbors import BranchBoundTree, BruteForce

COMPARISONS = {"k": 0, "radius": 0}

_VI = np.array([[2.0, 0.5, 0.0], [0.5, 1.0, 0.25], [0.0, 0.25, 3.0]])

METRICS = {
    "euclidean": {},
    "sqeuclidean": {},
    "cityblock": {},
    "chebyshev": {},
    "minkowski-1.5": {"metric": "minkowski", "p": 1.5},
    "minkowski-3": {"metric": "minkowski", "p": 3},
    "mahalanobis": {"metric": "mahalanobis", "metric_params": {"VI": _VI}},
}

INDEXES = {
    "brute": lambda X, **kw: BruteForce(X, **kw),
    "tree-kd": lambda X, **kw: BranchBoundTree(X, partition="kd", leaf_size=4, **kw),
    "tree-kmeans": lambda X, **kw: BranchBoundTree(
        X, partition="kmeans", leaf_size=4, random_state=0, **kw
    ),
}


def _metric_kwargs(name):
    kwargs = dict(METRICS[name])
    kwargs.setdefault("metric", name)
    return kwargs


def reference_distances(Q, X, name):
    """The distances between the rows of ``Q`` and of ``X``, in plain NumPy, in
    float64 on data scaled by a power of two so that no square leaves the range."""
    Q, X = Q.astype(np.float64), X.astype(np.float64)
    largest = max(np.abs(Q).max(initial=0), np.abs(X).max(initial=0))
    scale = 2.0 ** np.frexp(largest)[1] if largest > 0 else 1.0
    diff = (Q[:, None, :] - X[None, :, :]) / scale
    with np.errstate(over="ignore"):  # (the "huge" data's true distances)
        return _reference(diff, scale, _metric_kwargs(name))


def _reference(diff, scale, kwargs):
    metric = kwargs["metric"]
    if metric == "euclidean":
        return np.sqrt((diff**2).sum(-1)) * scale
    if metric == "sqeuclidean":
        return (diff**2).sum(-1) * scale * scale
    if metric == "cityblock":
        return np.abs(diff).sum(-1) * scale
    if metric == "chebyshev":
        return np.abs(diff).max(-1, initial=0) * scale
    if metric == "minkowski":
        p = kwargs["p"]
        return (np.abs(diff) ** p).sum(-1) ** (1 / p) * scale
    quadratic = np.einsum("qni,ij,qnj->qn", diff, kwargs["metric_params"]["VI"], diff)
    return np.sqrt(quadratic) * scale


def _exact(name, data):
    """True when the reference's distances are exact, so ties are exact ties."""
    return data in ("integer", "collinear", "equal") and name in (
        "euclidean",
        "sqeuclidean",
        "cityblock",
        "chebyshev",
    )


def _make(kind, dtype, rng):
    """(training samples, queries) of one kind of data, 3 features."""
    if kind == "random":
        X = rng.normal(size=(60, 3))
        Q = np.vstack([rng.normal(size=(8, 3)), X[:4]])
    elif kind == "integer":  # many exact ties and duplicates
        X = rng.integers(0, 3, size=(60, 3)).astype(float)
        Q = np.vstack([rng.integers(0, 3, size=(8, 3)).astype(float), X[:4]])
    elif kind == "equal":
        X = np.full((40, 3), 1.5)
        Q = np.array([[1.5, 1.5, 1.5], [0.0, 0.0, 0.0], [1.5, 2.5, 1.5]])
    elif kind == "collinear":
        t = rng.integers(-10, 10, size=60).astype(float)
        X = np.outer(t, [1.0, 2.0, -1.0])
        Q = np.vstack([np.outer([0.0, 3.0, -7.0], [1.0, 2.0, -1.0]), X[:3]])
    else:  # "tiny" or "huge": every square under- or overflows the dtype
        unit = {"tiny": 1e-300, "huge": 1e300}[kind]
        if dtype == np.float32:
            unit = {"tiny": 1e-30, "huge": 1e30}[kind]
        X = rng.integers(-5, 15, size=(40, 3)) * unit
        Q = np.vstack([rng.integers(-5, 15, size=(5, 3)) * unit, X[:3]])
    return X.astype(dtype), Q.astype(dtype)


def _tolerance(D, dtype):
    eps = np.finfo(dtype).eps
    return 64 * eps * np.maximum(np.abs(D), np.finfo(dtype).tiny)


DATA = ("random", "integer", "equal", "collinear", "tiny", "huge")


def _search_or_range_error(call, data, name):
    """``call()``, or None where the data leave the range and a clear ValueError
    says so (the only error any of these searches may raise)."""
    try:
        return call()
    except ValueError as error:
        assert data in ("tiny", "huge"), f"{data} data refused: {error}"
        assert "underflow" in str(error) or "overflow" in str(error), str(error)
        return None


def _case(data, name, index, dtype, kind):
    """The queries, their reference distances and the index built (None where the
    data leave the range and the index says so) of one case."""
    salt = "" if kind == "k" else " r"  # (each test its own data, as first written)
    rng = np.random.default_rng(zlib.crc32(f"{data} {name} {index}{salt}".encode()))
    X, Q = _make(data, dtype, rng)
    built = _search_or_range_error(
        lambda: INDEXES[index](X, **_metric_kwargs(name)), data, name
    )
    return Q, reference_distances(Q, X, name), built


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("index", sorted(INDEXES))
@pytest.mark.parametrize("name", sorted(METRICS))
@pytest.mark.parametrize("data", DATA)
def test_k_nearest_match_the_reference(data, name, index, dtype):
    Q, D, built = _case(data, name, index, dtype, "k")
    if built is None:
        return
    for k in (1, 3, built.n_samples):
        answer = _search_or_range_error(lambda: built.query(Q, k=k), data, name)
        if answer is None:
            continue
        distances, indices = answer
        assert distances.shape == indices.shape == (len(Q), k)
        assert distances.dtype == dtype
        for row in range(len(Q)):
            _check_row(D[row], distances[row], indices[row], k, name, data, dtype)
            COMPARISONS["k"] += 1


def _check_row(reference, distances, indices, k, name, data, dtype):
    expected = np.lexsort((np.arange(len(reference)), reference))[:k]
    if _exact(name, data):
        np.testing.assert_array_equal(indices, expected)
        np.testing.assert_array_equal(distances, reference[expected].astype(dtype))
        return
    tol = _tolerance(reference, dtype)
    np.testing.assert_allclose(
        distances, reference[indices], rtol=64 * np.finfo(dtype).eps
    )
    # the same k distances as the reference's k smallest, up to rounding ...
    np.testing.assert_allclose(
        distances, reference[expected], rtol=64 * np.finfo(dtype).eps, atol=0
    )
    # ... nothing left out that is clearly nearer than the k-th ...
    left_out = np.setdiff1d(np.arange(len(reference)), indices)
    assert (reference[left_out] >= distances[-1] - tol[left_out]).all()
    # ... ascending, no index twice (equal *reduced* distances come by the lower
    # index; two that differ by rounding may finish equal under the root)
    assert (np.diff(distances) >= 0).all()
    assert len(set(indices.tolist())) == k


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("index", sorted(INDEXES))
@pytest.mark.parametrize("name", sorted(METRICS))
@pytest.mark.parametrize("data", DATA)
def test_radius_matches_the_reference(data, name, index, dtype):
    Q, D, built = _case(data, name, index, dtype, "radius")
    if built is None:
        return
    # radii: 0, distances that occur exactly (on the boundary), between them, beyond
    occurring = np.unique(D[np.isfinite(D)])
    radii = {0.0, float(occurring[len(occurring) // 2]), float(occurring[-1]) * 2}
    radii.update(float(r) for r in occurring[:: max(1, len(occurring) // 4)])
    for r in sorted(radii):
        answer = _search_or_range_error(
            lambda: built.query_radius(Q, r, return_distance=True), data, name
        )
        if answer is None:
            continue
        indices, distances = answer
        for row in range(len(Q)):
            _check_ball(D[row], r, indices[row], distances[row], name, data, dtype)
            COMPARISONS["radius"] += 1


def _check_ball(reference, r, indices, distances, name, data, dtype):
    # every distance returned is within r: the radius is in the metric's own units
    assert (distances <= r).all(), (r, distances)
    inside = np.flatnonzero(reference <= r)
    if _exact(name, data) and np.float64(r) == np.float64(dtype(r)):
        expected = inside[np.lexsort((inside, reference[inside]))]
        np.testing.assert_array_equal(indices, expected)
        np.testing.assert_array_equal(distances, reference[expected].astype(dtype))
        return
    tol = _tolerance(reference, dtype)
    clear_in = np.flatnonzero(reference <= r - tol)
    clear_out = np.flatnonzero(reference > r + tol)
    assert set(clear_in.tolist()) <= set(indices.tolist())
    assert not set(clear_out.tolist()) & set(indices.tolist())
    np.testing.assert_allclose(
        distances, reference[indices], rtol=64 * np.finfo(dtype).eps
    )
    assert (np.diff(distances) >= 0).all()  # (ties: as in _check_row)


def test_sqeuclidean_radius_is_a_squared_distance():
    """The reported case: a radius of 4 in squared units holds the samples at
    squared distance 4 or less, not those within 4 in euclidean units."""
    X = [[0.0], [0.5], [1.0], [2.0], [3.0]]
    for build in INDEXES.values():
        index = build(X, metric="sqeuclidean")
        indices, distances = index.query_radius([[0.0]], 4.0, return_distance=True)
        np.testing.assert_array_equal(indices[0], [0, 1, 2, 3])
        np.testing.assert_array_equal(distances[0], [0, 0.25, 1, 4])
        (indices,) = (index.query_radius([[0.0]], 0.3),)
        np.testing.assert_array_equal(indices[0], [0, 1])
        assert index.query_ball_point([0.0], 0.3) == [0, 1]


def test_the_comparisons_were_made():
    """Runs last in this module: the counts of comparisons made above (one per query
    row and k or radius); ``pytest -s`` prints them."""
    print(f"\ndifferential comparisons: {COMPARISONS}")
    if COMPARISONS["k"] == 0:
        pytest.skip("run with the whole module to count the comparisons")
    assert COMPARISONS["k"] > 1000
    assert COMPARISONS["radius"] > 1000


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_radius_equal_to_a_reported_distance_holds_its_sample(dtype):
    """``r * r`` rounded can fall below the square of a reported distance equal to
    ``r``: a radius taken from a k-NN answer must still hold that sample."""
    X = np.c_[np.zeros(200, dtype), np.sqrt(np.arange(200, dtype=dtype))]
    for build in INDEXES.values():
        index = build(X)
        distances, indices = index.query(X[:1], k=200)
        for distance, i in zip(distances[0], indices[0]):
            assert i in index.query_radius(X[:1], float(distance))[0]


def test_a_radius_beyond_the_squares_range_refuses_overflowed_distances():
    """Distances whose squares overflow are not dropped from a large radius."""
    X = np.array([[0.0], [1e300], [-1e300]])
    for build in INDEXES.values():
        with pytest.raises(ValueError, match="overflow"):
            build(X).query_radius([[0.0]], 2e300)
        np.testing.assert_array_equal(build(X).query_radius([[0.0]], 1e100)[0], [0])

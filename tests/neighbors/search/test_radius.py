"""Radius queries: `BranchBoundTree.query_radius` and `BruteForce.query_radius` return
every training sample within the radius, sorted by (distance, index), the two
exactly alike."""

import numpy as np
import pytest

from patrec.neighbors import BranchBoundTree, BruteForce

METRICS = [
    ("euclidean", {}),
    ("sqeuclidean", {}),
    ("cityblock", {}),
    ("chebyshev", {}),
    ("minkowski", {"p": 3}),
    ("mahalanobis", {"metric_params": {"VI": [[2.0, 0.5, 0], [0.5, 1, 0], [0, 0, 3]]}}),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("metric, params", METRICS, ids=[m for m, _ in METRICS])
@pytest.mark.parametrize("grid", [True, False], ids=["integer-grid", "gaussian"])
def test_brute_force_and_tree_agree_exactly(metric, params, dtype, grid):
    rng = np.random.default_rng(7)
    if grid:  # many samples exactly on the radius
        X = rng.integers(-3, 4, size=(400, 3)).astype(dtype)
    else:
        X = rng.normal(size=(400, 3)).astype(dtype)
    Q = np.r_[X[:10], rng.normal(size=(30, 3)).astype(dtype)]
    brute = BruteForce(X, metric=metric, **params)
    tree = BranchBoundTree(X, metric=metric, leaf_size=8, **params)
    for r in (0.0, 1.0, 1.5, 2.0):
        got = brute.query_radius(Q, r, return_distance=True, n_jobs=2)
        expected = tree.query_radius(Q, r, return_distance=True)
        for found, wanted in zip(got, expected):
            for a, b in zip(found, wanted):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("index", [BruteForce, BranchBoundTree])
@pytest.mark.parametrize("metric", ["euclidean", "cityblock", "chebyshev"])
def test_query_radius_includes_the_boundary(index, metric):
    rng = np.random.default_rng(3)
    X = rng.integers(-3, 4, size=(500, 2)).astype(float)
    Q = rng.integers(-3, 4, size=(30, 2)).astype(float)
    diff = np.abs(Q[:, None] - X[None])
    exact = {
        "euclidean": np.sqrt((diff**2).sum(-1)),
        "cityblock": diff.sum(-1),
        "chebyshev": diff.max(-1),
    }[metric]
    searcher = index(X, metric=metric)
    for r in (0.0, 1.0, 2.0, 3.0):
        indices, distances, counts = searcher.query_radius(
            Q, r, return_distance=True, return_counts=True
        )
        assert indices.shape == distances.shape == counts.shape == (30,)
        for row in range(30):
            inside = np.flatnonzero(exact[row] <= r)
            inside = inside[np.lexsort((inside, exact[row, inside]))]
            np.testing.assert_array_equal(indices[row], inside)
            np.testing.assert_allclose(distances[row], exact[row, inside], rtol=1e-15)
        if index is BruteForce:  # every training sample is compared
            assert (counts == len(X)).all()


@pytest.mark.parametrize("index", [BruteForce, BranchBoundTree])
def test_no_queries_no_matches_and_bad_radius(index):
    X = np.arange(12.0).reshape(6, 2)
    searcher = index(X)
    assert searcher.query_radius(np.empty((0, 2)), 1.0).shape == (0,)
    far = searcher.query_radius([[100.0, 100.0]], 1.0)
    assert far.shape == (1,) and far[0].dtype == np.intp and far[0].size == 0
    for r in (-1.0, np.nan, "1"):
        with pytest.raises((ValueError, TypeError), match="r must be"):
            searcher.query_radius(X, r)
    with pytest.raises(ValueError, match="features"):
        searcher.query_radius(np.zeros((2, 3)), 1.0)


@pytest.mark.parametrize("n_jobs", [None, 2])
@pytest.mark.parametrize(
    "index",
    [
        lambda X: BruteForce(X),
        lambda X: BranchBoundTree(X),
        lambda X: BranchBoundTree(X, partition="kmeans", random_state=0),
    ],
)
def test_an_answer_larger_than_the_bound_is_refused_early(index, n_jobs, monkeypatch):
    """Issue 37: a radius holding everything grew to gigabytes before a
    MemoryError; now the search stops at the bound with a message saying what to
    change, and an answer within the bound is given whole."""
    from patrec.neighbors.search import _index

    X = np.random.default_rng(0).normal(size=(300, 2))
    monkeypatch.setattr(_index, "MAX_RADIUS_MATCHES", 1000)
    built = index(X)
    with pytest.raises(ValueError, match="more than 1,000 training samples.*fewer"):
        built.query_radius(X[:40], 100.0, n_jobs=n_jobs)
    with pytest.raises(ValueError, match="more than 1,000"):
        built.query_ball_point(X[:40], 100.0)
    found = built.query_radius(X[:3], 100.0, n_jobs=n_jobs)  # 900 matches: given
    assert sum(len(row) for row in found) == 900

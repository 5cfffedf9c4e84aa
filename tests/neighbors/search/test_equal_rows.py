"""Brute force's lookup of queries equal to training samples (k = 1): the answers
are the search's, bit for bit, ties to the lowest index included."""

import pickle

import numpy as np
import pytest

from patrec.neighbors import BruteForce
from patrec.neighbors.search import _equal_rows
from patrec.neighbors.search._equal_rows import EqualRows


def searched(index, Q):
    """The search alone, every query compared with every training sample."""
    Q = np.ascontiguousarray(index._prepare(Q.astype(index.dtype)))
    distances = np.empty((len(Q), 1), dtype=index.dtype)
    indices = np.empty((len(Q), 1), dtype=np.intp)
    index._search(Q, distances, indices)
    return index._metric.finish(distances), indices


def with_duplicates(rng, n, d, dtype):
    X = rng.normal(size=(n, d)).astype(dtype)
    X[n // 2 : n // 2 + 100] = X[:100]  # exact duplicates: the lower index wins
    X[10] = -0.0
    X[11] = 0.0  # equal to -0.0
    X[12] = X[20]
    return X


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "metric,params",
    [
        ("euclidean", {}),
        ("sqeuclidean", {}),
        ("cityblock", {}),
        ("chebyshev", {}),
        ("mahalanobis", {"VI": np.diag([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])}),
    ],
)
def test_looked_up_answers_equal_the_search(dtype, metric, params):
    rng = np.random.default_rng(0)
    X = with_duplicates(rng, 5000, 6, dtype)
    index = BruteForce(X, metric=metric, metric_params=params or None)
    Q = np.vstack([X, rng.normal(size=(300, 6)).astype(dtype)])  # 300 not found
    distances, indices, counts = index.query(Q, k=1, return_counts=True)
    assert index._lookup is not None  # the lookup ran
    expected_distances, expected_indices = searched(index, Q)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_array_equal(distances, expected_distances)
    assert indices[10, 0] == indices[11, 0] == 10
    assert indices[20, 0] == 12 and indices[5000 // 2, 0] == 0
    # a query looked up was compared with one sample, the others with all of them
    assert (counts[16:5000] == 1).all() and (counts[5000:] == 5000).all()
    for n_jobs in (2, -1):
        d2, i2 = index.query(Q, k=1, n_jobs=n_jobs)
        np.testing.assert_array_equal(i2, indices)
        np.testing.assert_array_equal(d2, distances)


def test_once_the_table_is_built_every_query_is_looked_up_first():
    rng = np.random.default_rng(2)
    X = with_duplicates(rng, 4000, 5, np.float64)
    index = BruteForce(X)
    index.query(X[np.arange(4096) % 4000], k=1)
    assert index._lookup is not None
    # the first 16 queries too are looked up now, not searched
    Q = X[np.arange(4096)[::-1] % 4000]
    distances, indices, counts = index.query(Q, k=1, return_counts=True)
    assert (counts == 1).all()
    expected_distances, expected_indices = searched(index, Q)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_array_equal(distances, expected_distances)
    # queries that are not training samples: looked up in vain, then searched
    Q = np.vstack([rng.normal(size=(4100, 5)), X[:3]])
    distances, indices, counts = index.query(Q, k=1, return_counts=True)
    assert (counts[:4100] == 4000).all() and (counts[4100:] == 1).all()
    expected_distances, expected_indices = searched(index, Q)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_array_equal(distances, expected_distances)


def test_separate_queries_are_searched_and_k_above_1_never_looked_up():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(3000, 4))
    index = BruteForce(X)
    Q = rng.normal(size=(5000, 4))
    np.testing.assert_array_equal(index.query(Q, k=1)[1], searched(index, Q)[1])
    assert index._lookup is None  # none of the first queries was a training sample
    index.query(X[np.arange(5000) % 3000], k=2)
    assert index._lookup is None
    index.query(X[:1000], k=1)  # too few queries to look up
    assert index._lookup is None


@pytest.mark.parametrize("dtype,tiny", [(np.float64, 1e-170), (np.float32, 1e-24)])
def test_tiny_values_are_left_to_the_search(dtype, tiny):
    # distinct rows whose differences square to 0: the search ties them at distance 0
    # and answers the lower index, which a query reports as an underflow; the
    # lookup must not answer the row itself
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5000, 3)).astype(dtype)
    X[100] = [tiny, 0, 0]
    X[200] = [2 * tiny, 0, 0]
    X[300] = 0
    index = BruteForce(X)
    with pytest.raises(ValueError, match="underflow"):
        index.query(X, k=1)
    distances, indices = searched(index, X)
    assert indices[200, 0] == 100 and indices[300, 0] == 100
    assert distances[200, 0] == distances[300, 0] == 0
    assert (EqualRows(X).find(X) == -1).all()


def test_minkowski_is_always_searched():
    X = np.random.default_rng(3).normal(size=(5000, 3))
    index = BruteForce(X, metric="minkowski", p=3)
    np.testing.assert_array_equal(index.query(X, k=1)[1], searched(index, X)[1])
    assert index._lookup is None


def test_colliding_keys_are_searched(monkeypatch):
    # every row the same key: only queries equal to the first row of the run (row 0)
    # are found; the others are left to the search
    monkeypatch.setattr(
        _equal_rows, "_keys", lambda rows: np.zeros(len(rows), dtype=np.uint64)
    )
    X = np.random.default_rng(4).normal(size=(50, 3))
    X[30] = X[0]
    table = EqualRows(X)
    assert table.find(X[[0, 30, 1, 2]]).tolist() == [0, 0, -1, -1]
    index = BruteForce(np.vstack([X] * 100))
    Q = index._data[::-1].copy()
    np.testing.assert_array_equal(index.query(Q, k=1)[1], searched(index, Q)[1])


def test_the_table_is_not_pickled_and_the_callers_arrays_are_unchanged():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(5000, 4))
    X_before = X.copy()
    index = BruteForce(X)
    Q = X.copy()
    index.query(Q, k=1)
    assert index._lookup is not None
    np.testing.assert_array_equal(Q, X_before)
    np.testing.assert_array_equal(X, X_before)
    clone = pickle.loads(pickle.dumps(index))
    assert clone._lookup is None
    np.testing.assert_array_equal(clone.query(Q, k=1)[1], index.query(Q, k=1)[1])


def test_keys_are_equal_for_equal_rows_and_differ_otherwise():
    from patrec.neighbors.search._row_match import row_keys

    rng = np.random.default_rng(6)
    for dtype in (np.float64, np.float32):
        X = rng.normal(size=(20000, 5)).astype(dtype)
        X[1] = X[0]
        X[2] = -X[3] * 0  # signed zeros
        X[3] = 0
        keys = np.empty(len(X), dtype=np.uint64)
        row_keys(X, keys)
        assert keys[0] == keys[1] and keys[2] == keys[3]
        assert len(np.unique(keys)) == len(X) - 2
        # a permutation of a row's values is a different row, with a different key
        swapped = np.ascontiguousarray(X[:, ::-1])
        other = np.empty(len(X), dtype=np.uint64)
        row_keys(swapped, other)
        assert (other[4:] != keys[4:]).all()

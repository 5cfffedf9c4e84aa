"""Brute force's GEMM filter: every block shape and every k give the direct answer.

`knn_gemm` cuts the queries into blocks and the training set into chunks, tests the
GEMM values of a chunk in groups, and re-checks the candidates that pass with the
directly computed distance.  Its answer must be `knn_direct`'s bit for bit (same
distances, same indices, ties by the lower index), whatever the block shapes --
including blocks that end inside a group, a single query or training row per block,
a last chunk shorter than the others (each chunk's GEMM starts from the half norms
that the scan of the previous chunk laid out),
training chunks with an outlying norm (which loosens the group test), float64 data
filtered in float32, tiny and huge magnitudes -- and with ``n_jobs=2``; and whether
the re-checks are made at once or deferred to the end of the query block (the list
of deferred candidates cut short or re-checked early when it fills).
"""

import numpy as np
import pytest

from patrec._parallel import run_row_ranges, single_thread_blas
from patrec.neighbors import BruteForce
from patrec.neighbors.search import _brute

SHAPES = [(0, 0), (1, 1), (3, 7), (7, 45), (64, 33), (5, 200)]


def direct(X, Q, k):
    distances = np.empty((len(Q), k), dtype=X.dtype)
    indices = np.empty((len(Q), k), dtype=np.intp)
    _brute.knn_direct(0, 2.0, Q, X, distances, indices)
    return distances, indices


def gemm(index, Q, k, block_queries=0, block_train=0, defer=-1, counted=False):
    """knn_gemm's answer (and, if ``counted``, how many distances it computed
    directly)."""
    distances = np.empty((len(Q), k), dtype=index._data.dtype)
    indices = np.empty((len(Q), k), dtype=np.intp)
    count = _brute.knn_gemm(
        Q,
        index._data,
        index._centered,
        index._sqnorms,
        index._center,
        distances,
        indices,
        block_queries,
        block_train,
        defer,
    )
    return (distances, indices, count) if counted else (distances, indices)


def assert_direct_answer(index, X, Q, ks, shapes):
    """Every k and block shape, re-checking at once and deferred, gives knn_direct's
    answer bit for bit."""
    for k in ks:
        expected = direct(X, Q, k)
        for shape in shapes:
            for defer in (0, 1):
                got = gemm(index, Q, k, *shape, defer=defer)
                where = str((k, shape, defer))
                np.testing.assert_array_equal(got[1], expected[1], err_msg=where)
                np.testing.assert_array_equal(got[0], expected[0], err_msg=where)


def data_with_ties(n, n_features, dtype, scale, seed):
    """Integer grid points (many equal distances), duplicates and one outlier."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, n_features)).astype(float)
    X[::5] = X[1]  # exact duplicates
    X[n // 2] = 1e3  # a norm far above the others: its chunk's group test loosens
    Q = np.vstack([X[:4], rng.integers(-3, 4, size=(16, n_features)) + 0.5])
    return (X * scale).astype(dtype), (Q * scale).astype(dtype)


# magnitudes whose squares underflow, and large ones still inside the filter's range
SCALES = {
    np.float32: {"unit": 1.0, "tiny": 1e-25, "large": 1e12},
    np.float64: {"unit": 1.0, "tiny": 1e-170, "large": 1e140},
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_features", [1, 5, 8, 40, 70, 300])
@pytest.mark.parametrize("magnitude", ["unit", "tiny", "large"])
def test_every_block_shape_gives_the_direct_answer(dtype, n_features, magnitude):
    X, Q = data_with_ties(
        300, n_features, dtype, SCALES[dtype][magnitude], seed=n_features
    )
    index = BruteForce(X)
    assert index._use_gemm
    if dtype == np.float64 and n_features >= 8 and magnitude != "large":
        assert index._centered.dtype == np.float32  # float64 through a float32 filter
    # (k = 150 is above the largest k whose re-checks are deferred)
    assert_direct_answer(index, X, Q, (1, 4, 37, 150), SHAPES)
    expected = direct(X, Q, 4)  # the default rule (defers from 256 features on)
    got = gemm(index, Q, 4)
    np.testing.assert_array_equal(got[1], expected[1])
    np.testing.assert_array_equal(got[0], expected[0])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_k_up_to_the_training_size(dtype):
    X, Q = data_with_ties(23, 3, dtype, 1.0, seed=5)
    assert_direct_answer(BruteForce(X), X, Q, range(1, 24), [(0, 0), (2, 5)])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_deferred_rechecks_when_every_candidate_beats_the_last(dtype):
    """Training points on a line, in order of falling distance from the queries:
    every candidate beats the k-th best so far, so the list of deferred re-checks
    fills and is cut short again and again; then 200 copies of one point nearer
    than all the others fill it with equal distances that no bound rules out, and
    it is re-checked early."""
    rng = np.random.default_rng(9)
    n_features = 300
    direction = rng.normal(size=n_features)
    direction /= np.linalg.norm(direction)
    X = np.outer(np.linspace(50.0, 1.0, 400), direction)
    X = np.vstack([X, np.repeat(0.5 * direction[None], 200, axis=0)]).astype(dtype)
    Q = np.vstack([np.zeros(n_features), 1e-3 * rng.normal(size=(5, n_features))])
    Q = Q.astype(dtype)
    index = BruteForce(X)
    assert_direct_answer(index, X, Q, (1, 5, 40), [(0, 0), (1, 7), (4, 30)])
    # in chunks of 7 rows re-checking at once computes nearly every distance;
    # deferred, only the 200 equal ones are (what the bound cannot tell apart)
    at_once = gemm(index, Q, 5, 1, 7, defer=0, counted=True)[2]
    deferred = gemm(index, Q, 5, 1, 7, defer=1, counted=True)[2]
    assert at_once > 550 * len(Q) and deferred == 200 * len(Q)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_deferred_rechecks_are_about_k_a_query_from_256_features_on(dtype):
    rng = np.random.default_rng(10)
    for n_features, rule in ((300, 1), (70, 0)):
        X = rng.normal(size=(3000, n_features)).astype(dtype)
        Q = rng.normal(size=(50, n_features)).astype(dtype)
        index = BruteForce(X)
        for k in (1, 10):
            counts = {
                defer: gemm(index, Q, k, 0, 256, defer=defer, counted=True)[2]
                for defer in (-1, 0, 1)
            }
            assert counts[-1] == counts[rule]  # the default rule
            assert counts[1] <= 1.5 * k * len(Q) < counts[0]


def test_queries_far_from_the_training_set_inside_blocks():
    """Rows too far for the filter are compared directly, in the middle of a block."""
    rng = np.random.default_rng(6)
    X = rng.normal(size=(500, 40))
    Q = rng.normal(size=(30, 40))
    Q[[3, 17]] = 1e25  # float32 filter: their norms would overflow
    index = BruteForce(X)
    assert index._centered.dtype == np.float32
    for shape in SHAPES:
        got = gemm(index, Q, 5, *shape)
        expected = direct(X, Q, 5)
        np.testing.assert_array_equal(got[1], expected[1], err_msg=str(shape))
        np.testing.assert_array_equal(got[0], expected[0], err_msg=str(shape))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_features", [8, 64])
@pytest.mark.parametrize("n_queries", [2550, 4550])
def test_two_threads_give_the_one_thread_answer(dtype, n_features, n_queries):
    """Several query blocks per thread, chunks of the default size; one range per
    thread (2 550 queries) and two (4 550), for k up to 50."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(4000, n_features)).astype(dtype)
    X[100:140] = X[0]  # duplicates: ties broken by the lower index in every thread
    Q = np.vstack([X[:50], rng.normal(size=(n_queries - 50, n_features))])
    Q = Q.astype(dtype)
    index = BruteForce(X)
    for k in (1, 5, 50):
        one = index.query(Q, k=k, n_jobs=1)
        two = index.query(Q, k=k, n_jobs=2)
        np.testing.assert_array_equal(two[1], one[1])
        np.testing.assert_array_equal(two[0], one[0])
        np.testing.assert_array_equal(one[1], direct(X, Q, k)[1])


def test_worker_threads_run_single_threaded_blas_and_the_setting_comes_back():
    threadpoolctl = pytest.importorskip("threadpoolctl")

    def blas_threads():
        return [
            lib["num_threads"]
            for lib in threadpoolctl.threadpool_info()
            if lib["user_api"] == "blas"
        ]

    with threadpoolctl.threadpool_limits(2, user_api="blas"):
        before = blas_threads()
        seen = []
        run_row_ranges(lambda start, stop: seen.append(blas_threads()), 10, 2)
        assert seen == [[1] * len(before)] * 2
        # overlapping runs: the first in sets the limit, the last out restores it
        outer = single_thread_blas()
        outer.__enter__()
        with single_thread_blas():
            assert blas_threads() == [1] * len(before)
        assert blas_threads() == [1] * len(before)
        outer.__exit__(None, None, None)
        assert blas_threads() == before


def test_float64_data_of_low_intrinsic_dimension_through_the_float32_filter():
    """Eight features, float64, filtered in float32: points on a line with a large
    offset and one feature a million times the others (distances far below the
    float32 filter's resolution next to the norms) still get the direct answer."""
    rng = np.random.default_rng(8)
    t = rng.uniform(size=3000)
    X = 1e4 + np.outer(t, rng.normal(size=8)) + 1e-9 * rng.normal(size=(3000, 8))
    X[:, 0] *= 1e6
    X[1000:1010] = X[5]  # exact duplicates
    Q = np.vstack([X[:20], X[:20] + 1e-7])
    index = BruteForce(X)
    assert index._centered.dtype == np.float32
    assert_direct_answer(index, X, Q, (1, 5, 12), [(0, 0), (7, 45)])

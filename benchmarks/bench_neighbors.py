"""Nearest-neighbour search: patrec against scikit-learn, SciPy and FAISS.

Sections (run all, or name some on the command line: lowdim highdim brute_lowdim
threads memory):

- lowdim: `BranchBoundTree.query` against scikit-learn's ``BallTree`` and ``KDTree``
  and SciPy's ``cKDTree``; d = 2, 8, 16, uniform and clustered data, k = 1 and 5.
  The mean number of distance evaluations per query is reported with each line.
- highdim: `BruteForce.query` against scikit-learn's brute-force
  ``KNeighborsClassifier.kneighbors`` and FAISS ``IndexFlatL2`` (when installed);
  d = 64 and 784, float32 and float64.
- brute_lowdim: brute force at d = 2 and 8, k = 1 and 5, where selection dominates;
  also against the time of its GEMM calls alone.
- threads: ``n_jobs=2`` against ``n_jobs=1`` (the reference is patrec itself).
- memory: peak extra memory (and time) of ``KNeighborsClassifier.predict`` on many
  queries, next to scikit-learn's (traced with ``tracemalloc``).

Single thread unless stated (``benchmarks/_common.py`` limits BLAS to one thread).
``--quick`` runs smaller sizes; ``--dims=2,8`` limits the lowdim section.
"""
import sys
import time
import tracemalloc

import _common  # noqa: F401  (sets the single-thread limits before numpy)
from _common import quick, report

import numpy as np
from scipy.linalg.blas import dgemm
from scipy.spatial import cKDTree
from sklearn.neighbors import BallTree, KDTree
from sklearn.neighbors import KNeighborsClassifier as SkKNN

from patrec.neighbors import BranchBoundTree, BruteForce, KNeighborsClassifier

try:
    import faiss
    faiss.omp_set_num_threads(1)
except ImportError:  # FAISS is an optional, benchmark-only dependency
    faiss = None

QUICK = quick()
# "--dims=2,8" limits the low-dimensional section to those dimensions
DIMS = [int(d) for arg in sys.argv[1:] if arg.startswith("--dims=")
        for d in arg.split("=", 1)[1].split(",")]


def interleaved(calls, repeats=3):
    """Median time of each callable, timed in rotation so load hits all alike."""
    times = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    return {name: float(np.median(values)) for name, values in times.items()}


def make_data(kind, n, d, rng):
    if kind == "uniform":
        return rng.uniform(size=(n, d))
    centers = rng.uniform(size=(50, d))
    return centers[rng.integers(0, 50, n)] + rng.normal(scale=0.02, size=(n, d))


def lowdim():
    n_train = 20_000 if QUICK else 100_000
    for d in DIMS or (2, 8, 16):
        for kind in ("uniform", "clustered"):
            rng = np.random.default_rng(d)
            X = make_data(kind, n_train + 10_000, d, rng)
            X, Q = X[:n_train], X[n_train:]
            # the hardest case (uniform, d = 16) gets fewer queries to stay short
            n_queries = 1000 if (QUICK or (kind == "uniform" and d == 16)) else 10_000
            Q = Q[:n_queries]
            start = time.perf_counter()
            tree = BranchBoundTree(X, random_state=0)
            build_s = time.perf_counter() - start
            ball, kd, ck = BallTree(X), KDTree(X), cKDTree(X)
            for k in (1, 5):
                _, _, counts = tree.query(Q, k=k, return_counts=True)
                times = interleaved({
                    "patrec": lambda: tree.query(Q, k=k),
                    "sklearn.BallTree": lambda: ball.query(Q, k=k),
                    "sklearn.KDTree": lambda: kd.query(Q, k=k),
                    "scipy.cKDTree": lambda: ck.query(Q, k=k),
                }, repeats=1 if (kind == "uniform" and d == 16) else 3)
                params = {"d": d, "data": kind, "k": k, "n_train": n_train,
                          "n_queries": n_queries}
                for name in ("sklearn.BallTree", "sklearn.KDTree", "scipy.cKDTree"):
                    report("bnb_tree_query", params, times["patrec"], name, times[name],
                           evaluations_per_query=round(float(counts.mean()), 1),
                           build_s=round(build_s, 3))


def highdim():
    n_train = 5_000 if QUICK else 20_000
    n_queries = 500 if QUICK else 2_000
    for d in (64, 784):
        for dtype in (np.float32, np.float64):
            rng = np.random.default_rng(d)
            X = rng.normal(size=(n_train, d)).astype(dtype)
            Q = rng.normal(size=(n_queries, d)).astype(dtype)
            index = BruteForce(X)
            sk = SkKNN(n_neighbors=5, algorithm="brute").fit(X, np.zeros(n_train))
            calls = {"patrec": lambda: index.query(Q, k=5),
                     "sklearn.brute": lambda: sk.kneighbors(Q)}
            if faiss is not None:
                flat = faiss.IndexFlatL2(d)
                flat.add(X.astype(np.float32))
                Q32 = Q.astype(np.float32)
                calls["faiss.IndexFlatL2"] = lambda: flat.search(Q32, 5)
            times = interleaved(calls)
            params = {"d": d, "dtype": np.dtype(dtype).name, "k": 5, "n_train": n_train,
                      "n_queries": n_queries}
            for name in calls:
                if name != "patrec":
                    report("brute_query", params, times["patrec"], name, times[name])


def brute_lowdim():
    """Brute force at d = 2 and 8 against scikit-learn's, and against the GEMM alone.

    The second line per case times only the matrix products patrec's brute force
    makes (same block shapes, scipy's BLAS): a ratio near 1 means that selecting the
    neighbours costs little next to the GEMM.
    """
    n_train, n_queries = (20_000, 1_000) if QUICK else (100_000, 2_000)
    for d in (2, 8):
        rng = np.random.default_rng(d)
        X, Q = rng.uniform(size=(n_train, d)), rng.uniform(size=(n_queries, d))
        index = BruteForce(X)
        sk = SkKNN(n_neighbors=5, algorithm="brute").fit(X, np.zeros(n_train))
        for k in (1, 5):
            times = interleaved({"patrec": lambda: index.query(Q, k=k),
                                 "sklearn.brute": lambda: sk.kneighbors(Q, k),
                                 "gemm_only": lambda: _blocked_gemm(Q, X)})
            params = {"d": d, "k": k, "n_train": n_train, "n_queries": n_queries}
            report("brute_query_lowdim", params, times["patrec"], "sklearn.brute",
                   times["sklearn.brute"])
            report("brute_query_lowdim_vs_gemm", params, times["patrec"],
                   "gemm_only", times["gemm_only"])


def _blocked_gemm(Q, X, block_queries=128, block_train=1024):
    """The dgemm calls of `BruteForce` at low dimension, and nothing else."""
    out = np.empty((block_queries, block_train), order="F")
    for q0 in range(0, len(Q), block_queries):
        queries = Q[q0:q0 + block_queries]
        for t0 in range(0, len(X), block_train):
            train = X[t0:t0 + block_train]
            if len(queries) == block_queries and len(train) == block_train:
                dgemm(1.0, queries, train, trans_b=True, c=out, overwrite_c=True)
            else:
                dgemm(1.0, queries, train, trans_b=True)


def threads():
    rng = np.random.default_rng(0)
    n_train = 20_000 if QUICK else 100_000
    X, Q = rng.uniform(size=(n_train, 8)), rng.uniform(size=(5_000, 8))
    tree = BranchBoundTree(X, random_state=0)
    times = interleaved({"two": lambda: tree.query(Q, k=5, n_jobs=2),
                         "one": lambda: tree.query(Q, k=5, n_jobs=1)})
    report("bnb_tree_n_jobs", {"d": 8, "k": 5, "n_jobs": 2}, times["two"],
           "patrec n_jobs=1", times["one"])
    # the training-set size; 5 000 queries keep the run short
    X, Q = rng.normal(size=(n_train, 64)), rng.normal(size=(5_000, 64))
    brute = BruteForce(X)
    times = interleaved({"two": lambda: brute.query(Q, k=5, n_jobs=2),
                         "one": lambda: brute.query(Q, k=5, n_jobs=1)})
    report("brute_n_jobs", {"d": 64, "k": 5, "n_jobs": 2, "n_train": n_train,
                            "n_queries": 5_000}, times["two"],
           "patrec n_jobs=1", times["one"])


def _peak_memory(call):
    """Seconds and peak traced memory (MB) of one call."""
    tracemalloc.start()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / 2**20


def memory():
    rng = np.random.default_rng(0)
    n_train, n_queries = (20_000, 100_000) if QUICK else (100_000, 1_000_000)
    X = rng.uniform(size=(n_train, 4))
    y = (X[:, 0] > 0.5).astype(int)
    Q = rng.uniform(size=(n_queries, 4))
    ours = KNeighborsClassifier(5).fit(X, y)
    theirs = SkKNN(n_neighbors=5).fit(X, y)
    ours_s, ours_mb = _peak_memory(lambda: ours.predict(Q))
    theirs_s, theirs_mb = _peak_memory(lambda: theirs.predict(Q))
    report("knn_predict_memory", {"d": 4, "k": 5, "n_train": n_train,
                                  "n_queries": n_queries,
                                  "algorithm": ours.fit_algorithm_},
           ours_s, "sklearn.KNeighborsClassifier", theirs_s,
           peak_extra_mb=round(ours_mb, 1), reference_peak_extra_mb=round(theirs_mb, 1))


SECTIONS = {"lowdim": lowdim, "highdim": highdim, "brute_lowdim": brute_lowdim,
            "threads": threads, "memory": memory}

if __name__ == "__main__":
    chosen = [name for name in sys.argv[1:] if not name.startswith("--")] or SECTIONS
    for name in chosen:
        SECTIONS[name]()

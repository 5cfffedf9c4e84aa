"""Brute force against FAISS IndexFlatL2 and scikit-learn-intelex, all single thread.

Usage: python benchmarks/dev/brute_timing.py [d=64,784] [dtype=float32,float64]
       [k=1,5,10] [n=50000] [q=1000] [repeats=5] [data=normal] [gemm]
       [base=PATH]
       python benchmarks/dev/brute_timing.py jobs [d=8,64,784] [dtype=float64,float32]
                                            [tree] [base=PATH] [shapes=256x256,...]
                                            (n_jobs=2 against n_jobs=1)

Needs the bench extra (faiss-cpu, scikit-learn-intelex).  A development companion
of bench_neighbors.py's highdim and threads sections, with more shapes.

Ratios = peer time / patrec time (above 1: patrec faster), medians of interleaved
repeats of CPU time (wall-time ratios in brackets; the machine is shared).
``gemm`` adds the time of patrec's GEMM calls alone (same block shapes).
``shapes=BQxBT,...`` (jobs) adds the kernel run with other blocks of queries x
training rows than its defaults.
``base=PATH`` adds another built patrec checkout (for example ``/work/main``,
built in place) as "base": before/after ratios from one run.
Training sizes default to 50 000 points at d = 64 and 20 000 at d = 784.

FAISS computes in float32 only: for float64 data it is given the training set
converted once (its build) and the queries converted inside the timed call, as a
float64 user must; its distances are then float32's, not exact.
"""

import importlib.util
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import _common  # noqa: F401  (single-thread BLAS before numpy)
import daal4py
import numpy as np

daal4py.daalinit(1)
import faiss  # noqa: E402

faiss.omp_set_num_threads(1)
from scipy.linalg import blas  # noqa: E402
from sklearnex.neighbors import NearestNeighbors as XNN  # noqa: E402

from patrec.neighbors import BruteForce  # noqa: E402

ARGS = dict(arg.split("=", 1) if "=" in arg else (arg, "1") for arg in sys.argv[1:])


def load_base(path):
    """The patrec package of another built checkout, imported as ``patrec_base``."""
    spec = importlib.util.spec_from_file_location(
        "patrec_base",
        os.path.join(path, "patrec", "__init__.py"),
        submodule_search_locations=[os.path.join(path, "patrec")],
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["patrec_base"] = module
    spec.loader.exec_module(module)
    return module


BASE = load_base(ARGS["base"]) if "base" in ARGS else None


def values(name, default, cast=int):
    return [cast(v) for v in ARGS.get(name, default).split(",")]


def interleaved(calls, repeats):
    """Median CPU time (process_time: on a loaded machine it counts only the time
    this process ran) and median wall time of each call, timed in rotation."""
    cpu = {name: [] for name in calls}
    wall = {name: [] for name in calls}
    for call in calls.values():  # warm up
        call()
    for _ in range(repeats):
        for name, call in calls.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            call()
            cpu[name].append(time.process_time() - start_cpu)
            wall[name].append(time.perf_counter() - start)
    return (
        {name: float(np.median(v)) for name, v in cpu.items()},
        {name: float(np.median(v)) for name, v in wall.items()},
    )


def make(kind, n, d, rng):
    if kind == "normal":
        return rng.normal(size=(n, d))
    if kind == "uniform":
        return rng.uniform(size=(n, d))
    centers = rng.normal(size=(50, d))
    return centers[rng.integers(0, 50, n)] + rng.normal(scale=0.3, size=(n, d))


def gemm_only(index, Q, bq, bt):
    C = index._centered
    gemm = blas.sgemm if C.dtype == np.float32 else blas.dgemm
    Qc = (Q - index._center).astype(C.dtype)
    for q0 in range(0, len(Qc), bq):
        for t0 in range(0, len(C), bt):
            gemm(1.0, C[t0 : t0 + bt], Qc[q0 : q0 + bq], trans_b=True)


class _Blocks:
    """A BruteForce searched with given block shapes (the kernel called directly)."""

    def __init__(self, index, block_queries, block_train):
        self.index, self.shape = index, (block_queries, block_train)

    def query(self, Q, k, n_jobs):
        from patrec._parallel import run_row_ranges, single_thread_blas
        from patrec.neighbors.search import _brute

        index = self.index
        distances = np.empty((len(Q), k), dtype=index._data.dtype)
        indices = np.empty((len(Q), k), dtype=np.intp)

        def rows(start, stop):
            with single_thread_blas():
                _brute.knn_gemm(
                    Q[start:stop],
                    index._data,
                    index._centered,
                    index._sqnorms,
                    index._center,
                    distances[start:stop],
                    indices[start:stop],
                    *self.shape,
                )

        run_row_ranges(rows, len(Q), n_jobs)
        return distances, indices


def jobs(repeats):
    """n_jobs=2 against n_jobs=1: medians of wall times, every case's runs
    interleaved with every other's (so the tree, given with ``tree``, is a control
    under the same load); also the total CPU time (near 1 when the threads add no
    work of their own) and the load average (a busy machine hides the second
    thread's gain: Linux shares the cores between sessions, not threads)."""
    from patrec.neighbors import BranchBoundTree

    rng = np.random.default_rng(0)
    cases = {}
    for d in values("d", "8,64,784"):
        n = {8: 100_000, 64: 50_000}.get(d, 20_000)
        for dtype in values("dtype", "float64,float32", str):
            X = rng.normal(size=(n, d)).astype(dtype)
            Q = rng.normal(size=(5000 if d < 256 else 2000, d)).astype(dtype)
            index = BruteForce(X)
            cases[f"brute d={d} {dtype}"] = (index, Q)
            for shape in ARGS.get("shapes", "").split(",") if "shapes" in ARGS else []:
                cases[f"brute d={d} {dtype} {shape}"] = (
                    _Blocks(index, *(int(v) for v in shape.split("x"))),
                    Q,
                )
            if BASE is not None:
                cases[f"base brute d={d} {dtype}"] = (BASE.neighbors.BruteForce(X), Q)
    if "tree" in ARGS:
        X = rng.uniform(size=(100_000, 8))
        cases["tree uniform d=8"] = (
            BranchBoundTree(X, random_state=0),
            rng.uniform(size=(10_000, 8)),
        )
    calls = {
        (name, j): (lambda index=index, Q=Q, j=j: index.query(Q, k=5, n_jobs=j))
        for name, (index, Q) in cases.items()
        for j in (1, 2)
    }
    cpu, wall = interleaved(calls, repeats)
    for name, (_, Q) in cases.items():
        one, two = (name, 1), (name, 2)
        print(
            f"{name:26s} k=5 q={len(Q)}: n_jobs=2 speedup {wall[one] / wall[two]:.2f}"
            f" (wall {wall[one] * 1e3:.0f} -> {wall[two] * 1e3:.0f} ms), CPU time x"
            f"{cpu[two] / cpu[one]:.2f}",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


def main():
    repeats = values("repeats", "5")[0]
    if "jobs" in ARGS:
        jobs(repeats)
        return
    for d in values("d", "64,784"):
        default_n = "50000" if d < 256 else "20000"
        for n in values("n", default_n):
            for nq in values("q", "1000"):
                for kind in values("data", "normal", str):
                    rng = np.random.default_rng(d)
                    X0, Q0 = make(kind, n + nq, d, rng)[:n], None
                    Q0 = make(kind, n + nq, d, np.random.default_rng(d))[n:]
                    for dtype in values("dtype", "float32,float64", str):
                        X, Q = X0.astype(dtype), Q0.astype(dtype)
                        index = BruteForce(X)
                        flat = faiss.IndexFlatL2(d)
                        flat.add(X.astype(np.float32))
                        xnn = XNN(algorithm="brute").fit(X)
                        base = BASE.neighbors.BruteForce(X) if BASE else None
                        for k in values("k", "1,5,10"):
                            calls = {
                                "patrec": lambda: index.query(Q, k=k),
                                "faiss": lambda: flat.search(
                                    Q.astype(np.float32, copy=False), k
                                ),
                                "intelex": lambda: xnn.kneighbors(Q, k),
                            }
                            if base is not None:
                                calls["base"] = lambda: base.query(Q, k=k)
                            if "gemm" in ARGS:
                                bq = 256 if d >= 256 else 128
                                bt = 2048 if d >= 256 else 1024
                                calls["gemm"] = lambda: gemm_only(index, Q, bq, bt)
                            t, w = interleaved(calls, repeats)
                            line = (
                                f"d={d:4d} n={n:6d} q={nq:5d} {kind:7s} {dtype}"
                                f" k={k:2d}  patrec {t['patrec'] * 1e3:7.1f} ms"
                            )
                            for peer in ("base", "faiss", "intelex", "gemm"):
                                if peer in t:
                                    line += (
                                        f"  {peer} {t[peer] / t['patrec']:5.2f}"
                                        f" (wall {w[peer] / w['patrec']:4.2f})"
                                    )
                            print(line, flush=True)


if __name__ == "__main__":
    main()

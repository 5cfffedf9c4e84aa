"""Development timing of BranchBoundTree queries against cKDTree, pykdtree and
scikit-learn-intelex's kd_tree (single thread, interleaved medians).

    python benchmarks/dev/tree_timing.py [workload ...] [--n N] [--k 1,5] [--self]
        [--dtype float32] [--partition kd] [--leaf 32] [--build]

Prints one line per workload: peer time / patrec time for each peer (above 1:
patrec faster).  The full grid lives in bench_neighbors.py.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import time

import _common  # noqa: F401  (single-thread BLAS first)
import numpy as np

# CPU time of the process (all its threads): far steadier than wall time on a
# shared machine; every peer here runs on one thread.
CLOCK = time.process_time


def workload(name, n, n_queries, rng):
    kind, d = name.rsplit("_d", 1) if "_d" in name else (name, "0")
    d = int(d)
    if kind == "uniform":
        return rng.uniform(size=(n, d)), rng.uniform(size=(n_queries, d))
    if kind == "clustered":
        centers = rng.uniform(-50, 50, size=(20, d))

        def draw(m):
            return centers[rng.integers(0, 20, m)] + rng.normal(size=(m, d))

        return draw(n), draw(n_queries)
    if kind == "digits":
        from sklearn.datasets import load_digits
        from sklearn.decomposition import PCA

        X = PCA(8, random_state=0).fit_transform(load_digits().data)
        X = X[rng.integers(0, len(X), n)] + rng.normal(scale=0.5, size=(n, 8))
        return X, X[rng.integers(0, n, n_queries)] + rng.normal(
            scale=0.5, size=(n_queries, 8)
        )
    if kind == "swissroll":
        from sklearn.datasets import make_swiss_roll

        X, _ = make_swiss_roll(n + n_queries, noise=0.05, random_state=0)
        return X[:n], X[n:]
    raise ValueError(name)


def interleaved(calls, repeats):
    """The least disturbed CPU time of each call, timed in turn ``repeats`` times."""
    times = {key: [] for key in calls}
    for _ in range(repeats):
        for key, call in calls.items():
            start = CLOCK()
            call()
            times[key].append(CLOCK() - start)
    return {key: np.min(v) for key, v in times.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("workloads", nargs="*", default=["uniform_d4"])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--k", default="1,5")
    parser.add_argument("--dtype", default="float64")
    parser.add_argument("--self", action="store_true", dest="self_query")
    parser.add_argument("--partition", default="kd")
    parser.add_argument("--leaf", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--build", action="store_true")
    parser.add_argument(
        "--peers",
        default="ckdtree,pykdtree,intelex",
        help="any of ckdtree, pykdtree, intelex, brute",
    )
    args = parser.parse_args()
    import daal4py
    from pykdtree.kdtree import KDTree
    from scipy.spatial import cKDTree

    daal4py.daalinit(1)
    from sklearnex.neighbors import NearestNeighbors

    from patrec.neighbors import BranchBoundTree, BruteForce

    peers = args.peers.split(",")
    rng = np.random.default_rng(0)
    for name in args.workloads:
        X, Q = workload(name, args.n, args.queries, rng)
        X = X.astype(args.dtype)
        Q = X if args.self_query else Q.astype(args.dtype)
        if args.build:
            calls = {
                "patrec": lambda: BranchBoundTree(
                    X, partition=args.partition, leaf_size=args.leaf, random_state=0
                ),
                "ckdtree": lambda: cKDTree(X),
            }
            med = interleaved(calls, args.repeats)
            print(
                f"BUILD {name} n={args.n} {args.dtype} {args.partition}: patrec "
                f"{med['patrec']:.3f}s ckdtree {med['ckdtree']:.3f}s "
                f"ratio(patrec/ckd) {med['patrec'] / med['ckdtree']:.2f}",
                flush=True,
            )
            continue
        tree = BranchBoundTree(
            X, partition=args.partition, leaf_size=args.leaf, random_state=0
        )
        built = {}
        if "ckdtree" in peers:
            built["ckdtree"] = cKDTree(X)
        if "pykdtree" in peers:
            built["pykdtree"] = KDTree(X)
        if "intelex" in peers:
            built["intelex"] = NearestNeighbors(algorithm="kd_tree").fit(X)
        if "brute" in peers:  # patrec's own brute force: where the tree stops paying
            built["brute"] = BruteForce(X)
        for k in map(int, args.k.split(",")):
            calls = {"patrec": lambda: tree.query(Q, k)}
            if "ckdtree" in built:
                calls["ckdtree"] = lambda: built["ckdtree"].query(Q, k)
            if "pykdtree" in built:
                calls["pykdtree"] = lambda: built["pykdtree"].query(Q, k)
            if "intelex" in built:
                calls["intelex"] = lambda: built["intelex"].kneighbors(Q, k)
            if "brute" in built:
                calls["brute"] = lambda: built["brute"].query(Q, k)
            for call in calls.values():
                call()
            med = interleaved(calls, args.repeats)
            ratios = " ".join(
                f"{key} {med[key] / med['patrec']:.2f}"
                for key in med
                if key != "patrec"
            )
            print(
                f"{name} n={args.n} k={k} {args.dtype}"
                f"{' self' if args.self_query else ''} {args.partition}"
                f" leaf={tree.leaf_size}: patrec {med['patrec'] * 1e3:.1f} ms | "
                f"{ratios}",
                flush=True,
            )


if __name__ == "__main__":
    main()

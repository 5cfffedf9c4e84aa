"""patrec.spatial.cKDTree against scipy.spatial.cKDTree, method by method.

100 000 points uniform in the unit cube of d = 3 and 8 dimensions (float64), a
second set of 20 000 points as the queries (separate from the data: a query equal
to a data point is a case of its own, see bench_neighbors.py), single thread,
both trees with SciPy's default ``leafsize=16``.  Radii hold about 8 neighbours a
point (0.027 in 3-D, 0.28 in 8-D).  Each method is timed side by side in one run
(interleaved repeats, medians) and checked for equal answers first; one JSON line
per measurement, ratio = SciPy's time / patrec's (above 1: patrec faster).

Options: ``--quick`` (20 000 points, 5 000 queries), ``--dims=3``,
``--repeats=N`` (default 3), ``--methods=query,query_pairs,...``.
"""

import sys

import _common  # noqa: F401  (sets the single-thread limits first)
import numpy as np
from scipy.spatial import cKDTree as ScipyTree

from patrec.spatial import cKDTree

RADIUS = {3: 0.027, 8: 0.28}


def _option(name, default):
    prefix = f"--{name}="
    for arg in sys.argv[1:]:
        if arg.startswith(prefix):
            return arg[len(prefix) :].split(",")
    return default


def workloads(A, B, r):
    """name -> (params, call on a tree pair (data tree, query tree, queries))."""
    radii = np.array([r / 4, r / 2, r])
    return {
        "build": ({}, lambda tree, other, Q: type(tree)(A)),
        "query_k1": ({"k": 1}, lambda tree, other, Q: tree.query(Q, k=1)),
        "query_k10": ({"k": 10}, lambda tree, other, Q: tree.query(Q, k=10)),
        "query_k5_p1": (
            {"k": 5, "p": 1},
            lambda tree, other, Q: tree.query(Q, k=5, p=1),
        ),
        "query_k5_pinf": (
            {"k": 5, "p": "inf"},
            lambda tree, other, Q: tree.query(Q, k=5, p=np.inf),
        ),
        "query_upper_bound": (
            {"k": 10, "distance_upper_bound": r},
            lambda tree, other, Q: tree.query(Q, k=10, distance_upper_bound=r),
        ),
        "query_ball_point": (
            {"r": r},
            lambda tree, other, Q: tree.query_ball_point(Q, r),
        ),
        "query_ball_point_length": (
            {"r": r, "return_length": True},
            lambda tree, other, Q: tree.query_ball_point(Q, r, return_length=True),
        ),
        "query_ball_tree": (
            {"r": r, "other_n": len(B)},
            lambda tree, other, Q: other.query_ball_tree(tree, r),
        ),
        "query_pairs": (
            {"r": r, "output_type": "ndarray"},
            lambda tree, other, Q: tree.query_pairs(r, output_type="ndarray"),
        ),
        "count_neighbors": (
            {"r": radii.round(4).tolist(), "other_n": len(B)},
            lambda tree, other, Q: tree.count_neighbors(other, radii),
        ),
        "sparse_distance_matrix": (
            {"r": r, "other_n": len(B), "output_type": "coo_matrix"},
            lambda tree, other, Q: other.sparse_distance_matrix(
                tree, r, output_type="coo_matrix"
            ),
        ),
    }


def same(name, ours, theirs):
    """The answers agree (the check before timing)."""
    if name == "build":
        return True
    if name.startswith("query_k") or name == "query_upper_bound":
        return np.array_equal(ours[0], theirs[0])
    if name == "query_ball_point":
        return all(sorted(a) == sorted(b) for a, b in zip(ours, theirs))
    if name == "query_ball_tree":
        return all(sorted(a) == sorted(b) for a, b in zip(ours, theirs))
    if name == "query_pairs":
        return set(map(tuple, ours.tolist())) == set(map(tuple, theirs.tolist()))
    if name == "sparse_distance_matrix":
        return (ours != theirs).nnz == 0
    return np.array_equal(ours, theirs)


def main():
    quick = _common.quick()
    n, n_queries = (20_000, 5_000) if quick else (100_000, 20_000)
    repeats = int(_option("repeats", ["3"])[0])
    dims = [int(d) for d in _option("dims", ["3", "8"])]
    chosen = _option("methods", None)
    for d in dims:
        rng = np.random.default_rng(d)
        A = rng.uniform(size=(n, d))
        Q = rng.uniform(size=(n_queries, d))
        r = RADIUS[d] * (n / 100_000) ** (-1 / d)  # (about 8 neighbours at any n)
        ours, ours_other = cKDTree(A), cKDTree(Q)
        theirs, theirs_other = ScipyTree(A), ScipyTree(Q)
        for name, (params, call) in workloads(A, Q, r).items():
            if chosen and name not in chosen:
                continue
            agree = same(name, call(ours, ours_other, Q), call(theirs, theirs_other, Q))
            t_ours, t_theirs = _common.compare(
                lambda: call(ours, ours_other, Q),
                lambda: call(theirs, theirs_other, Q),
                repeats=repeats,
                warmup=0,
            )
            _common.report(
                f"spatial_{name}",
                {"n": n, "queries": n_queries, "d": d, "threads": 1, **params},
                t_ours,
                "scipy.cKDTree",
                t_theirs,
                same_answers=bool(agree),
            )


if __name__ == "__main__":
    main()

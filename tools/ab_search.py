"""Time the k-d search of two builds of ``_bnb_tree`` side by side in one process.

On this kind of machine the same build measures several per cent apart from one
process to the next (memory layout, the other tenant), which is as much as a change
to the search usually gains.  Loading the baseline build next to the present one
and alternating their searches on the same tree and queries removes most of that: two
copies of one build measure 0.99-1.02 of each other over 21 rounds.

Usage, from the repository root::

    cp patrec/neighbors/search/_bnb_tree.cpython-*.so /tmp/base/   # the baseline
    # ... change the search, then python setup.py build_ext --inplace
    python tools/ab_search.py /tmp/base/_bnb_tree.cpython-*.so \\
        --data uniform,clustered --d 2,4 --k 5,10 --queries separate,self

The present build is the repository's own (an editable install or the in-place
build; the tool refuses an installed copy of patrec, which would be timed against
the baseline instead).  The baseline gets the tree's fields it knows, so a present
build may add some.

Each line gives the present build's speed relative to the baseline (above 1: the
present build is faster; medians of interleaved rounds of CPU time, on the raw
search in the order ``query`` uses) and the present build against pykdtree when it
is installed.  Both builds must return the same answers.
"""

import argparse
import importlib.machinery
import importlib.util
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import _common  # noqa: E402, F401  (one thread for BLAS and OpenMP, before numpy)
import numpy as np  # noqa: E402
from bench_neighbors import make_data  # noqa: E402

from patrec.neighbors.search import BranchBoundTree  # noqa: E402
from patrec.neighbors.search import _bnb_tree as present  # noqa: E402

try:
    from pykdtree.kdtree import KDTree as PyKDTree
except ImportError:
    PyKDTree = None


def load_baseline(path):
    """The compiled module at ``path``, a second copy beside the present one."""
    name = present.__name__
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def compare(baseline, data, d, k, dtype, queries, n, rounds):
    """Time both builds' raw searches on one workload and print the ratios."""
    rng = np.random.default_rng(n + d)
    points = make_data(data, n + 5_000, d, rng).astype(dtype)
    X = points[:n]
    Q = points[n:] if queries == "separate" else X
    tree = BranchBoundTree(X)
    ours = tree._tree
    fields = {field: getattr(ours, field) for field in baseline.FIELDS}
    try:  # (a mapping since issue 41; keywords before)
        theirs = baseline.make_search_tree(fields)
    except TypeError:
        theirs = baseline.make_search_tree(**fields)
    order = tree._search_order(Q)  # (the order `query` searches them in)
    Q_ordered = Q.take(order, axis=0)
    answers = {
        name: (np.empty((len(Q), k), Q.dtype), np.empty((len(Q), k), np.intp))
        for name in ("present", "baseline")
    }
    calls = {
        "present": lambda: present.knn_search(
            ours, Q_ordered, *answers["present"], None, order
        ),
        "baseline": lambda: baseline.knn_search(
            theirs, Q_ordered, *answers["baseline"], None, order
        ),
    }
    if PyKDTree is not None:
        peer = PyKDTree(X)
        calls["pykdtree"] = lambda: peer.query(Q, k=k)
    times = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            started = time.process_time()
            call()
            times[name].append(time.process_time() - started)
    for a, b in zip(answers["present"], answers["baseline"]):
        np.testing.assert_array_equal(a, b)
    median = {name: np.median(values) for name, values in times.items()}
    line = f"{data} d={d} k={k} {dtype} {queries}: present/baseline speed "
    line += f"{median['baseline'] / median['present']:.3f}"
    if "pykdtree" in median:
        line += (
            f", present against pykdtree {median['pykdtree'] / median['present']:.3f}"
        )
    print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("baseline", type=Path, help="the baseline's _bnb_tree .so")
    parser.add_argument("--data", default="uniform")
    parser.add_argument("--d", default="2")
    parser.add_argument("--k", default="10")
    parser.add_argument("--dtype", default="float64")
    parser.add_argument("--queries", default="separate")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    repository = Path(__file__).resolve().parents[1]
    if repository not in Path(present.__file__).resolve().parents:
        sys.exit(
            f"patrec is imported from {present.__file__}, not from {repository}: "
            "install it editable (pip install -e . --no-build-isolation) or build "
            "it in place"
        )
    baseline = load_baseline(args.baseline)
    if baseline is present:
        sys.exit("the baseline must be another file than the present build")
    for data, d, k, dtype, queries in itertools.product(
        args.data.split(","),
        map(int, args.d.split(",")),
        map(int, args.k.split(",")),
        args.dtype.split(","),
        args.queries.split(","),
    ):
        compare(baseline, data, d, k, dtype, queries, args.n, args.rounds)


if __name__ == "__main__":
    main()

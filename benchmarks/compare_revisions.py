"""patrec against an earlier revision of itself: is a refactoring free?

    python benchmarks/compare_revisions.py [--base REV] [--repeats 5] [workload ...]

Builds ``REV`` (default: the commit before the re-layout of the neighbours chapter)
in a temporary git worktree (``python setup.py build_ext --inplace``: a few minutes),
then times each workload alternately in the two trees, each run in a fresh
subprocess that imports patrec from its tree only.  Prints one JSON line per workload
(``_common.report``'s fields, the base revision as the "reference") and a table:
base time / current time (above 1: the current tree is faster) and whether the
answers of the two trees are equal.

Times are CPU times of the measured call (single thread), median of the interleaved
repeats.  The workloads cover what a re-layout of the search and editing code can
touch: building and querying the branch-and-bound tree (k-d and k-means
partitions), radius queries, brute force, and Hart's condensing and multi-edit,
whose store is the condensing tree; and the four error-correcting learners, whose
epoch kernels share the epoch state.
"""

import argparse
import os
import pathlib
import pickle
import subprocess
import sys
import tempfile

import _common  # noqa: F401  (single-thread BLAS before numpy)
import numpy as np
from _common import report

REPO = pathlib.Path(__file__).resolve().parent.parent
# the last commit before the neighbours chapter was laid out by job (issue 24)
BASE = "208b402"

# name -> (set-up code, the measured statement, the answer to compare); the set-up
# sees numpy as np and rng, a seeded generator, and imports only public names
WORKLOADS = {
    "build kd 1M d3": (
        "from patrec.neighbors import BranchBoundTree\n"
        "X = rng.uniform(size=(1_000_000, 3))",
        "tree = BranchBoundTree(X)",
        "tree.query(X[:1000], k=3)[1]",
    ),
    "query kd 200k d3 k10": (
        "from patrec.neighbors import BranchBoundTree\n"
        "X = rng.uniform(size=(200_000, 3)); Q = rng.uniform(size=(50_000, 3))\n"
        "tree = BranchBoundTree(X)",
        "found = tree.query(Q, k=10)[1]",
        "found",
    ),
    "query kd 200k d8 k1 float32": (
        "from patrec.neighbors import BranchBoundTree\n"
        "X = rng.normal(size=(200_000, 8)).astype(np.float32)\n"
        "Q = rng.normal(size=(5_000, 8)).astype(np.float32)\n"
        "tree = BranchBoundTree(X)",
        "found = tree.query(Q, k=1)[1]",
        "found",
    ),
    "query kmeans 100k d4 k5": (
        "from patrec.neighbors import BranchBoundTree\n"
        "X = rng.normal(size=(100_000, 4)); Q = rng.normal(size=(10_000, 4))\n"
        "tree = BranchBoundTree(X, partition='kmeans')",
        "found = tree.query(Q, k=5)[1]",
        "found",
    ),
    "query cityblock 100k d3 k5": (
        "from patrec.neighbors import BranchBoundTree\n"
        "X = rng.uniform(size=(100_000, 3)); Q = rng.uniform(size=(20_000, 3))\n"
        "tree = BranchBoundTree(X, metric='cityblock')",
        "found = tree.query(Q, k=5)[1]",
        "found",
    ),
    "radius kd 200k d3": (
        "from patrec.neighbors import BranchBoundTree\n"
        "X = rng.uniform(size=(200_000, 3)); Q = rng.uniform(size=(20_000, 3))\n"
        "tree = BranchBoundTree(X)",
        "found = tree.query_radius(Q, 0.02)",
        "np.concatenate([*found, [len(row) for row in found]])",
    ),
    "brute 50k d32 k5": (
        "from patrec.neighbors import BruteForce\n"
        "X = rng.normal(size=(50_000, 32)); Q = rng.normal(size=(5_000, 32))\n"
        "index = BruteForce(X)",
        "found = index.query(Q, k=5)[1]",
        "found",
    ),
    "condense 100k d2": (
        "from patrec.neighbors import condense\n"
        "X = rng.normal(size=(100_000, 2)); y = (X[:, 0] + 0.5 * rng.normal(\n"
        "    size=100_000) > 0).astype(int)",
        "kept = condense(X, y)",
        "kept",
    ),
    "condense 5k d2": (
        "from patrec.neighbors import condense\n"
        "X = rng.normal(size=(5_000, 2)); y = (X[:, 0] + 0.5 * rng.normal(\n"
        "    size=5_000) > 0).astype(int)",
        "kept = condense(X, y)",
        "kept",
    ),
    **{
        f"{name} 20k d20": (
            f"from patrec import {cls}\n"
            "X = rng.normal(size=(20_000, 20)); y = rng.integers(0, 4, 20_000)\n"
            "X[np.arange(20_000), y] += 1.0",
            f"model = {cls}({params}max_epochs=50, random_state=0).fit(X, y)",
            "np.concatenate([model.coef_.ravel(), model.intercept_])",
        )
        for name, cls, params in (
            ("perceptron", "Perceptron", ""),
            ("linear machine", "LinearMachine", ""),
            ("multiclass svm", "MulticlassSVM", ""),
            ("piecewise linear", "PiecewiseLinearClassifier", "n_subclasses=2, "),
        )
    },
    "multiedit 100k d2": (
        "from patrec.neighbors import multiedit\n"
        "X = rng.normal(size=(100_000, 2)); y = (X[:, 0] + 0.5 * rng.normal(\n"
        "    size=100_000) > 0).astype(int)",
        "kept = multiedit(X, y, random_state=0)",
        "kept",
    ),
}

CHILD = """
import sys, time, pickle
sys.path.insert(0, {tree!r})
import numpy as np
import patrec
assert patrec.__file__.startswith({tree!r}), patrec.__file__
rng = np.random.default_rng(0)
{setup}
{statement}  # warm-up
start = time.process_time()
{statement}
elapsed = time.process_time() - start
sys.stdout.buffer.write(pickle.dumps((elapsed, {answer})))
"""


def build(revision, folder):
    """A worktree of ``revision`` in ``folder`` with its extensions built in place."""
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", folder, revision],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=folder,
        check=True,
        capture_output=True,
    )


def run(tree, name):
    """(CPU seconds, answer) of one workload in a fresh process importing ``tree``."""
    setup, statement, answer = WORKLOADS[name]
    code = CHILD.format(tree=str(tree), setup=setup, statement=statement, answer=answer)
    env = dict(os.environ, PYTHONPATH="")
    process = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=False, env=env
    )
    if process.returncode:
        raise RuntimeError(f"{name} in {tree}:\n{process.stderr.decode()}")
    return pickle.loads(process.stdout)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=BASE)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    args = parser.parse_args(argv)
    unknown = set(args.workloads) - set(WORKLOADS)
    if unknown:
        parser.error(f"unknown workloads {sorted(unknown)}; known: {list(WORKLOADS)}")
    with tempfile.TemporaryDirectory() as scratch:
        base = os.path.join(scratch, "base")
        print(f"# building {args.base} in {base}", file=sys.stderr, flush=True)
        build(args.base, base)
        try:
            rows = []
            for name in args.workloads:
                times = {"base": [], "current": []}
                answers = {}
                for _ in range(args.repeats):
                    for label, tree in (("base", base), ("current", REPO)):
                        elapsed, answers[label] = run(tree, name)
                        times[label].append(elapsed)
                base_s = float(np.median(times["base"]))
                current_s = float(np.median(times["current"]))
                equal = bool(np.array_equal(answers["base"], answers["current"]))
                report(
                    name,
                    {"base": args.base, "equal": equal},
                    current_s,
                    f"patrec {args.base}",
                    base_s,
                )
                rows.append((name, base_s, current_s, equal))
        finally:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", base],
                check=False,
                capture_output=True,
            )
    print(f"# {'workload':<30} {args.base:>9} {'current':>9} {'ratio':>6}  equal")
    for name, base_s, current_s, equal in rows:
        print(
            f"# {name:<30} {base_s:9.3f} {current_s:9.3f} "
            f"{base_s / current_s:6.2f}  {equal}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

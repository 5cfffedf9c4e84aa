"""Exact nearest-neighbour search: patrec against the fastest searches a user can install.

Peers: SciPy's ``cKDTree``, pykdtree's ``KDTree``, scikit-learn-intelex's k-d tree and
brute force (``sklearnex.neighbors.NearestNeighbors``), scikit-learn's ``KDTree`` and
brute force, FAISS's ``IndexFlatL2``.  Every peer present is timed side by side with
patrec in one run; a missing optional peer is skipped with a note on stderr.

Sections (name some on the command line; by default every one but ``grid`` and
``kinds``, the longest):

- table: the issue's table.  100 000 training points, 5 000 separate queries,
  k = 1 and 5; ratio = peer time / patrec time, above 1: patrec faster.  patrec is
  timed twice: `BranchBoundTree.query` ("tree") and ``KNeighborsClassifier(
  algorithm="auto").kneighbors`` ("auto").  ``--table=PATH`` also writes it as
  Markdown.
- grid: the whole workload grid of the low-dimensional search: uniform and clustered
  data in d = 2, 4, 8, 16, digits reduced to 8 dimensions, a swiss roll in 3-D and
  the same roll embedded in 8-D; n = 10 000 .. 1 000 000; k = 1, 5, 10; float32 and
  float64; queries separate from the training set ("separate", 5 000 of them) and
  equal to it ("self", every training point as editing searches, 20 000 of them
  above 20 000 samples).  patrec's ``auto`` index against the fastest of cKDTree,
  pykdtree and scikit-learn-intelex (and every peer in the JSON line); CPU time.
- build: tree construction at n = 1 000 000, d = 2, 3, 4, 8, 16, against cKDTree's
  and pykdtree's.
- index_memory: the resident memory a built index adds beyond the caller's data, and
  its peak during the build, at 2 000 000 x 3 and 1 000 000 x 8 (each build in a
  fresh process); "ratio" is the peer's added memory over patrec's (the times are
  those of the builds, once each).  cKDTree and
  scikit-learn keep a reference to the caller's array (changing it later changes
  their answers); patrec keeps its own copy, as ``cKDTree(copy_data=True)`` does.
- highdim: brute force at d = 64 and 784, float32 and float64, against
  scikit-learn-intelex, FAISS and scikit-learn.  FAISS computes in float32 only:
  for float64 data its index holds the training set converted once, and the
  queries are converted inside the timed call (its distances are then float32's).
  CPU time, fifteen interleaved rounds; ``round_ratio`` is the median of the
  rounds' ratios (each round times every search once, back to back).
- auto: the choice of ``algorithm="auto"`` on a grid of workloads: time of auto
  (choice included) against the better of tree and brute force, both for a
  classifier (built once, then 5 000 queries) and for editing (every training point
  queried once, construction included); CPU time.  Ratio = better / auto: at least
  1/1.2.
- calibrate: measures the constants of ``auto``'s cost model (prints them).
- kinds: k-NN on data no earlier section named (duplicates, heavy tails, an
  elongated axis, a sphere's surface, a sheet embedded in 16 and 64 features): the
  query, ``fit(X, y).predict(Q)`` end to end and single-row calls (see `kinds`).
- threads: ``n_jobs=2`` against ``n_jobs=1`` for the tree and brute force (float32
  and float64; k = 1, 5 and 10 at d = 8), and beside them two processes running
  the one-thread query at once (``two_processes``).
- brute_lowdim, memory: brute force where selection dominates, and the peak
  memory of ``KNeighborsClassifier.predict``.

Filters: ``--quick`` (smaller sizes), ``--dims=2,8``, ``--n=10000,100000``,
``--k=1,5``, ``--kinds=uniform,clustered``, ``--dtypes=float32``,
``--queries=separate,self`` restrict the grid (``--dims`` also the table,
``--kinds``, ``--dims`` and ``--n`` the auto section); ``--repeats=15`` times the
table's calls in 15 interleaved rounds rather than 3; ``--self-queries=5000``
takes fewer evenly spaced training points as self queries (the JSON line records
how many), for cells where the peers would take hours.
Single thread unless stated: ``_common`` limits BLAS and OpenMP, scikit-learn-intelex
runs on TBB threads and is pinned with ``daal4py.daalinit(1)``, FAISS with
``faiss.omp_set_num_threads(1)``.
"""

import os
import sys
import time
import tracemalloc

import _common  # noqa: F401  (sets the single-thread limits before numpy)
import numpy as np
from _common import quick, report
from scipy.linalg.blas import dgemm
from scipy.optimize import nnls
from scipy.spatial import cKDTree
from sklearn.neighbors import KDTree
from sklearn.neighbors import KNeighborsClassifier as SkKNN

from patrec.neighbors import BranchBoundTree, BruteForce, KNeighborsClassifier
from patrec.neighbors.search._auto import build_index


def _optional(name):
    try:
        return __import__(name, fromlist=["_"])
    except ImportError:
        print(f"# {name} is not installed: its columns are skipped", file=sys.stderr)
        return None


faiss = _optional("faiss")
if faiss is not None:
    faiss.omp_set_num_threads(1)
pykdtree = _optional("pykdtree.kdtree")
daal4py = _optional("daal4py")
sklearnex_neighbors = _optional("sklearnex.neighbors") if daal4py else None
if daal4py is not None:
    daal4py.daalinit(1)  # TBB threads: threadpoolctl does not reach them

QUICK = quick()


def _option(name, cast=str):
    """Values of ``--name=a,b`` (empty list when not given)."""
    prefix = f"--{name}="
    return [
        cast(value)
        for arg in sys.argv[1:]
        if arg.startswith(prefix)
        for value in arg[len(prefix) :].split(",")
    ]


def interleaved(calls, repeats=3, clock=time.perf_counter):
    """Median time of each callable, timed in rotation so load hits all alike
    (``clock=time.process_time``: CPU time, for single-threaded calls)."""
    times = interleaved_times(calls, repeats, clock)
    return {name: float(np.median(values)) for name, values in times.items()}


def interleaved_times(calls, repeats, clock):
    """Every time of each callable ({name: array of one per round}), in rotation."""
    times = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            start = clock()
            call()
            times[name].append(clock() - start)
    return {name: np.array(values) for name, values in times.items()}


# -- workloads ------------------------------------------------------------------------


def _digits8():
    """The 8-by-8 digit images reduced to their 8 leading principal components."""
    from sklearn.datasets import load_digits

    X = load_digits().data
    X = X - X.mean(axis=0)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    return X @ vt[:8].T


def make_data(kind, n, d, rng):
    """``n`` points of one workload; ``d`` is ignored by the fixed-dimension ones."""
    if kind == "uniform":
        return rng.uniform(size=(n, d))
    if kind == "clustered":  # 50 tight Gaussian clusters
        centers = rng.uniform(size=(50, d))
        return centers[rng.integers(0, 50, n)] + rng.normal(scale=0.02, size=(n, d))
    if kind == "digits8":  # 1 797 real points, resampled with a little jitter
        digits = _digits8()
        base = digits[rng.integers(0, len(digits), n)]
        return base + rng.normal(scale=0.05 * digits.std(), size=base.shape)
    t = 1.5 * np.pi * (1 + 2 * rng.uniform(size=n))  # the swiss roll
    roll = np.column_stack([t * np.cos(t), 21 * rng.uniform(size=n), t * np.sin(t)])
    if kind == "swissroll3":
        return roll
    if kind == "swissroll8":  # the same 2-D sheet, rotated into 8 dimensions
        basis, _ = np.linalg.qr(np.random.default_rng(8).normal(size=(8, 3)))
        return roll @ basis.T
    if kind == "manifold":  # the same 2-D sheet, rotated into d dimensions
        basis, _ = np.linalg.qr(np.random.default_rng(d).normal(size=(d, 3)))
        return roll @ basis.T
    raise ValueError(kind)


def make_hard_data(kind, n, d, rng):
    """``n`` points of the workloads no earlier measurement named."""
    if kind == "duplicates":  # integer features: about 8 copies of every point
        return rng.integers(0, round((n / 8) ** (1 / d)), size=(n, d)).astype(float)
    if kind == "heavytailed":  # Student's t with 1.5 degrees of freedom
        return rng.standard_t(1.5, size=(n, d))
    if kind == "elongated":  # one axis 1 000 times the others
        return rng.normal(size=(n, d)) * np.r_[1000.0, np.ones(d - 1)]
    if kind == "sphere":  # points on the surface of the unit sphere
        points = rng.normal(size=(n, d))
        return points / np.linalg.norm(points, axis=1, keepdims=True)
    return make_data(kind, n, d, rng)


FIXED_DIMENSION = {"digits8": 8, "swissroll3": 3, "swissroll8": 8}


# -- the searches ---------------------------------------------------------------------


def peer_trees(X, sklearn=True):
    """Built low-dimensional peers: name -> query(Q, k) callable (scikit-learn's
    ``KDTree`` among them unless ``sklearn=False``)."""
    peers = {"scipy.cKDTree": cKDTree(X).query}
    if pykdtree is not None:
        peers["pykdtree"] = pykdtree.KDTree(X).query
    if sklearnex_neighbors is not None:
        intel = sklearnex_neighbors.NearestNeighbors(algorithm="kd_tree").fit(X)
        peers["sklearnex.kd_tree"] = lambda Q, k: intel.kneighbors(Q, k)
    if sklearn:
        peers["sklearn.KDTree"] = KDTree(X).query
    return peers


def patrec_searches(X):
    """patrec's tree and its ``auto`` classifier: name -> query(Q, k) callable."""
    tree = BranchBoundTree(X, random_state=0)
    auto = KNeighborsClassifier(algorithm="auto").fit(X, np.arange(len(X)) % 2)
    return {
        "tree": lambda Q, k: tree.query(Q, k=k),
        "auto": lambda Q, k: auto.kneighbors(Q, k),
    }, auto.fit_algorithm_


def _check_same(patrec_call, reference_call, Q, k):
    """patrec's distances equal the reference's (indices may differ on ties)."""
    ours = np.asarray(patrec_call(Q, k)[0], dtype=np.float64).reshape(len(Q), -1)
    theirs = np.asarray(reference_call(Q, k)[0], dtype=np.float64).reshape(len(Q), -1)
    if not np.allclose(ours, theirs, rtol=1e-4, atol=1e-6):
        raise AssertionError("patrec's neighbours differ from the reference's")


def _search_case(X, Q, ks, repeats=3, sklearn=True, clock=time.perf_counter):
    """Time patrec's searches and every peer on one workload; {k: {name: s}}."""
    ours, algorithm = patrec_searches(X)
    peers = peer_trees(X, sklearn)
    results = {}
    for k in ks:
        _check_same(ours["tree"], peers["scipy.cKDTree"], Q[:200], k)
        calls = {name: (lambda call=call: call(Q, k)) for name, call in ours.items()}
        calls.update(
            {name: (lambda call=call: call(Q, k)) for name, call in peers.items()}
        )
        results[k] = interleaved(calls, repeats, clock)
    return results, algorithm


def table():
    """The issue's table: 100 000 points, 5 000 queries, k = 1 and 5."""
    n_train, n_queries = (20_000, 1_000) if QUICK else (100_000, 5_000)
    rows = []
    for kind, d in [
        ("uniform", 2),
        ("uniform", 4),
        ("uniform", 8),
        ("uniform", 16),
        ("clustered", 4),
        ("clustered", 8),
        ("clustered", 16),
        ("digits8", 8),
        ("swissroll3", 3),
    ]:
        if _option("dims", int) and d not in _option("dims", int):
            continue
        rng = np.random.default_rng(d)
        data = make_data(kind, n_train + n_queries, d, rng)
        X, Q = data[:n_train], data[n_train:]
        repeats = (_option("repeats", int) or [3])[0]
        results, algorithm = _search_case(X, Q, (1, 5), repeats=repeats)
        params = {"data": kind, "d": d, "n_train": n_train, "n_queries": n_queries}
        for k, times in results.items():
            for mine in ("tree", "auto"):
                for name in times:
                    if name not in ("tree", "auto"):
                        report(
                            f"knn_{mine}_query",
                            {**params, "k": k},
                            times[mine],
                            name,
                            times[name],
                            auto_choice=algorithm,
                        )
        rows.append((f"{kind} d{d}", algorithm, results))
    text = _markdown(rows)
    print(text, file=sys.stderr)
    for path in _option("table"):
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)


def _markdown(rows):
    """The table: per workload and peer, ratio k = 1 / k = 5 for the tree and auto."""
    peers = [name for name in rows[0][2][1] if name not in ("tree", "auto")]
    lines = [
        "| workload | patrec | " + " | ".join(peers) + " |",
        "|---|---|" + "---|" * len(peers),
    ]
    for label, algorithm, results in rows:
        for mine in ("tree", "auto"):
            cells = []
            for name in peers:
                ratios = [results[k][name] / results[k][mine] for k in (1, 5)]
                text = " / ".join(f"{r:.2f}" for r in ratios)
                cells.append(f"**{text}**" if min(ratios) < 1 else text)
            who = "BranchBoundTree" if mine == "tree" else f"auto ({algorithm})"
            lines.append(f"| {label} | {who} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# The workloads no earlier measurement named: (kind, d).
HARD_KINDS = [
    ("duplicates", 3),
    ("heavytailed", 4),
    ("elongated", 4),
    ("sphere", 3),
    ("manifold", 16),
    ("manifold", 64),
]


def kinds():
    """k-NN on duplicate-heavy, heavy-tailed, elongated data, points on a sphere and
    a 2-D sheet embedded in 16 and 64 features; float64 and float32; k = 1, 5, 10,
    50; 195 000 training points, 5 000 separate queries; CPU time, three
    interleaved rounds.  Three measurements each:

    - knn_kinds_query: the query alone, ``KNeighborsClassifier(algorithm="auto")
      .kneighbors`` against the fastest of cKDTree, pykdtree, scikit-learn-intelex;
    - knn_kinds_fit_predict: ``KNeighborsClassifier(k).fit(X, y).predict(Q)`` end to
      end against scikit-learn-intelex's and scikit-learn's (three classes);
    - knn_kinds_single_row: 200 calls of ``kneighbors`` with one row each against a
      loop of cKDTree queries of one point (an interactive demo's pattern).
    """
    n, n_queries = (20_000, 1_000) if QUICK else (195_000, 5_000)
    ks = _option("k", int) or [1, 5, 10, 50]
    chosen = _option("kinds")
    for kind, d in HARD_KINDS:
        if chosen and kind not in chosen:
            continue
        for dtype in _option("dtypes") or ["float64", "float32"]:
            rng = np.random.default_rng(d)
            data = make_hard_data(kind, n + n_queries, d, rng).astype(dtype)
            X, Q = data[:n], data[n:]
            y = rng.integers(0, 3, size=n)
            params = {"data": kind, "d": d, "n": n, "dtype": dtype}
            results, algorithm = _search_case(
                X, Q, ks, repeats=3, sklearn=False, clock=time.process_time
            )
            for k, times in results.items():
                peers = {n: s for n, s in times.items() if n not in ("tree", "auto")}
                fastest = min(peers, key=peers.get)
                report(
                    "knn_kinds_query",
                    {**params, "k": k},
                    times["auto"],
                    fastest,
                    peers[fastest],
                    auto_choice=algorithm,
                    tree_ratio=round(peers[fastest] / times["tree"], 3),
                    **{name: round(s, 5) for name, s in peers.items()},
                )
            for k in ks:
                _fit_predict(X, y, Q, k, params)
            _single_rows(X, Q[:200], params)


def _fit_predict(X, y, Q, k, params):
    """``fit(X, y).predict(Q)`` end to end against the peers' classifiers."""
    calls = {
        "patrec": lambda: KNeighborsClassifier(k).fit(X, y).predict(Q),
        "sklearn.KNeighborsClassifier": lambda: SkKNN(k).fit(X, y).predict(Q),
    }
    if sklearnex_neighbors is not None:
        Intel = sklearnex_neighbors.KNeighborsClassifier
        calls["sklearnex.KNeighborsClassifier"] = lambda: Intel(k).fit(X, y).predict(Q)
    labels = {name: call() for name, call in calls.items()}
    times = interleaved(calls, 3, time.process_time)
    for name in calls:
        if name != "patrec":
            report(
                "knn_kinds_fit_predict",
                {**params, "k": k},
                times["patrec"],
                name,
                times[name],
                # (equidistant neighbours are taken in another order by the peers:
                # where many are, as in duplicate-heavy data, votes differ)
                same_labels=round(float(np.mean(labels[name] == labels["patrec"])), 4),
            )


def _single_rows(X, rows, params):
    """Single-row ``kneighbors`` calls against single-point cKDTree queries."""
    model = KNeighborsClassifier(5).fit(X, np.arange(len(X)) % 2)
    peer = cKDTree(X)

    def ours():
        for row in rows:
            model.kneighbors(row[None, :])

    def theirs():
        for row in rows:
            peer.query(row, k=5)

    times = interleaved({"patrec": ours, "scipy.cKDTree": theirs}, 5)
    report(
        "knn_kinds_single_row",
        {**params, "k": 5, "calls": len(rows)},
        times["patrec"],  # (of all the calls: a call's microseconds, unrounded)
        "scipy.cKDTree",
        times["scipy.cKDTree"],
        auto_choice=model.fit_algorithm_,
    )


# self queries: every training point up to this many samples, as many evenly spaced
# ones above (a million queries against each peer would take hours)
_SELF_QUERIES = 20_000


def _grid_repeats(n):
    """Interleaved rounds per grid cell: seven up to 100 000 samples, whose calls
    take milliseconds and are the noisiest (with three rounds one cell measured
    1.15 and 0.87 in two runs of the same build; another 1.78, then 1.12 on a
    build measured faster), three at a million."""
    return 7 if n <= 100_000 else 3


def grid():
    """Every workload of deliverable 1; patrec auto against the fastest peer.

    The peers are the issue's (cKDTree, pykdtree, scikit-learn-intelex: the table has
    scikit-learn's ``KDTree`` too, never the fastest); CPU time, every call being
    single-threaded.  Self queries are every training point up to 20 000 samples,
    20 000 evenly spaced training points above.
    """
    kinds = _option("kinds") or [
        "uniform",
        "clustered",
        "digits8",
        "swissroll3",
        "swissroll8",
    ]
    sizes = _option("n", int) or ([10_000] if QUICK else [10_000, 100_000, 1_000_000])
    dims = _option("dims", int) or ([2, 8] if QUICK else [2, 4, 8, 16])
    ks = _option("k", int) or ([1, 5] if QUICK else [1, 5, 10])
    dtypes = _option("dtypes") or ["float64", "float32"]
    modes = _option("queries") or ["separate", "self"]
    self_queries = (_option("self-queries", int) or [_SELF_QUERIES])[0]
    for kind in kinds:
        for d in [FIXED_DIMENSION[kind]] if kind in FIXED_DIMENSION else dims:
            for n in sizes:
                for dtype in dtypes:
                    rng = np.random.default_rng(n + d)
                    data = make_data(kind, n + 5_000, d, rng).astype(dtype)
                    X = data[:n]
                    for mode in modes:
                        if mode == "separate":
                            Q = data[n:]
                        else:  # training points (every one up to self_queries)
                            Q = X[:: -(-n // self_queries)]
                        results, algorithm = _search_case(
                            X,
                            Q,
                            ks,
                            repeats=_grid_repeats(n),
                            sklearn=False,
                            clock=time.process_time,
                        )
                        for k, times in results.items():
                            peers = {
                                name: s
                                for name, s in times.items()
                                if name not in ("tree", "auto")
                            }
                            fastest = min(peers, key=peers.get)
                            report(
                                "knn_grid",
                                {
                                    "data": kind,
                                    "d": d,
                                    "n": n,
                                    "k": k,
                                    "dtype": dtype,
                                    "queries": mode,
                                    "n_queries": len(Q),
                                },
                                times["auto"],
                                fastest,
                                peers[fastest],
                                auto_choice=algorithm,
                                tree_ratio=round(peers[fastest] / times["tree"], 3),
                                **{name: round(s, 5) for name, s in peers.items()},
                            )


def build():
    """Tree construction at n = 1 000 000, d = 2 .. 16, against the peers' builds."""
    n = 20_000 if QUICK else 1_000_000
    for d in _option("dims", int) or (2, 3, 4, 8, 16):
        for kind in ("uniform", "clustered"):
            X = make_data(kind, n, d, np.random.default_rng(d))
            system = []  # the kernel's time in each of patrec's builds

            def ours():
                before = os.times().system
                BranchBoundTree(X, random_state=0)
                system.append(os.times().system - before)

            calls = {
                "patrec": ours,
                "scipy.cKDTree": lambda: cKDTree(X),
            }
            if pykdtree is not None:
                calls["pykdtree"] = lambda: pykdtree.KDTree(X)
            # nine rounds: on this virtual machine a fresh 128 MiB array (patrec's
            # copy at d = 16) now and then costs 0.1-0.3 s of page faults instead
            # of 0.013 s (numpy's X.copy() alone does it), in a round in four to
            # one in two: the kernel's time, reported beside the wall time, shows it
            times = interleaved(calls, repeats=9)
            for name in calls:
                if name != "patrec":
                    report(
                        "bnb_tree_build",
                        {"data": kind, "d": d, "n": n},
                        times["patrec"],
                        name,
                        times[name],
                        patrec_system_s=[round(s, 3) for s in system],
                    )


# The memory an index adds: each build runs in a fresh process (this script again,
# with --memory-child), which reads its resident set (VmRSS) before and after the
# build (after handing the memory glibc's malloc keeps on its free lists back to the
# system: that is not the index's) and its peak (VmHWM, reset just before the build).
_MEMORY_BUILDS = {
    "patrec.BranchBoundTree": lambda X, y: BranchBoundTree(X),
    "patrec.KNeighborsClassifier": lambda X, y: KNeighborsClassifier(5).fit(X, y),
    "scipy.cKDTree": lambda X, y: cKDTree(X),
    "scipy.cKDTree(copy_data=True)": lambda X, y: cKDTree(X, copy_data=True),
    "pykdtree": lambda X, y: pykdtree.KDTree(X),
    "sklearn.KDTree": lambda X, y: KDTree(X),
    "sklearn.KNeighborsClassifier": lambda X, y: SkKNN(5).fit(X, y),
}


def _resident_mib():
    with open("/proc/self/status") as status:
        fields = dict(line.split(":", 1) for line in status)
    return {key: int(fields[key].split()[0]) / 1024 for key in ("VmRSS", "VmHWM")}


def _memory_child(name, n, d):
    import ctypes
    import gc
    import json

    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, d))
    y = (X[:, 0] > 0).astype(np.intp)
    gc.collect()
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # resets VmHWM, the peak
    before = _resident_mib()["VmRSS"]
    start = time.perf_counter()
    index = _MEMORY_BUILDS[name](X, y)
    seconds = time.perf_counter() - start
    gc.collect()
    # free memory the C allocator keeps for later is not the index's (glibc)
    ctypes.CDLL(None).malloc_trim(0)
    after = _resident_mib()
    print(
        json.dumps(
            {
                "added": after["VmRSS"] - before,
                "peak": after["VmHWM"] - before,
                "seconds": seconds,
            }
        )
    )
    del index


def index_memory():
    """Resident memory a built index adds beyond the caller's data, and its peak
    during the build, at 2 000 000 x 3 and 1 000 000 x 8 (float64)."""
    import json
    import subprocess

    sizes = [(100_000, 3), (50_000, 8)] if QUICK else [(2_000_000, 3), (1_000_000, 8)]
    peers = [
        name for name in _MEMORY_BUILDS if pykdtree is not None or name != "pykdtree"
    ]

    def measure(name, n, d):
        args = [sys.executable, __file__, f"--memory-child={name}|{n}|{d}"]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    for n, d in sizes:
        measured = {name: measure(name, n, d) for name in peers}
        for ours in ("patrec.BranchBoundTree", "patrec.KNeighborsClassifier"):
            for name in peers:
                if name.startswith("patrec"):
                    continue
                report(
                    "index_memory",
                    {"index": ours.split(".")[1], "n": n, "d": d},
                    measured[ours]["seconds"],  # (the build, once, in its process)
                    name,
                    measured[name]["seconds"],
                    # the ratio of this benchmark is of the memory added, not of time
                    ratio=round(measured[name]["added"] / measured[ours]["added"], 3),
                    added_mib=round(measured[ours]["added"], 1),
                    peak_mib=round(measured[ours]["peak"], 1),
                    reference_added_mib=round(measured[name]["added"], 1),
                    reference_peak_mib=round(measured[name]["peak"], 1),
                    data_mib=round(n * d * 8 / 2**20, 1),
                )


def highdim():
    """Brute force at d = 64 and 784 against scikit-learn-intelex, FAISS, sklearn."""
    for d, n_train in ((64, 50_000), (784, 20_000)):
        n_train = n_train // 5 if QUICK else n_train
        n_queries = 200 if QUICK else 1_000
        for dtype in (np.float32, np.float64):
            rng = np.random.default_rng(d)
            X = rng.normal(size=(n_train, d)).astype(dtype)
            Q = rng.normal(size=(n_queries, d)).astype(dtype)
            index = BruteForce(X)
            for k in (1, 5, 10):
                sk = SkKNN(n_neighbors=k, algorithm="brute").fit(X, np.zeros(n_train))
                calls = {
                    "patrec": lambda: index.query(Q, k=k),
                    "sklearn.brute": lambda: sk.kneighbors(Q),
                }
                if sklearnex_neighbors is not None:
                    intel = sklearnex_neighbors.NearestNeighbors(
                        n_neighbors=k, algorithm="brute"
                    ).fit(X)
                    calls["sklearnex.brute"] = lambda: intel.kneighbors(Q)
                if faiss is not None:  # float32 only: float64 queries are converted
                    flat = faiss.IndexFlatL2(d)  # in the timed call, as a user must
                    flat.add(X.astype(np.float32))
                    calls["faiss.IndexFlatL2"] = lambda: flat.search(
                        Q.astype(np.float32, copy=False), k
                    )
                # single-threaded calls bound by one matrix product, peers level
                # within a few per cent: CPU time, fifteen rounds, and besides the
                # ratio of the medians the median of each round's ratio
                rounds = interleaved_times(calls, 15, time.process_time)
                params = {
                    "d": d,
                    "dtype": np.dtype(dtype).name,
                    "k": k,
                    "n_train": n_train,
                    "n_queries": n_queries,
                }
                for name in calls:
                    if name != "patrec":
                        report(
                            "brute_query",
                            params,
                            np.median(rounds["patrec"]),
                            name,
                            np.median(rounds[name]),
                            round_ratio=round(
                                float(np.median(rounds[name] / rounds["patrec"])), 3
                            ),
                        )


def auto():
    """``algorithm="auto"`` against the better of tree and brute force.

    Two uses: a classifier (index built once, then 5 000 separate queries; the
    choice cannot know how many queries will come) and editing (every training
    point searched once, so the construction counts; up to 30 000 points).  Each
    time includes building the index; auto's includes its choice.  Every call is
    single-threaded, so CPU time is measured: a shared machine disturbs it far less
    than wall time.
    """
    sizes = _option("n", int) or ([10_000] if QUICK else [10_000, 30_000, 100_000])
    cases = [("uniform", d) for d in (2, 4, 8, 12, 16, 24, 32)]
    cases += [("clustered", d) for d in (4, 8, 16, 32, 64)]
    cases += [("digits8", 8), ("swissroll3", 3), ("swissroll8", 8)]
    kinds, dims = _option("kinds"), _option("dims", int)
    cases = [
        (kind, d)
        for kind, d in cases
        if (not kinds or kind in kinds) and (not dims or d in dims)
    ]
    for kind, d in cases:
        for n in sizes:
            rng = np.random.default_rng(n + d)
            data = make_data(kind, n + 5_000, d, rng)
            X, separate = data[:n], data[n:]
            uses = [("classifier", separate, None)]
            if n <= 30_000:  # (editing by brute force grows as n^2)
                uses.append(("editing", X, n))
            for use, Q, n_queries in uses:
                chosen = {}

                def run(algorithm, Q=Q, n_queries=n_queries):
                    index, chosen[algorithm] = build_index(
                        X, algorithm=algorithm, n_queries=n_queries, k=5
                    )
                    index.query(Q, k=5)

                times = interleaved(
                    {
                        "auto": lambda: run("auto"),
                        "bnb": lambda: run("bnb"),
                        "brute": lambda: run("brute"),
                    },
                    repeats=5 if n <= 10_000 else 3,
                    clock=time.process_time,
                )
                better = min(("bnb", "brute"), key=times.get)
                report(
                    "knn_auto_choice",
                    {
                        "data": kind,
                        "d": d,
                        "n": n,
                        "k": 5,
                        "use": use,
                        "n_queries": len(Q),
                    },
                    times["auto"],
                    f"better: {better}",
                    times[better],
                    auto_choice=chosen["auto"],
                    bnb_s=round(times["bnb"], 4),
                    brute_s=round(times["brute"], 4),
                )


def calibrate():
    """Measure the constants of the cost model of ``auto`` (neighbors/search/_auto.py).

    Brute force: nanoseconds per (query, sample) pair, fitted as ``a + b d`` over
    d = 2 .. 256, with and without the GEMM filter.  Tree: nanoseconds per sample
    to build, and per query ``c + e (a + b d)`` with ``e`` the distance
    evaluations counted, fitted over uniform and clustered data, d = 2 .. 16.
    Prints the fitted constants (stderr) and one JSON line each.
    """
    rng = np.random.default_rng(0)
    n_train, n_queries = (5_000, 500) if QUICK else (20_000, 2_000)
    rows = {"gemm": [], "direct": []}
    for d in (2, 4, 8, 16, 64, 256):
        X, Q = rng.normal(size=(n_train, d)), rng.normal(size=(n_queries, d))
        for name, metric in (("gemm", "euclidean"), ("direct", "manhattan")):
            index = BruteForce(X, metric=metric)
            seconds = interleaved({"q": lambda: index.query(Q, k=5)})["q"]
            rows[name].append((d, 1e9 * seconds / (n_train * n_queries)))
    for name, points in rows.items():
        d, ns = np.array(points).T
        slope, intercept = np.polyfit(d, ns, 1)
        print(
            f"# brute {name}: {intercept:.2f} + {slope:.3f} d ns per pair",
            file=sys.stderr,
        )
        report(
            f"calibrate_brute_{name}",
            {"per_pair_ns": [round(v, 2) for v in ns]},
            1.0,
            "fit",
            1.0,
            intercept=round(intercept, 3),
            slope=round(slope, 4),
        )
    build_ns, samples = [], []
    n_tree = 20_000 if QUICK else 100_000
    for kind in ("uniform", "clustered"):
        for d in (2, 4, 8, 16):
            X = make_data(kind, n_tree + 2_000, d, rng)
            X, Q = X[:n_tree], X[n_tree:]
            start = time.perf_counter()
            tree = BranchBoundTree(X, random_state=0)
            build_ns.append(1e9 * (time.perf_counter() - start) / n_tree)
            *_, counts = tree.query(Q, k=5, return_counts=True)
            seconds = interleaved({"q": lambda: tree.query(Q, k=5)})["q"]
            samples.append((d, float(counts.mean()), 1e9 * seconds / len(Q)))
    d, evaluations, ns = np.array(samples).T
    # ns per query = c + e a + e d b: non-negative least squares
    design = np.column_stack([np.ones_like(d), evaluations, evaluations * d])
    (per_query, per_eval, per_eval_feature), _ = nnls(design, ns)
    print(
        f"# tree: build {np.median(build_ns):.0f} ns per sample; query "
        f"{per_query:.0f} + e ({per_eval:.2f} + {per_eval_feature:.3f} d) ns",
        file=sys.stderr,
    )
    report(
        "calibrate_tree",
        {"n": n_tree},
        1.0,
        "fit",
        1.0,
        build_ns_per_sample=round(float(np.median(build_ns))),
        query_ns=round(float(per_query)),
        evaluation_ns=round(float(per_eval), 3),
        evaluation_ns_per_feature=round(float(per_eval_feature), 4),
    )


def _busy_seconds():
    """CPU seconds used so far by every process (Linux's /proc/stat), else None."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(value) for value in stat.readline().split()[1:8]]
    except OSError:
        return None
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid):
    """CPU seconds used so far by process ``pid`` (Linux's /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def interleaved_beside_others(calls, repeats, helpers=()):
    """`interleaved`, and the share of the cores that other processes used meanwhile
    (None without /proc/stat): a second thread can gain only what they leave.  The
    processes ``helpers`` (pids) work for the calls: their CPU is not the others'."""
    busy, own, start = _busy_seconds(), os.times(), time.perf_counter()
    helped = [_cpu_seconds(pid) for pid in helpers] if busy is not None else []
    times = interleaved(calls, repeats)
    wall, after = time.perf_counter() - start, os.times()
    if busy is None:
        return times, None
    own_cpu = after.user - own.user + after.system - own.system
    own_cpu += sum(_cpu_seconds(pid) for pid in helpers) - sum(helped)
    others = (_busy_seconds() - busy - own_cpu) / (wall * (os.cpu_count() or 1))
    return times, round(max(others, 0.0), 2)


class _TwoProcesses:
    """Two processes (this script again, with ``--query-child``) that each build the
    same index of ``X`` and, when `query` is called, run the one-thread query of
    ``Q`` at the same time (a context manager).

    What two cores give the same work done twice with no coordination at all: set
    beside ``n_jobs=2`` in the same rounds, it tells what the machine allowed at
    that moment.  It is no strict bound for threads: each process holds its own
    index, so where the index fills much of the shared cache, two processes gain
    less than two threads that share one.
    """

    def __init__(self, index, X, Q):
        import subprocess
        import tempfile

        self._folder = tempfile.TemporaryDirectory()
        path = os.path.join(self._folder.name, "data.npz")
        np.savez(path, X=X, Q=Q)
        args = [sys.executable, __file__, f"--query-child={index}|{path}"]
        self._children = [
            subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            for _ in range(2)
        ]
        for child in self._children:
            self._expect(child, "ready")

    @staticmethod
    def _expect(child, word):
        line = child.stdout.readline().strip()
        if line != word:
            raise RuntimeError(f"a query process said {line!r}, not {word!r}")

    @property
    def pids(self):
        return [child.pid for child in self._children]

    def query(self, k):
        """Both processes query at once; returns when both are done."""
        for child in self._children:
            child.stdin.write(f"{k}\n")
            child.stdin.flush()
        for child in self._children:
            self._expect(child, "done")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for child in self._children:
            child.stdin.close()
            child.wait()
        self._folder.cleanup()


def _query_child(index, path):
    """`_TwoProcesses`' side: build the index, then one query per line of stdin."""
    arrays = np.load(path)
    X, Q = arrays["X"], arrays["Q"]
    built = BranchBoundTree(X, random_state=0) if index == "tree" else BruteForce(X)
    print("ready", flush=True)
    for line in sys.stdin:
        built.query(Q, k=int(line), n_jobs=1)
        print("done", flush=True)


def threads():
    """``n_jobs=2`` against ``n_jobs=1`` (the reference is patrec itself).

    The tree at k = 5; brute force in float64 and float32, at d = 8 for k = 1, 5 and
    10, at d = 64 for k = 5.  Wall-clock medians of fifteen interleaved rounds (with
    five, the tree's cell read 1.52 to 1.89 from one run to the next); each line also
    gives the load average of the moment and ``others_cpu``, the share of the cores
    that other processes used while it was timed: the gain of a second thread shows
    only on an otherwise idle machine (Linux shares the cores between sessions, not threads;
    next to one busy process the ratio falls to about 1.3 for the tree and brute
    force alike).  ``two_processes``: in the same rounds, two processes running the
    one-thread query at once (`_TwoProcesses`) did that many times the work of one
    in the same time.
    """
    rng = np.random.default_rng(0)
    n_train = 20_000 if QUICK else 100_000
    for kind, d in (("uniform", 8), ("clustered", 16)):
        X, Q = make_data(kind, n_train, d, rng), make_data(kind, 20_000, d, rng)
        tree = BranchBoundTree(X, random_state=0)
        with _TwoProcesses("tree", X, Q) as pair:
            params = {"data": kind, "d": d, "k": 5, "n_jobs": 2}
            _time_threads("bnb_tree_n_jobs", params, tree, Q, pair)
    for d in (8, 64):
        for dtype in ("float64", "float32"):
            X = rng.normal(size=(n_train, d)).astype(dtype)
            Q = rng.normal(size=(5_000, d)).astype(dtype)
            brute = BruteForce(X)
            with _TwoProcesses("brute", X, Q) as pair:
                for k in (1, 5, 10) if d == 8 else (5,):
                    params = {"d": d, "dtype": dtype, "k": k, "n_jobs": 2}
                    params.update(n_train=n_train, n_queries=len(Q))
                    _time_threads("brute_n_jobs", params, brute, Q, pair)


def _time_threads(benchmark, params, index, Q, pair):
    """Time ``index.query(Q)`` with n_jobs=2 and n_jobs=1, and the same one-thread
    query in the processes ``pair`` (`_TwoProcesses` of the same data), in
    interleaved rounds; report them as one line."""
    k = params["k"]
    times, others = interleaved_beside_others(
        {
            "two": lambda: index.query(Q, k=k, n_jobs=2),
            "one": lambda: index.query(Q, k=k, n_jobs=1),
            "processes": lambda: pair.query(k),
        },
        repeats=15,
        helpers=pair.pids,
    )
    report(
        benchmark,
        params,
        times["two"],
        "patrec n_jobs=1",
        times["one"],
        two_processes=round(2 * times["one"] / times["processes"], 3),
        load_average=round(os.getloadavg()[0], 2),
        others_cpu=others,
    )


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
            times = interleaved(
                {
                    "patrec": lambda: index.query(Q, k=k),
                    "sklearn.brute": lambda: sk.kneighbors(Q, k),
                    "gemm_only": lambda: _blocked_gemm(Q, X),
                }
            )
            params = {"d": d, "k": k, "n_train": n_train, "n_queries": n_queries}
            report(
                "brute_query_lowdim",
                params,
                times["patrec"],
                "sklearn.brute",
                times["sklearn.brute"],
            )
            report(
                "brute_query_lowdim_vs_gemm",
                params,
                times["patrec"],
                "gemm_only",
                times["gemm_only"],
            )


def _blocked_gemm(Q, X, block_queries=128, block_train=1024):
    """The dgemm calls of `BruteForce` at low dimension, and nothing else."""
    out = np.empty((block_queries, block_train), order="F")
    for q0 in range(0, len(Q), block_queries):
        queries = Q[q0 : q0 + block_queries]
        for t0 in range(0, len(X), block_train):
            train = X[t0 : t0 + block_train]
            if len(queries) == block_queries and len(train) == block_train:
                dgemm(1.0, queries, train, trans_b=True, c=out, overwrite_c=True)
            else:
                dgemm(1.0, queries, train, trans_b=True)


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
    n_train, n_queries = (20_000, 20_000) if QUICK else (100_000, 1_000_000)
    X = rng.uniform(size=(n_train, 4))
    y = (X[:, 0] > 0.5).astype(int)
    Q = rng.uniform(size=(n_queries, 4))
    ours = KNeighborsClassifier(5).fit(X, y)
    theirs = SkKNN(n_neighbors=5).fit(X, y)
    ours_s, ours_mb = _peak_memory(lambda: ours.predict(Q))
    theirs_s, theirs_mb = _peak_memory(lambda: theirs.predict(Q))
    report(
        "knn_predict_memory",
        {
            "d": 4,
            "k": 5,
            "n_train": n_train,
            "n_queries": n_queries,
            "algorithm": ours.fit_algorithm_,
        },
        ours_s,
        "sklearn.KNeighborsClassifier",
        theirs_s,
        peak_extra_mb=round(ours_mb, 1),
        reference_peak_extra_mb=round(theirs_mb, 1),
    )


SECTIONS = {
    "table": table,
    "build": build,
    "highdim": highdim,
    "auto": auto,
    "threads": threads,
    "brute_lowdim": brute_lowdim,
    "memory": memory,
    "index_memory": index_memory,
    "calibrate": calibrate,
    "grid": grid,
    "kinds": kinds,
}

if __name__ == "__main__":
    child = _option("memory-child")
    if child:
        name, n, d = child[0].split("|")
        _memory_child(name, int(n), int(d))
        sys.exit()
    child = _option("query-child")
    if child:
        _query_child(*child[0].split("|"))
        sys.exit()
    chosen = [name for name in sys.argv[1:] if not name.startswith("--")] or [
        name for name in SECTIONS if name not in ("grid", "kinds")
    ]
    for name in chosen:
        SECTIONS[name]()

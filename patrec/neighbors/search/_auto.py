"""Which index to use: the cost model and the probe behind ``algorithm="auto"``.

`choose_algorithm` and `build_index` are the one place where the search method is
chosen: the k-NN classifier and the editing functions both ask here.
"""

import numpy as np

from ..._validation import check_option
from ._distances import KINDS
from .brute import BruteForce
from .metrics import Metric, as_metric, canonical_metric
from .tree import BranchBoundTree

__all__ = [
    "ALGORITHMS",
    "resolve_algorithm",
    "choose_algorithm",
    "search_costs",
    "tree_evaluations",
    "probe_evaluations",
    "build_index",
]


# The cost model of ``algorithm="auto"``, in nanoseconds, single-threaded, fitted by
# benchmarks/bench_neighbors.py (section "calibrate") and scaled to the times of its
# section "auto" (how: the performance page, "measurements behind the code"):
#   brute force, per (query, sample) pair: 1.5 + 0.032 d with the GEMM filter
#       (the euclidean family), 3 + 0.35 d computing every distance directly;
#   tree (the default k-d partition): building, 750 per sample; searching, per
#       distance evaluation, 11 + 0.45 d for the euclidean family (its own search:
#       cell bounds in O(1), whole leaves) and 4 + 1.5 d for the other metrics
#       (box distances in O(d) and rules 1 and 2 at the leaves, each counted),
#       times 1 + 0.15 log2(n / 100 000) above 100 000 samples, where the tree
#       outgrows the caches while brute force keeps its cost per pair.
# The evaluations per query depend on the data far more than on n and d (a tree
# prunes tight clusters in 64 dimensions but hardly anything of uniform data in 16),
# so when the data are at hand they are measured (`probe_evaluations`); without
# them, `tree_evaluations` predicts them for Gaussian-like data.
_BRUTE_GEMM_PAIR = (1.5, 0.032)
_BRUTE_DIRECT_PAIR = (3.0, 0.35)
_TREE_BUILD_SAMPLE = 750.0
_TREE_EUCLIDEAN_EVALUATION = (11.0, 0.45)
_TREE_EVALUATION = (4.0, 1.5)
_TREE_CACHE_SIZE = 100_000
_TREE_CACHE_GROWTH = 0.15
# The probe: trees over two nested random subsets of these sizes (or all samples
# when fewer; above 65 536 samples, n / 64 and n / 16 of them, at most 16 384 and
# 65 536, so that the extrapolation to n stays short), searched from this many
# samples, in batches; a batch making `_PROBE_HOPELESS` times the subset's size in
# evaluations (more than brute force would) ends the probe.  The tree is taken without a
# probe when the model predicts it `_CLEAR_WIN` times cheaper than brute force for
# Gaussian-like data: clusters or a low intrinsic dimension only make it cheaper
# still.
_PROBE_SIZES = (1024, 4096)
_PROBE_LARGEST = 65536
_PROBE_QUERIES = 32
_PROBE_BATCH = 8
_PROBE_HOPELESS = 1.0
_PROBE_MIN_SAMPLES = 512  # below this, both searches are cheap: the model decides
_CLEAR_WIN = 4.0
# Up to this many samples the probe searches the tree over all of them instead:
# the count needs no extrapolation (which overestimates up to 3x for uniform data
# in 12 dimensions at 100 000 samples: the share of samples a search visits falls
# ever faster with n), and `build_index` keeps the tree when it is chosen.  Where
# the model favours brute force, only up to 16 384 samples, and after a first look
# at a tree over 1 024 of them: if that prunes (almost) nothing, brute force is
# taken at once (a whole tree built and then dropped costs brute force more than the
# subsets' bias towards it).
_PROBE_WHOLE_MAX = 262144
_PROBE_WHOLE_UNLIKELY_MAX = 16384  # ... where the model favours brute force
_FIRST_LOOK_HOPELESS = 0.9


def tree_evaluations(n_samples, n_features):
    """The distance evaluations a tree search is expected to make per query, on
    Gaussian-like data (the model without a look at the data)."""
    # fitted to the k-d tree on Gaussian data, n = 2 048 .. 32 768, d = 2 .. 24
    share = 1.0 - np.exp(-0.008 * n_features**2)
    growth = min(1.0, 0.05 + 0.075 * max(0, n_features - 4))
    return min(float(n_samples), 2048 * share * (n_samples / 2048) ** growth)


def probe_evaluations(
    X,
    k=1,
    metric="euclidean",
    p=2,
    metric_params=None,
    self_queries=False,
    **tree_params,
):
    """The distance evaluations per query of a tree search on ``X``, measured.

    Builds `BranchBoundTree` over a random subset of the samples (1 024, then 4 096
    of them, nested; above 65 536 samples n / 64 and n / 16 of them, at most
    16 384 and 65 536), searches it from 32 samples for their ``k`` nearest
    neighbours and counts the evaluations: samples held out of both subsets, or,
    with ``self_queries`` (editing searches the training set itself), samples of
    the subset.  With all samples probed the count is the answer; otherwise the two
    counts give the growth exponent ``b`` of the evaluations with the number of
    samples, and the count is extrapolated from the larger subset, of ``m``
    samples, as ``e(n) = e(m) (n / m)^b`` (``0 <= b <= 1``, at most n).  Should a
    batch of 8 searches make more evaluations than the subset has samples (means
    and boxes count too), the tree prunes nothing and ``n`` is returned at once.
    The subsets follow the data's own distribution, so clusters, a low intrinsic
    dimension or spread-out noise show in the counts as they will in the full tree.
    Cost: two small trees and at most 64 searches; deterministic (seeded).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> line = np.outer(rng.uniform(size=20_000), np.ones(16))  # 1-D data in 16-D
    >>> cloud = rng.uniform(size=(20_000, 16))
    >>> bool(probe_evaluations(line) < 0.01 * 20_000 < probe_evaluations(cloud))
    True
    """
    metric = as_metric(metric, p, metric_params, X.shape[1])
    n_samples = X.shape[0]
    queries, rest = _probe_rows(X, self_queries, _probe_order(n_samples))
    sizes = sorted({min(size, rest.shape[0]) for size in _probe_sizes(n_samples)})
    counts = []
    for size in sizes:
        tree = _subset_tree(X, rest[:size], metric, tree_params)
        count = _count_evaluations(tree, queries, min(k, size))
        if count is None:
            return float(n_samples)
        counts.append(count)
    if sizes[-1] == rest.shape[0]:
        return counts[-1]
    growth = np.log(counts[1] / counts[0]) / np.log(sizes[1] / sizes[0])
    growth = min(max(float(growth), 0.0), 1.0)
    return min(float(n_samples), counts[1] * (n_samples / sizes[1]) ** growth)


def _probe_sizes(n_samples):
    """The sizes of the probe's two subsets: 1 024 and 4 096, and for larger data
    sets n / 64 and n / 16 (at most 16 384 and 65 536): a tree that prunes nothing
    among a thousand samples in 12 dimensions skips 98% of a million."""
    largest = min(_PROBE_LARGEST, max(_PROBE_SIZES[1], n_samples // 16))
    return largest * _PROBE_SIZES[0] // _PROBE_SIZES[1], largest


def _probe_order(n_samples):
    """The seeded random order in which the probe takes the samples (in 32-bit
    integers where they suffice: half the memory, the same order)."""
    dtype = np.int32 if n_samples <= np.iinfo(np.int32).max else np.intp
    return np.random.default_rng(0).permutation(np.arange(n_samples, dtype=dtype))


def _probe_rows(X, self_queries, order):
    """The probe's 32 query rows of ``X`` and the order (`_probe_order`) in which
    the subsets take the samples: held out of the queries unless ``self_queries``."""
    n_queries = min(_PROBE_QUERIES, X.shape[0] // 2)
    return X[order[:n_queries]], order if self_queries else order[n_queries:]


def _tree(X, metric, tree_params):
    """The tree `build_index` builds (and the probe measures), for `Metric`
    ``metric``."""
    return BranchBoundTree(X, metric, random_state=0, **tree_params)


def _subset_tree(X, rows, metric, tree_params):
    return _tree(X[np.sort(rows)], metric, tree_params)


def _prunes_nothing(X, order, k, metric, self_queries, tree_params):
    """The probe's first look: does a tree over 1 024 of the samples prune (almost)
    nothing for one batch of queries?"""
    queries, rest = _probe_rows(X, self_queries, order)
    tree = _subset_tree(X, rest[: _PROBE_SIZES[0]], metric, tree_params)
    return (
        _count_evaluations(
            tree,
            queries[:_PROBE_BATCH],
            min(k, tree.n_samples),
            hopeless=_FIRST_LOOK_HOPELESS,
        )
        is None
    )


def _count_evaluations(tree, queries, k, hopeless=_PROBE_HOPELESS):
    """Mean distance evaluations of ``tree``'s searches from ``queries`` (in
    batches), or None as soon as a batch makes ``hopeless`` times as many as the
    tree has samples: then it prunes nothing."""
    total = 0
    for start in range(0, queries.shape[0], _PROBE_BATCH):
        *_, evaluations = tree.query(
            queries[start : start + _PROBE_BATCH],
            k=k,
            return_distance=False,
            return_counts=True,
        )
        total += int(evaluations.sum())
        if evaluations.mean() >= hopeless * tree.n_samples:
            return None
    return max(total / queries.shape[0], 1.0)


def _probe_whole_tree(X, order, k, metric, self_queries, tree_params):
    """The tree over all of ``X`` and its evaluations per query, counted from 32
    of its own samples (`probe_evaluations` for small data sets).

    A training sample finds itself first, at distance 0; a separate query from the
    same distribution is about as near to its k nearest as a sample is to its
    ``k + 1`` nearest, itself included, so separate queries are imitated by
    searching one neighbour more.  Returns ``(tree, evaluations)``.
    """
    n_samples = X.shape[0]
    tree = _tree(X, metric, tree_params)
    queries, _ = _probe_rows(X, True, order)
    k = k if self_queries else min(k + 1, n_samples)
    count = _count_evaluations(tree, queries, k)
    return tree, float(n_samples) if count is None else count


def search_costs(
    n_samples, n_features, metric, p=2, n_queries=None, build=True, evaluations=None
):
    """Predicted time (ns) of brute force and of a tree for ``n_queries`` searches
    (default: as many as training samples); ``build=False`` leaves out building
    the tree (a tree built once and searched many times).  ``evaluations``: the
    tree's distance evaluations per query when measured (`probe_evaluations`),
    else `tree_evaluations` predicts them."""
    n_queries = n_samples if n_queries is None else n_queries
    if isinstance(metric, Metric):  # (its kind: the squared euclidean family)
        gemm = metric.kind == KINDS["sqeuclidean"]
    else:
        metric = canonical_metric(metric)
        gemm = metric in ("euclidean", "sqeuclidean", "mahalanobis") or (
            metric == "minkowski" and p == 2
        )
    fixed, per_feature = _BRUTE_GEMM_PAIR if gemm else _BRUTE_DIRECT_PAIR
    brute = n_queries * n_samples * (fixed + per_feature * n_features)
    if evaluations is None:
        evaluations = tree_evaluations(n_samples, n_features)
    fixed, per_feature = _TREE_EUCLIDEAN_EVALUATION if gemm else _TREE_EVALUATION
    cache = 1 + _TREE_CACHE_GROWTH * np.log2(max(1.0, n_samples / _TREE_CACHE_SIZE))
    tree = n_queries * evaluations * (fixed + per_feature * n_features) * cache
    if build:
        tree += n_samples * _TREE_BUILD_SAMPLE
    return brute, tree


def choose_algorithm(
    n_samples,
    n_features,
    metric,
    p=2,
    n_queries=None,
    *,
    X=None,
    k=1,
    metric_params=None,
    **tree_params,
):
    """The search method ``algorithm="auto"`` picks: ``"brute"`` or ``"bnb"``.

    The cheaper by the measured cost model above: brute force costs a fixed time
    per (query, training sample) pair, fast on GEMM for the euclidean family; the
    branch-and-bound tree costs its construction plus, per query, the distance
    evaluations its rules do not prune.  Those depend on the data: they are
    predicted from n and d for Gaussian-like data and, given the samples ``X``
    (and the ``k`` to be asked for), measured by a small probe
    (``probe_evaluations``) unless the prediction already makes the tree four
    times cheaper; up to 262 144 samples (16 384 where the prediction favours
    brute force, and unless a tree over 1 024 of them prunes nothing) the probe
    searches the tree over all of them instead, which `build_index` then keeps if
    it is chosen.  With ``n_queries`` known (editing searches every sample once)
    the construction counts; without it (a classifier's ``fit``) the index is
    expected to serve many queries and only the cost per query counts.  So the
    tree is picked wherever the data let it prune — low dimension, clusters, a low
    intrinsic dimension — and brute force for spread-out data in many dimensions.

    Examples
    --------
    >>> import numpy as np
    >>> choose_algorithm(100_000, 2, "euclidean")
    'bnb'
    >>> choose_algorithm(20_000, 16, "euclidean", n_queries=20_000)
    'brute'
    >>> choose_algorithm(100, 2, "euclidean")
    'brute'
    >>> rng = np.random.default_rng(0)  # 20 tight clusters in 16 dimensions
    >>> X = rng.normal(size=(20, 16))[rng.integers(0, 20, 20_000)]
    >>> X += rng.normal(scale=0.01, size=X.shape)
    >>> choose_algorithm(20_000, 16, "euclidean", X=X, k=5)
    'bnb'
    """
    if X is not None:
        metric = as_metric(metric, p, metric_params, n_features)
    return _choose(n_samples, n_features, metric, p, n_queries, X, k, tree_params)[0]


def _choose(n_samples, n_features, metric, p, n_queries, X, k, tree_params):
    """`choose_algorithm`'s answer and, when it measured the tree over all of
    ``X`` (up to `_PROBE_WHOLE_MAX` samples) and chose it, that tree (else None).
    ``metric``: a `Metric` when ``X`` is given, else its name and ``p``."""
    build = n_queries is not None
    brute, tree = search_costs(n_samples, n_features, metric, p, n_queries, build)
    if X is None or n_samples < _PROBE_MIN_SAMPLES or tree * _CLEAR_WIN < brute:
        return ("bnb" if tree < brute else "brute"), None
    # queries as many as the samples: editing, which searches the samples themselves
    self_queries = n_queries == n_samples
    probe_params = {
        key: value for key, value in tree_params.items() if key != "verbose"
    }
    built = None
    if n_samples > _PROBE_WHOLE_MAX or (
        tree >= brute and n_samples > _PROBE_WHOLE_UNLIKELY_MAX
    ):
        evaluations = probe_evaluations(
            X, k, metric, self_queries=self_queries, **probe_params
        )
    else:
        order = _probe_order(n_samples)  # (the first look and the probe share it)
        if tree >= brute and _prunes_nothing(
            X, order, k, metric, self_queries, probe_params
        ):
            return "brute", None
        built, evaluations = _probe_whole_tree(
            X, order, k, metric, self_queries, tree_params
        )
    # (a tree already built is paid for: only its searches count now)
    brute, tree = search_costs(
        n_samples,
        n_features,
        metric,
        p,
        n_queries=n_queries,
        build=build and built is None,
        evaluations=evaluations,
    )
    return ("bnb", built) if tree < brute else ("brute", None)


#: patrec's searches, then scikit-learn's names for the tree's two partitions
ALGORITHMS = ("auto", "brute", "bnb", "kd_tree", "ball_tree")

_PARTITIONS = {"kd_tree": "kd", "ball_tree": "kmeans"}


def resolve_algorithm(algorithm):
    """``(search, tree_params)`` for an ``algorithm`` of `ALGORITHMS`: the search
    ("auto", "brute", "bnb") and the tree's partition, if the name chose one.
    scikit-learn's ``"kd_tree"`` is the tree's k-d partition, ``"ball_tree"`` its
    k-means partition (each node a ball: its mean and radius).  Every search is
    exact, so the answers do not depend on the choice."""
    check_option(algorithm, "algorithm", ALGORITHMS)
    if algorithm in _PARTITIONS:
        return "bnb", {"partition": _PARTITIONS[algorithm]}
    return algorithm, {}


def build_index(
    X,
    metric="euclidean",
    p=2,
    metric_params=None,
    algorithm="auto",
    n_queries=None,
    k=1,
    **tree_params,
):
    """The exact search index over ``X`` that an estimator of the chapter uses.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The training samples, validated (`patrec` estimators pass theirs).
    metric : str or Metric, default="euclidean"
        A `Metric` already resolved (then ``p`` and ``metric_params`` are its own),
        or its name: resolved once here, and every index built shares it.
    p : float, default=2
        Minkowski order, with ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` with ``metric="mahalanobis"``.
    algorithm : {"auto", "brute", "bnb", "kd_tree", "ball_tree"}, default="auto"
        ``"auto"`` chooses as `choose_algorithm` does, expecting ``n_queries``
        searches for ``k`` neighbours; ``"kd_tree"`` and ``"ball_tree"`` are the
        tree's k-d and k-means partitions.
    n_queries : int, default=None
        The searches expected (None: many, so building the tree is not counted).
    k : int, default=1
        The neighbours each search will ask for.
    **tree_params
        ``leaf_size``, ``partition``, ``verbose``: passed to `BranchBoundTree`.

    Returns
    -------
    index : BruteForce or BranchBoundTree
    algorithm : str
        ``"brute"`` or ``"bnb"``: the search built.

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.neighbors.search import build_index
    >>> X = np.random.default_rng(0).normal(size=(10_000, 2))
    >>> index, algorithm = build_index(X, algorithm="ball_tree")
    >>> algorithm, index.partition
    ('bnb', 'kmeans')
    """
    metric = as_metric(metric, p, metric_params, X.shape[1])
    algorithm, partition = resolve_algorithm(algorithm)
    tree_params = {**partition, **tree_params}
    if algorithm == "auto":
        algorithm, tree = _choose(
            X.shape[0], X.shape[1], metric, metric.p, n_queries, X, k, tree_params
        )
        if tree is not None:
            return tree, algorithm
    if algorithm == "bnb":
        return _tree(X, metric, tree_params), algorithm
    return BruteForce(X, metric), algorithm

"""What is particular to the branch-and-bound tree: its structure, the pruning it
achieves, the radius search and its parameters."""

import pickle

import numpy as np
import pytest

from patrec.neighbors import BranchBoundTree, BruteForce
from patrec.neighbors.search._bnb_tree import FIELDS, NODE_FIELDS, make_search_tree
from patrec.neighbors.search.tree import node_geometry


def clustered(rng, n, n_features, n_clusters=20):
    centers = rng.uniform(-50, 50, size=(n_clusters, n_features))
    return centers[rng.integers(0, n_clusters, n)] + rng.normal(size=(n, n_features))


@pytest.mark.parametrize("partition", ["kd", "kmeans"])
def test_structure_invariants(partition):
    rng = np.random.default_rng(0)
    X = clustered(rng, 5000, 3)
    tree = BranchBoundTree(X, partition=partition, leaf_size=16, random_state=0)
    branching = 2 if partition == "kd" else 4
    assert tree.branching == branching
    assert sorted(tree._tree.order) == list(range(5000))
    np.testing.assert_array_equal(tree._data, X[tree._tree.order])
    leaves = tree._tree.node_nchild == 0
    assert tree.n_leaves == leaves.sum()
    assert ((tree._tree.node_end - tree._tree.node_start)[leaves] >= 1).all()
    for node in np.flatnonzero(~leaves):
        first, count = tree._tree.node_child[node], tree._tree.node_nchild[node]
        assert 2 <= count <= branching
        if partition == "kd":  # cut at the median (see _assert_median_cut)
            lo, hi = tree._tree.node_start[node], tree._tree.node_end[node]
            _assert_median_cut(
                tree._data[lo:hi, tree._tree.kd_nodes[node, 1]],
                tree._tree.node_end[first] - lo,
                partition,
            )
        assert tree._tree.node_start[first] == tree._tree.node_start[node]
        assert tree._tree.node_end[first + count - 1] == tree._tree.node_end[node]
    for node in range(tree.n_nodes):
        lo, hi = tree._tree.node_start[node], tree._tree.node_end[node]
        np.testing.assert_allclose(
            node_geometry(tree).centers[node], X[tree._tree.order[lo:hi]].mean(0)
        )
        radius = np.linalg.norm(
            X[tree._tree.order[lo:hi]] - node_geometry(tree).centers[node], axis=1
        )
        np.testing.assert_allclose(
            node_geometry(tree).radius[node], radius.max(), rtol=1e-12
        )
        if partition == "kd":  # the bounding box of the node's samples
            np.testing.assert_array_equal(
                node_geometry(tree).low[node], X[tree._tree.order[lo:hi]].min(0)
            )
            np.testing.assert_array_equal(
                node_geometry(tree).high[node], X[tree._tree.order[lo:hi]].max(0)
            )
        if leaves[node]:
            assert hi - lo <= 16
            to_center = node_geometry(tree).to_center[lo:hi]
            if partition == "kd":  # the euclidean k-d search scans whole leaves
                np.testing.assert_allclose(to_center, radius, rtol=1e-12)
            else:  # rule 2 needs each leaf sorted by its distance to the mean
                assert (np.diff(to_center) >= 0).all()
                np.testing.assert_allclose(to_center, np.sort(radius), rtol=1e-12)


def _orders(rng, n, dtype):
    """Data in orders and with ties that a selection's pivot choice could trip on."""
    base = rng.normal(size=(n, 3))
    ties = rng.integers(0, 4, size=(n, 3)).astype(float)
    ties[:, 2] = 7.0  # a constant feature
    return {
        "random": base,
        "sorted": base[np.argsort(base[:, 0])],
        "reversed": base[np.argsort(-base[:, 1])],
        "organ pipe": np.concatenate([np.sort(base[::2], 0), -np.sort(base[1::2], 0)]),
        "few values": ties,
        "one outlier": np.vstack([np.zeros((n - 1, 3)), [[0.0, 0.0, 1e-3]]]),
    }


def _assert_median_cut(values, lower, name):
    """A node's values in its cut feature, the first ``lower`` of them the lower
    part's: cut at the median v, every value equal to v on the side nearer halves
    unless that leaves a part under a quarter (then exactly halves)."""
    m = len(values)
    v = np.sort(values)[m // 2]
    assert values[:lower].max() <= values[lower:].min(), name
    smallest = max(1, m // 4)
    below, at_most = int(np.sum(values < v)), int(np.sum(values <= v))
    sides = [size for size in (below, at_most) if min(size, m - size) >= smallest]
    if sides:  # the parts do not meet
        assert lower == min(sides, key=lambda size: abs(size - m // 2)), name
        assert values[:lower].max() < values[lower:].min(), name
    else:
        assert lower == m // 2, name


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [700, 5000])
def test_kd_cuts_hold_each_halfs_interval(n, dtype):
    # what the euclidean k-d search reads instead of boxes: each cut's feature, the
    # exact interval of each half in it, the interval of the node's cell in it
    # (kd_spans: its cell is the root's box narrowed by every cut above it), and the
    # box of all samples
    for name, X in _orders(np.random.default_rng(n), n, dtype).items():
        X = X.astype(dtype)
        tree = BranchBoundTree(X, leaf_size=8)
        t = tree._tree
        assert t.centers is None and t.radius is None and t.to_center is None, name
        np.testing.assert_array_equal(t.low[0], X.min(0))
        np.testing.assert_array_equal(t.high[0], X.max(0))
        rows = X[t.order]
        np.testing.assert_array_equal(rows, t.data)
        cell = {0: np.stack([X.min(0), X.max(0)], axis=1)}
        for node in np.flatnonzero(t.node_nchild > 0):
            child, dim, start, end = t.kd_nodes[node]
            np.testing.assert_array_equal(t.kd_spans[node], cell[node][dim])
            for c in (child, child + 1):
                cell[c] = cell[node].copy()
                cell[c][dim] = t.kd_cuts[c]
            assert dim >= 0 and (child, start, end) == (
                t.node_child[node],
                t.node_start[node],
                t.node_end[node],
            )
            middle = t.node_start[child + 1]
            _assert_median_cut(rows[start:end, dim], middle - start, name)
            for c, (lo, hi) in ((child, (start, middle)), (child + 1, (middle, end))):
                values = rows[lo:hi, dim]
                np.testing.assert_array_equal(
                    t.kd_cuts[c], [values.min(), values.max()]
                )
        assert (t.kd_nodes[t.node_nchild == 0, 1] == -1).all()
        Q = np.vstack([X[:50], X[:50] + 0.25]).astype(dtype)
        brute = BruteForce(X).query(Q, k=5)
        for ours, theirs in zip(tree.query(Q, k=5), brute):
            np.testing.assert_array_equal(ours, theirs, err_msg=name)


def test_counts_show_the_pruning():
    rng = np.random.default_rng(1)
    X, Q = clustered(rng, 20000, 2), clustered(rng, 200, 2)
    tree = BranchBoundTree(X, random_state=0)
    distances, indices, counts = tree.query(Q, k=1, return_counts=True)
    assert counts.shape == (200,) and counts.dtype == np.intp
    assert (counts >= 1).all()
    assert counts.mean() < 0.02 * len(X)  # far fewer than brute force's 20000
    indices_only, counts_only = tree.query(
        Q, k=1, return_distance=False, return_counts=True
    )
    np.testing.assert_array_equal(indices_only, indices)
    np.testing.assert_array_equal(counts_only, counts)


def test_answers_do_not_depend_on_the_tree_shape():
    rng = np.random.default_rng(2)
    X, Q = clustered(rng, 3000, 4), clustered(rng, 400, 4)  # 400: Z-order path
    expected = BruteForce(X).query(Q, k=6)
    for branching, leaf_size, seed in [
        (2, 1, 0),
        (3, 5, 1),
        (8, 32, 2),
        (64, 200, 3),
        (None, 1, None),
        (None, 7, None),
        (None, 5000, None),
    ]:
        partition = "kd" if seed is None else "kmeans"
        tree = BranchBoundTree(
            X,
            partition=partition,
            branching=branching,
            leaf_size=leaf_size,
            random_state=seed,
        )
        distances, indices = tree.query(Q, k=6)
        np.testing.assert_array_equal(indices, expected[1])
        np.testing.assert_array_equal(distances, expected[0])


@pytest.mark.parametrize("partition", ["kd", "kmeans"])
def test_identical_samples_and_tiny_sets(partition):
    X = np.ones((100, 3))
    tree = BranchBoundTree(X, partition=partition, leaf_size=4, random_state=0)
    assert tree.n_nodes == 1  # nothing to split
    distances, indices = tree.query([[1, 1, 1], [0, 1, 1]], k=3)
    np.testing.assert_array_equal(indices, [[0, 1, 2], [0, 1, 2]])
    np.testing.assert_array_equal(distances, [[0, 0, 0], [1, 1, 1]])
    single = BranchBoundTree([[2.0, 3.0]], partition=partition)
    np.testing.assert_array_equal(single.query([[2.0, 4.0]])[0], [[1.0]])


def test_query_radius_float_data_and_no_rows():
    rng = np.random.default_rng(4)
    X, Q = rng.normal(size=(2000, 3)).astype(np.float32), rng.normal(size=(20, 3))
    tree = BranchBoundTree(X, random_state=0)
    indices = tree.query_radius(Q, 0.5)
    brute_d, brute_i = BruteForce(X).query(Q, k=2000)
    for row in range(20):
        np.testing.assert_array_equal(indices[row], brute_i[row][brute_d[row] <= 0.5])
    assert tree.query_radius(np.empty((0, 3)), 1.0).shape == (0,)
    with pytest.raises(ValueError, match="r must be"):
        tree.query_radius(Q, -1.0)


def test_bad_parameters():
    X = np.zeros((10, 2))
    with pytest.raises(ValueError, match="branching"):
        BranchBoundTree(X, branching=1)
    with pytest.raises(ValueError, match="branching"):
        BranchBoundTree(X, branching=65)
    with pytest.raises(ValueError, match="leaf_size"):
        BranchBoundTree(X, leaf_size=0)
    with pytest.raises(ValueError, match="metric"):
        BranchBoundTree(X, metric="cosine")
    with pytest.raises(ValueError, match="p must be >= 1"):
        BranchBoundTree(X, metric="minkowski", p=0.5)
    with pytest.raises(ValueError, match="positive definite"):
        BranchBoundTree(X, metric="mahalanobis", metric_params={"VI": -np.eye(2)})
    with pytest.raises(ValueError, match="VI"):
        BranchBoundTree(X, metric="mahalanobis")


def _datasets(rng):
    """Training sets that stress the search: name -> array."""
    grid = rng.integers(-3, 4, size=(600, 3)).astype(float)  # many exact ties
    duplicated = np.repeat(rng.normal(size=(40, 4)), 15, axis=0)
    extreme = rng.uniform(-1, 1, size=(500, 3)) * np.array([1e150, 1e-150, 1.0])
    return {
        "uniform": rng.uniform(size=(700, 3)),
        "clustered": clustered(rng, 800, 5),
        "duplicates": duplicated[rng.permutation(len(duplicated))],
        "grid": grid,
        "one-feature": rng.normal(size=(300, 1)),
        "tiny": rng.normal(size=(9, 2)),
        "extreme": extreme,
    }


PARTITION_SETTINGS = [
    {"partition": "kd"},
    {"partition": "kd", "leaf_size": 2},
    {"partition": "kmeans", "random_state": 0},
    {"partition": "kmeans", "branching": 2, "leaf_size": 3, "random_state": 1},
]
SEARCH_METRICS = [
    ("euclidean", {}),
    ("cityblock", {}),
    ("chebyshev", {}),
    ("minkowski", {"p": 3}),
    ("mahalanobis", "VI"),
]


@pytest.mark.parametrize(
    "settings", PARTITION_SETTINGS, ids=["kd", "kd-small", "kmeans", "kmeans-small"]
)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "metric, params", SEARCH_METRICS, ids=[m for m, _ in SEARCH_METRICS]
)
def test_every_partition_returns_brute_force_answers(settings, dtype, metric, params):
    """Distances and indices equal brute force's, ties to the lower index, on data
    with ties, duplicates, one feature, fewer samples than a leaf and extreme
    magnitudes; queries apart from the training set and equal to it; k up to n."""
    rng = np.random.default_rng(11)
    for name, X in _datasets(rng).items():
        if dtype == np.float32 and name == "extreme":
            X = X * np.array([1e-135, 1e135, 1.0])  # within float32's range
        X = X.astype(dtype)
        if params == "VI":
            A = rng.normal(size=(X.shape[1], X.shape[1]))
            params_here = {
                "metric_params": {"VI": A @ A.T + X.shape[1] * np.eye(X.shape[1])}
            }
            if name == "extreme":
                continue  # the map mixes 1e150 into every feature: overflow
        else:
            params_here = params
        brute = BruteForce(X, metric=metric, **params_here)
        tree = BranchBoundTree(X, metric=metric, **settings, **params_here)
        queries = np.vstack(
            [
                X[rng.integers(0, len(X), 50)]
                + rng.normal(scale=0.01, size=(50, X.shape[1])).astype(dtype)
                * np.ptp(X, axis=0),
                X[:30],
            ]
        ).astype(dtype)
        n = len(X)
        for k in sorted({1, 5, min(n, 17), n}):
            if k > n:
                continue
            for Q, label in ((queries, "queries"), (X, "self")):
                expected = brute.query(Q, k=k)
                got = tree.query(Q, k=k)
                np.testing.assert_array_equal(
                    got[1], expected[1], err_msg=f"{name} {label} k={k}"
                )
                np.testing.assert_array_equal(
                    got[0], expected[0], err_msg=f"{name} {label} k={k}"
                )
        np.testing.assert_array_equal(tree.query_others(1)[1], brute.query_others(1)[1])


def test_partition_parameters_are_checked():
    X = np.random.default_rng(0).normal(size=(100, 2))
    with pytest.raises(ValueError, match="partition"):
        BranchBoundTree(X, partition="ball")
    with pytest.raises(ValueError, match="branching=4: the k-d partition"):
        BranchBoundTree(X, partition="kd", branching=4)
    assert BranchBoundTree(X, partition="kd", branching=2).branching == 2
    assert BranchBoundTree(X).leaf_size == 32
    assert BranchBoundTree(X, partition="kmeans").leaf_size == 64
    # random_state shapes the k-means tree, and never the k-d tree
    a, b = (
        BranchBoundTree(X, partition="kmeans", leaf_size=4, random_state=s)
        for s in (0, 1)
    )
    assert not np.array_equal(a._tree.order, b._tree.order)
    a, b = (BranchBoundTree(X, leaf_size=4, random_state=s) for s in (0, 1))
    np.testing.assert_array_equal(a._tree.order, b._tree.order)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_features", [1, 2, 3, 4, 8, 12])
def test_euclidean_kd_search_equals_brute_force_bit_for_bit(dtype, n_features):
    """The euclidean search of the k-d partition (cell bounds updated on the way
    down, whole leaves scanned) returns brute force's distances and indices, on
    uniform, clustered, duplicated and offset data, k = 1, 5, 10 (the k best in a
    sorted list) and 129 (in a heap), separate queries and self-queries, leaves of 1
    to 40 samples; its counts are explain's."""
    rng = np.random.default_rng(n_features)
    U = rng.uniform(size=(1500, n_features))
    datasets = {
        "uniform": U,
        "clustered": clustered(rng, 1500, n_features),
        "duplicates": np.round(U * 3) / 3,
        "offset": 1e4 + U,
    }
    for name, X in datasets.items():
        X = X.astype(dtype)
        brute = BruteForce(X)
        queries = np.vstack(
            [
                X.min(axis=0)
                + (X.max(axis=0) - X.min(axis=0))
                * rng.uniform(-0.1, 1.1, size=(80, n_features)),
                X[:20],
            ]
        ).astype(dtype)
        for leaf_size in (1, 7, 40):
            tree = BranchBoundTree(X, leaf_size=leaf_size)
            for k in (1, 5, 10, 129):
                for Q in (queries, X):
                    expected = brute.query(Q, k=k)
                    got = tree.query(Q, k=k)
                    np.testing.assert_array_equal(got[1], expected[1], err_msg=name)
                    np.testing.assert_array_equal(got[0], expected[0], err_msg=name)
            x = queries[0]
            steps = tree.explain(x, k=5)
            counts = tree.query(x[None], k=5, return_counts=True)[2]
            assert len(steps.distance_evaluations) == counts[0]
            np.testing.assert_array_equal(
                steps.indices, brute.query(x[None], k=5)[1][0]
            )


@pytest.mark.parametrize("n_features", [1, 2, 3, 6])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_locality_order_is_a_permutation_that_groups_near_queries(n_features, dtype):
    from patrec.neighbors.search._bnb_tree import locality_order

    X = np.random.default_rng(n_features).uniform(size=(3000, n_features)).astype(dtype)
    order = locality_order(X, X.min(axis=0), X.max(axis=0))
    assert order.dtype == np.intp and sorted(order) == list(range(len(X)))
    step = np.abs(np.diff(X[order, :3], axis=0)).sum(axis=1).mean()
    assert step < 0.25 * np.abs(np.diff(X[:, :3], axis=0)).sum(axis=1).mean()
    big = np.finfo(dtype).max
    wide = np.array([[-big] * n_features, [big] * n_features], dtype=dtype)
    # a box too wide to scale: the order is kept
    assert list(locality_order(wide, wide[0], wide[1])) == [0, 1]


def _leaf_of(tree, x):
    """The first tree position of the k-d leaf that ``x`` goes down to."""
    compiled, node = tree._tree, 0
    while compiled.node_nchild[node]:
        right = compiled.node_child[node] + 1
        node = right - int(x[compiled.kd_nodes[node, 1]] < compiled.kd_cuts[right, 0])
    return compiled.node_start[node]


@pytest.mark.parametrize("n_features", [1, 2, 5, 16])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_leaf_order_sorts_queries_by_the_leaf_that_holds_them(n_features, dtype):
    from patrec.neighbors.search._bnb_tree import leaf_order

    rng = np.random.default_rng(n_features)
    X = rng.normal(size=(3000, n_features)).astype(dtype)
    Q = rng.normal(size=(1001, n_features)).astype(dtype) * 1.5  # some outside
    tree = BranchBoundTree(X, leaf_size=8)
    # the tree's own samples, in the tree's order, are in leaf order already
    assert list(leaf_order(tree._tree, tree._data)) == list(range(len(X)))
    order = leaf_order(tree._tree, Q)
    assert order.dtype == np.intp and sorted(order) == list(range(len(Q)))
    leaf = np.array([_leaf_of(tree, q) for q in Q])
    assert (np.diff(leaf[order]) >= 0).all()
    same = np.diff(leaf[order]) == 0  # (equal leaves keep the callers' order)
    assert (np.diff(order)[same] > 0).all()
    with pytest.raises(ValueError, match="k-d tree"):
        leaf_order(BranchBoundTree(X, partition="kmeans", random_state=0)._tree, Q)
    with pytest.raises(ValueError, match="number of features"):
        leaf_order(tree._tree, np.zeros((3, n_features + 1), dtype=dtype))


def test_the_lean_tree_keeps_its_node_arrays_once():
    # the euclidean k-d tree's search reads kd_nodes alone: the node arrays are
    # views of it, also after pickling
    rng = np.random.default_rng(5)
    X, Q = rng.normal(size=(2000, 3)), rng.normal(size=(40, 3))
    tree = BranchBoundTree(X, leaf_size=8)
    for compiled in (tree._tree, pickle.loads(pickle.dumps(tree))._tree):
        for name, column in [("node_child", 0), ("node_start", 2), ("node_end", 3)]:
            array = getattr(compiled, name)
            assert np.shares_memory(array, compiled.kd_nodes)
            np.testing.assert_array_equal(array, compiled.kd_nodes[:, column])
        inner = compiled.kd_nodes[:, 1] >= 0
        np.testing.assert_array_equal(compiled.node_nchild, np.where(inner, 2, 0))
        assert compiled.node_nchild.dtype == np.intp
    clone = pickle.loads(pickle.dumps(tree))
    for a, b in zip(tree.query(Q, k=6), clone.query(Q, k=6)):
        np.testing.assert_array_equal(a, b)
    # any other tree keeps arrays of its own, and cannot be made without them
    other = BranchBoundTree(X, metric="cityblock", leaf_size=8)._tree
    assert not np.shares_memory(other.node_start, other.kd_nodes)
    fields = {name: getattr(other, name) for name in FIELDS}
    with pytest.raises(ValueError, match="no node arrays"):
        make_search_tree({**fields, **dict.fromkeys(NODE_FIELDS)})


@pytest.mark.parametrize("partition", ["kd", "kmeans"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_features", [3, 6])
def test_queries_searched_in_locality_order_answer_in_the_callers_order(
    partition, dtype, n_features
):
    # from 256 queries on, the search visits them in Morton order (up to three
    # features, and in a k-means tree) or leaf by leaf (a k-d tree in more) and
    # writes each answer to its caller's row; one query at a time never reorders
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(2000, n_features)).astype(dtype)
    Q = rng.uniform(size=(700, n_features)).astype(dtype)
    tree = BranchBoundTree(X, partition=partition, random_state=0)
    distances, indices, counts = tree.query(Q, k=4, return_counts=True)
    for i in (0, 1, 350, 699):
        d1, i1, c1 = tree.query(Q[i : i + 1], k=4, return_counts=True)
        np.testing.assert_array_equal(distances[i], d1[0])
        np.testing.assert_array_equal(indices[i], i1[0])
        assert counts[i] == c1[0]
    d_brute, i_brute = BruteForce(X).query(Q, k=4)
    np.testing.assert_array_equal(distances, d_brute)
    np.testing.assert_array_equal(indices, i_brute)
    d_two, i_two = tree.query(Q, k=4, n_jobs=2)
    np.testing.assert_array_equal(distances, d_two)
    np.testing.assert_array_equal(indices, i_two)


@pytest.mark.parametrize("n_features", [2, 6])
def test_threads_split_the_batch_in_search_order_and_answer_in_the_callers(
    n_features,
):
    # the whole batch is put in search order once and the threads take ranges of
    # it (sixteen here), each writing its answers and counts to the callers' rows
    rng = np.random.default_rng(5)
    X = rng.uniform(size=(3000, n_features))
    Q = rng.uniform(size=(8192, n_features))
    tree = BranchBoundTree(X, random_state=0)
    one = tree.query(Q, k=3, n_jobs=1, return_counts=True)
    two = tree.query(Q, k=3, n_jobs=2, return_counts=True)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)
    d_brute, i_brute = BruteForce(X).query(Q, k=3, n_jobs=2)
    np.testing.assert_array_equal(two[0], d_brute)
    np.testing.assert_array_equal(two[1], i_brute)

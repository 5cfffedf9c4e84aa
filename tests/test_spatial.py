"""patrec.spatial against scipy.spatial: every method, the same answers.

Each method of `cKDTree` / `KDTree` is compared with SciPy's on random data, on
tie-heavy integer data (many equal distances, and distances exactly equal to the
radius) and on an irrational lattice (distances equal in exact arithmetic, a unit
in the last place apart in floating point: the rounding of cKDTree's own sums
decides), in 1, 3 and 8 dimensions, float32 and float64 input, p = 1, 2, 3 and inf,
with and without a periodic box.  Exact means equal: the same points in every
ball, pair set and count, the same distances bit for bit; the k nearest equal
SciPy's sorted by (distance, index), the order of ties SciPy leaves open.
"""

import itertools
import pickle

import numpy as np
import pytest
import scipy.sparse
import scipy.spatial as ss

from patrec.spatial import KDTree, cKDTree, cKDTreeNode

DIMS = (1, 3, 8)
KINDS = ("random", "integer", "lattice")
PS = (1.0, 2.0, 3.0, np.inf)


def make(kind, n, m, seed, dtype=np.float64, box=None):
    rng = np.random.default_rng(seed)
    if kind == "random":
        X = rng.normal(size=(n, m))
    elif kind == "integer":
        X = rng.integers(0, 4, size=(n, m)).astype(float)
    else:  # an irrational lattice: equal distances that round apart
        X = rng.integers(0, 5, size=(n, m)) * (np.sqrt(2) / 3) + 0.1
    if box is not None:
        X = np.mod(X, box)
        X[X >= box] = 0.0
    return X.astype(dtype)


def radii_of(ref, Q, p):
    """Radii that are distances of SciPy's: boundaries of the balls."""
    d, _ = ref.query(Q, k=min(4, ref.n), p=p)
    d = np.atleast_2d(d)
    return np.unique(np.concatenate([d[:, 1:].ravel(), [0.0, 0.5, 1.0]]))[:12]


def wrapped(Q, box):
    """Query points moved into the box as cKDTree moves them."""
    Q = np.array(Q, dtype=np.float64)
    if box is None:
        return Q
    Q = Q - np.floor(Q / box) * box
    while (Q >= box).any():
        Q[Q >= box] -= box
    while (Q < 0).any():
        Q[Q < 0] += box
    return Q


def scipy_reduced(X, Q, p, box=None):
    """cKDTree's reduced distances between every query and every point, written
    from its C++ source (distance.h) for p = 1, 2 and inf: for p = 2 without a
    box, four partial sums over the groups of four features, added in order, then
    the features left over; otherwise one running sum (or maximum)."""
    u = np.asarray(X, dtype=np.float64)[None, :, :]
    w = u - wrapped(Q, box)[:, None, :]
    if box is not None:
        half = 0.5 * box
        w = np.where(w < -half, box + w, np.where(w > half, w - box, w))
    w = np.abs(w)
    m = w.shape[-1]
    if np.isinf(p):
        return w.max(axis=-1)
    terms = w if p == 1 else w * w
    if p == 2 and box is None and m >= 4:
        acc = np.zeros(terms.shape[:-1] + (4,))
        for start in range(0, m - m % 4, 4):
            acc += terms[..., start : start + 4]
        total = ((acc[..., 0] + acc[..., 1]) + acc[..., 2]) + acc[..., 3]
        tail = range(m - m % 4, m)
    else:
        total = np.zeros(terms.shape[:-1])
        tail = range(m)
    for j in tail:
        total = total + terms[..., j]
    return total


def sorted_knn(ref, Q, k, p, upper=np.inf, box=None):
    """SciPy's k nearest with the ties it leaves open ordered by index: its
    distances to every point (its own arithmetic), sorted by its reduced distance
    (written out for p = 1, 2 and inf; the distance itself for other p), then
    index."""
    d, i = ref.query(Q, k=ref.n, p=p, distance_upper_bound=upper)
    d, i = np.atleast_2d(d), np.atleast_2d(i)
    key = d
    if p in (1.0, 2.0, np.inf):
        reduced = scipy_reduced(ref.data, np.atleast_2d(Q), p, box)
        key = np.where(
            i < ref.n, np.take_along_axis(reduced, np.minimum(i, ref.n - 1), -1), np.inf
        )
    order = np.lexsort((i, key), axis=-1)
    d = np.take_along_axis(d, order, axis=-1)
    i = np.take_along_axis(i, order, axis=-1)
    pad = max(0, k - ref.n)
    d = np.pad(d, ((0, 0), (0, pad)), constant_values=np.inf)[:, :k]
    i = np.pad(i, ((0, 0), (0, pad)), constant_values=ref.n)[:, :k]
    return d, i


def assert_same_neighbours(i, d, ref, Q, k, p, upper=np.inf, box=None):
    """Our k nearest against SciPy's: equal distances and, for p = 1, 2 and inf
    (whose reduced distances the test writes out), equal indices; for other p,
    each distance's indices among those SciPy finds at that distance."""
    want_d, want_i = sorted_knn(ref, Q, max(k, ref.n), p, upper, box)
    i, d = np.atleast_2d(i.T).T, np.atleast_2d(d.T).T
    np.testing.assert_array_equal(d, want_d[:, :k])
    if p in (1.0, 2.0, np.inf):
        np.testing.assert_array_equal(i, want_i[:, :k])
        return
    for row in range(len(i)):
        for value in np.unique(d[row]):
            ours = set(i[row][d[row] == value].tolist())
            theirs = set(want_i[row][want_d[row] == value].tolist())
            assert ours <= theirs, (row, value)


CASES = [
    pytest.param(kind, m, dtype, id=f"{kind}-{m}d-{np.dtype(dtype).name}")
    for kind, m, dtype in itertools.product(KINDS, DIMS, (np.float64, np.float32))
]


@pytest.fixture(scope="module", params=[None, 1.0], ids=["plain", "periodic"])
def box(request):
    return request.param


@pytest.mark.parametrize("kind, m, dtype", CASES)
def test_query_equals_scipy(kind, m, dtype, box):
    X = make(kind, 150, m, 0, dtype, box)
    Q = make(kind, 40, m, 1, dtype, box)
    if box is not None:
        Q[::3] += 1.0  # outside the box: wrapped, as SciPy wraps
    ours, ref = cKDTree(X, leafsize=4, boxsize=box), ss.cKDTree(X, boxsize=box)
    for p in PS:
        for k in (1, 5, 160):
            d, i = ours.query(Q, k=k, p=p)
            assert d.shape == i.shape == ((len(Q),) if k == 1 else (len(Q), k))
            assert_same_neighbours(i, d, ref, Q, k, p, box=box)
            assert i.dtype == np.intp and d.dtype == np.float64
        # an upper bound that is one of the distances: strictly below it only
        upper = float(radii_of(ref, Q[:1], p)[1])
        d, i = ours.query(Q, k=6, p=p, distance_upper_bound=upper)
        assert_same_neighbours(i, d, ref, Q, 6, p, upper, box)


@pytest.mark.parametrize("kind, m, dtype", CASES)
def test_balls_equal_scipy(kind, m, dtype, box):
    X = make(kind, 150, m, 2, dtype, box)
    Q = make(kind, 30, m, 3, dtype, box)
    ours, ref = cKDTree(X, leafsize=3, boxsize=box), ss.cKDTree(X, boxsize=box)
    for p in PS:
        for r in radii_of(ref, Q, p):
            got = ours.query_ball_point(Q, r, p=p)
            want = ref.query_ball_point(Q, r, p=p, return_sorted=True)
            assert [list(g) for g in got] == [list(w) for w in want], (p, r)
            np.testing.assert_array_equal(
                ours.query_ball_point(Q, r, p=p, return_length=True),
                ref.query_ball_point(Q, r, p=p, return_length=True),
            )
        # one radius per point, the boundaries among them
        per_point = np.resize(radii_of(ref, Q, p), len(Q))
        got = ours.query_ball_point(Q, per_point, p=p)
        want = ref.query_ball_point(Q, per_point, p=p, return_sorted=True)
        assert [list(g) for g in got] == [list(w) for w in want]


@pytest.mark.parametrize("kind, m, dtype", CASES)
def test_pairs_and_trees_equal_scipy(kind, m, dtype, box):
    X = make(kind, 120, m, 4, dtype, box)
    Y = make(kind, 90, m, 5, dtype, box)
    ours, ref = cKDTree(X, leafsize=5, boxsize=box), ss.cKDTree(X, boxsize=box)
    other, ref_other = cKDTree(Y, boxsize=box), ss.cKDTree(Y, boxsize=box)
    for p in PS:
        radii = radii_of(ref, Y[:5], p)[:6]
        for r in radii:
            assert ours.query_pairs(r, p=p) == ref.query_pairs(r, p=p)
            array = ours.query_pairs(r, p=p, output_type="ndarray")
            want = ref.query_pairs(r, p=p, output_type="ndarray")
            np.testing.assert_array_equal(array, want[np.lexsort(want.T[::-1])])
            got = ours.query_ball_tree(other, r, p=p)
            assert got == [sorted(w) for w in ref.query_ball_tree(ref_other, r, p=p)]
            outputs = ("dict", "ndarray", "coo_matrix", "dok_matrix")
            for output in outputs if r == radii[2] else outputs[:1]:
                mine = ours.sparse_distance_matrix(other, r, p=p, output_type=output)
                theirs = ref.sparse_distance_matrix(
                    ref_other, r, p=p, output_type=output
                )
                if output == "dict":
                    assert mine == theirs
                elif output == "ndarray":
                    assert mine.dtype == theirs.dtype
                    theirs = np.sort(theirs, order=("i", "j"))
                    np.testing.assert_array_equal(mine, theirs)
                else:
                    assert type(mine) is type(theirs)
                    np.testing.assert_array_equal(mine.toarray(), theirs.toarray())
        # counts: scalar and array radii, both kinds of bins, weights
        for cumulative in (True, False):
            got = ours.count_neighbors(other, radii, p=p, cumulative=cumulative)
            want = ref.count_neighbors(ref_other, radii, p=p, cumulative=cumulative)
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype
        r = float(radii[2])
        got = ours.count_neighbors(other, r, p=p)
        assert got == ref.count_neighbors(ref_other, r, p=p) and type(got) is int
        weights = (np.arange(ours.n) % 3 + 1.0, np.arange(other.n) % 2 + 0.5)
        got = ours.count_neighbors(other, radii, p=p, weights=weights)
        want = ref.count_neighbors(ref_other, radii, p=p, weights=weights)
        np.testing.assert_array_equal(got, want)  # (exact: sums of halves)
        self_weights = np.linspace(0.1, 2.0, ours.n)
        got = ours.count_neighbors(ours, radii, p=p, weights=self_weights)
        want = ref.count_neighbors(ref, radii, p=p, weights=self_weights)
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_the_irrational_lattice_is_decided_by_scipys_rounding():
    """On a lattice of spacing sqrt(2), some neighbours at the spacing come out a
    unit in the last place beyond it: SciPy leaves them out of the ball of radius
    sqrt(2), and so does patrec (its own kernel rounds those sums otherwise)."""
    spacing = np.sqrt(2)
    grid = np.linspace(0, 3 * spacing, 4)
    points = np.array(list(itertools.product(grid, grid)))
    ours, ref = cKDTree(points), ss.cKDTree(points)
    assert ours.query_pairs(spacing) == ref.query_pairs(spacing)
    assert len(ours.query_pairs(spacing)) == 16  # of the 24 lattice neighbours
    assert len(ours.query_pairs(spacing * 1.01)) == 24


def test_rounding_apart_in_eight_dimensions():
    """Eight features, values far from 0: the sums' order changes their last bits,
    and the k nearest are still SciPy's (the near ties are searched again)."""
    rng = np.random.default_rng(7)
    base = rng.integers(0, 3, size=(400, 8)) * (1 / 3) + 1e3
    Q = base[rng.integers(0, 400, 60)] + rng.integers(-1, 2, size=(60, 8)) * (1 / 7)
    ours, ref = cKDTree(base), ss.cKDTree(base)
    for k in (1, 3, 10):
        d, i = ours.query(Q, k=k)
        assert_same_neighbours(i, d, ref, Q, k, 2.0)
    for r in np.unique(ref.query(Q, k=4)[0])[:10]:
        got = ours.query_ball_point(Q, r, return_length=True)
        np.testing.assert_array_equal(
            got, ref.query_ball_point(Q, r, return_length=True)
        )


# -- shapes and types, as SciPy's ----------------------------------------------------


@pytest.fixture(scope="module")
def cube():
    return np.array(list(itertools.product([0.0, 1.0], repeat=3)))


@pytest.mark.parametrize("tree_type", [cKDTree, KDTree], ids=["cKDTree", "KDTree"])
def test_query_shapes_and_types(cube, tree_type):
    ref_type = ss.cKDTree if tree_type is cKDTree else ss.KDTree
    ours, ref = tree_type(cube), ref_type(cube)
    for x, k in itertools.product(
        ([0.1, 0.2, 0.35], [[0.1, 0.2, 0.35]], np.full((2, 4, 3), [0.1, 0.2, 0.35])),
        (1, 2, [1], [2], [1, 3], 12, np.int64(1)),
    ):
        got, want = ours.query(x, k=k), ref.query(x, k=k)
        for g, w in zip(got, want):
            assert type(g) is type(w), (x, k)
            assert np.shape(g) == np.shape(w), (x, k)
            np.testing.assert_array_equal(g, w)
    d, i = ours.query([0.0, 0.0, 0.1])
    assert (d, i) == (0.1, 0)
    assert isinstance(d, float)
    if tree_type is KDTree:
        assert type(i) is np.intp
    else:
        assert type(i) is int


def test_k_beyond_n_is_padded(cube):
    d, i = cKDTree(cube).query(np.zeros((2, 4, 3)), k=cube.shape[0] + 5)
    assert d.shape == i.shape == (2, 4, 13)
    assert np.isinf(d[..., -5:]).all() and (i[..., -5:] == 8).all()


def test_ball_point_shapes_and_types(cube):
    ours, ref = cKDTree(cube), ss.cKDTree(cube)
    single = ours.query_ball_point([1, 1, 1], 1.0)
    assert single == sorted(ref.query_ball_point([1, 1, 1], 1.0))
    assert type(single) is list
    length = ours.query_ball_point([1, 1, 1], 1.0, return_length=True)
    assert type(length) is type(
        ref.query_ball_point([1, 1, 1], 1.0, return_length=True)
    )
    many = ours.query_ball_point(np.zeros((2, 3, 3)), [[0.5], [1.0]])
    assert many.shape == (2, 3) and many.dtype == object
    assert many[1, 2] == [0, 1, 2, 4] and many[0, 0] == [0]
    with pytest.raises(ValueError):  # radii that do not broadcast
        ours.query_ball_point(np.zeros((2, 3)), [1.0, 2.0, 3.0])


def test_workers_give_the_same_answers():
    X = make("random", 3000, 3, 8)
    tree = cKDTree(X)
    one = tree.query(X[:900], k=4)
    for workers in (2, -1):
        np.testing.assert_array_equal(
            tree.query(X[:900], k=4, workers=workers)[1], one[1]
        )
        got = tree.query_ball_point(X[:900], 0.1, workers=workers)
        assert list(got) == list(tree.query_ball_point(X[:900], 0.1))
    with pytest.raises(ValueError, match="Invalid number of workers"):
        tree.query(X[:2], workers=0)
    with pytest.raises(TypeError, match="workers="):
        tree.query(X[:2], n_jobs=2)


def test_eps_gets_the_exact_answer():
    X = make("random", 500, 3, 9)
    tree = cKDTree(X)
    exact = tree.query(X[:50], k=5)
    approx = tree.query(X[:50], k=5, eps=0.5)
    np.testing.assert_array_equal(exact[1], approx[1])
    assert tree.query_pairs(0.3, eps=0.2) == tree.query_pairs(0.3)
    with pytest.raises(ValueError, match="eps"):
        tree.query(X[:2], eps=-1)


def test_periodic_queries_are_wrapped():
    X = make("random", 400, 2, 10, box=1.0)
    tree, ref = cKDTree(X, boxsize=1.0), ss.cKDTree(X, boxsize=1.0)
    Q = np.array([[0.01, 0.99], [1.01, -0.02], [3.5, -7.25]])
    for p in PS:
        np.testing.assert_array_equal(
            tree.query(Q, k=3, p=p)[0], ref.query(Q, k=3, p=p)[0]
        )
    zero = cKDTree(X, boxsize=[1.0, 0.0])  # the second dimension not periodic
    ref_zero = ss.cKDTree(X, boxsize=[1.0, 0.0])
    np.testing.assert_array_equal(
        zero.query(Q[:1], k=4)[0], ref_zero.query(Q[:1], k=4)[0]
    )
    with pytest.raises(ValueError, match="greater than the size of the periodic box"):
        cKDTree([[0.5, 1.0]], boxsize=1.0)
    with pytest.raises(ValueError, match="Negative input data"):
        cKDTree([[-0.5, 0.5]], boxsize=1.0)
    with pytest.raises(ValueError, match="boxsize must be finite and >= 0"):
        cKDTree([[0.5, 0.5]], boxsize=-1.0)


# -- attributes, the tree view, pickles ------------------------------------------------


def test_attributes():
    X = make("random", 100, 4, 11)
    t = KDTree(X)
    assert t.data is X  # float64 in C order: not copied, as in SciPy
    assert (t.n, t.m, t.leafsize) == (100, 4, 10) and isinstance(t.n, int)
    assert cKDTree(X).leafsize == 16
    np.testing.assert_array_equal(t.maxes, X.max(axis=0))
    np.testing.assert_array_equal(t.mins, X.min(axis=0))
    assert cKDTree(X, copy_data=True).data is not X
    assert cKDTree(X.astype(np.float32)).data.dtype == np.float64
    assert t.boxsize is None and t.size == len(t._index(2.0)._tree.kd_nodes)
    np.testing.assert_array_equal(np.sort(t.indices), np.arange(100))


def test_the_tree_view():
    X = make("random", 200, 4, 12)
    tree = cKDTree(X, leafsize=8)

    def walk(node, level):
        assert isinstance(node, cKDTreeNode) and node.level == level
        if node.split_dim == -1:
            assert node.lesser is None and node.greater is None
            assert 0 < node.children <= tree.leafsize
            return node.children
        below = node.lesser.data_points[:, node.split_dim]
        above = node.greater.data_points[:, node.split_dim]
        assert below.max() < node.split <= above.min()
        count = walk(node.lesser, level + 1) + walk(node.greater, level + 1)
        assert count == node.children
        return count

    assert walk(tree.tree, 0) == 200
    np.testing.assert_array_equal(np.sort(tree.tree.indices), np.arange(200))
    np.testing.assert_array_equal(X[tree.tree.indices], tree.tree.data_points)
    root = KDTree(X).tree
    assert isinstance(root, KDTree.innernode) and root.children == 200
    assert isinstance(root.less, KDTree.node)


def test_pickles_answer_the_same():
    X = make("random", 300, 3, 13, box=1.0)
    for tree in (cKDTree(X), KDTree(X, boxsize=1.0)):
        tree.query(X[:5], p=1)  # (a tree for p = 1 too)
        copy = pickle.loads(pickle.dumps(tree))
        assert type(copy) is type(tree)
        for p in (1, 2):
            np.testing.assert_array_equal(
                copy.query(X, k=3, p=p)[1], tree.query(X, k=3, p=p)[1]
            )


def test_copy_data_protects_the_tree():
    X = make("random", 500, 3, 14)
    Q = X[:20].copy()
    tree = cKDTree(X, copy_data=True)
    before = tree.query(Q, k=3)
    X[...] = 0
    np.testing.assert_array_equal(tree.query(Q, k=3)[1], before[1])


def test_empty_and_tiny_trees():
    empty = cKDTree(np.empty((0, 3)))
    d, i = empty.query(np.ones((2, 3)), k=2)
    assert np.isinf(d).all() and (i == 0).all() and d.shape == (2, 2)
    assert empty.query_ball_point(np.ones(3), 0.3, return_length=True) == 0
    np.testing.assert_array_equal(empty.count_neighbors(empty, [0, 1]), [0, 0])
    assert empty.sparse_distance_matrix(empty, 0.3).shape == (0, 0)
    assert empty.query_pairs(1.0) == set()
    one = cKDTree([[0.0, 1.0]])
    assert one.query_pairs(0.5) == set()
    assert one.query([0.0, 0.0], k=2)[1].tolist() == [0, 1]


def test_weights_of_the_nodes():
    tree = cKDTree(np.linspace(0, 1, 4).reshape(-1, 1), leafsize=1)
    np.testing.assert_array_equal(
        tree._build_weights(np.ones(4)), [4, 2, 1, 1, 2, 1, 1]
    )
    with pytest.raises(ValueError, match="Number of weights"):
        tree._build_weights(np.ones(3))
    with pytest.raises(ValueError, match="Two different trees"):
        tree.count_neighbors(cKDTree([[0.0]]), 1.0, weights=np.ones(4))


# -- inputs SciPy refuses, refused with its messages -----------------------------------


def test_refused_inputs():
    X = make("random", 20, 2, 15)
    tree = cKDTree(X)
    with pytest.raises(ValueError, match="must be finite"):
        cKDTree([[0.0, np.nan]])
    with pytest.raises(ValueError, match="data must be of shape"):
        cKDTree([0.0, 1.0])
    with pytest.raises(ValueError, match="leafsize must be at least 1"):
        cKDTree(X, leafsize=0)
    with pytest.raises(ValueError, match="must be finite"):
        tree.query([np.nan, 0.0])
    with pytest.raises(ValueError, match="x must consist of vectors of length 2"):
        tree.query([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Only p-norms"):
        tree.query(X, p=0.5)
    with pytest.raises(ValueError, match="k must be an integer"):
        KDTree(X).query(1.0, k=None)
    with pytest.raises(ValueError, match="k must be at least 1"):
        tree.query(X, k=0)
    with pytest.raises(TypeError, match="complex"):
        KDTree(X.astype(complex))
    with pytest.raises(ValueError, match="Invalid output type"):
        tree.query_pairs(0.1, output_type="list")
    with pytest.raises(ValueError, match="Invalid output type"):
        tree.sparse_distance_matrix(tree, 0.1, output_type="csr")
    with pytest.raises(ValueError, match="different dimensionality"):
        tree.count_neighbors(cKDTree(np.zeros((3, 3))), 1.0)
    with pytest.raises(TypeError, match="patrec.spatial"):
        tree.query_ball_tree(ss.cKDTree(X), 1.0)
    with pytest.raises(ValueError, match="NaN"):
        tree.count_neighbors(tree, [np.nan, 0.5])
    with pytest.raises(ValueError, match="negative radius"):
        tree.count_neighbors(tree, [-1.0, 0.5])
    with pytest.raises(ValueError, match="non-decreasing"):
        tree.count_neighbors(tree, [0.1, 0.0], cumulative=False)
    with pytest.raises(ValueError, match="floating point overflow"):
        cKDTree([[0.0], [1e300]]).query_ball_point([0.0], 1.0, p=3)


def test_scipy_answers_sparse_types():
    tree = cKDTree(make("integer", 30, 2, 16))
    assert isinstance(tree.sparse_distance_matrix(tree, 1.0), scipy.sparse.dok_matrix)
    assert isinstance(
        tree.sparse_distance_matrix(tree, 1.0, output_type="coo_matrix"),
        scipy.sparse.coo_matrix,
    )

"""SciPy's cKDTree conventions on both indexes: a script written for ``cKDTree``
behaves the same, fails with a message naming patrec's equivalent, or (the shape of
a 2-D ``query``) is warned of the difference."""

import pickle
import warnings

import numpy as np
import pytest
from scipy.spatial import cKDTree

from patrec.neighbors import BranchBoundTree, BruteForce

INDEXES = [BruteForce, BranchBoundTree]


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(300, 3)), rng.normal(size=(20, 3))


@pytest.mark.parametrize("index", INDEXES)
def test_one_point_is_answered_as_ckdtree_answers_it(index, data):
    X, Q = data
    ours, scipy = index(X), cKDTree(X)
    d, i = ours.query(Q[0])
    d_ref, i_ref = scipy.query(Q[0])
    assert np.ndim(d) == np.ndim(i) == 0
    assert i == i_ref and d == pytest.approx(d_ref, rel=1e-12)
    d, i = ours.query(Q[0], k=4)
    d_ref, i_ref = scipy.query(Q[0], k=4)
    assert d.shape == i.shape == (4,)
    np.testing.assert_array_equal(i, i_ref)
    np.testing.assert_allclose(d, d_ref, rtol=1e-12)
    # a 1-D query must have the index's number of coordinates
    with pytest.raises(ValueError, match="reshape"):
        ours.query(Q[0, :2])


@pytest.mark.parametrize("index", INDEXES)
def test_query_ball_point_equals_ckdtree(index, data):
    X, Q = data
    ours, scipy = index(X), cKDTree(X)
    for r in (0.0, 0.5, 1.0):
        got = ours.query_ball_point(Q, r)
        expected = scipy.query_ball_point(Q, r, return_sorted=True)
        assert got.shape == expected.shape == (len(Q),)
        assert [list(row) for row in got] == [list(row) for row in expected]
        np.testing.assert_array_equal(
            ours.query_ball_point(Q, r, return_length=True),
            scipy.query_ball_point(Q, r, return_length=True),
        )
        assert ours.query_ball_point(Q[0], r) == sorted(scipy.query_ball_point(Q[0], r))
        assert ours.query_ball_point(Q[0], r, return_length=True) == len(
            scipy.query_ball_point(Q[0], r)
        )
    threaded = ours.query_ball_point(Q, 0.5, workers=2, p=2)
    assert threaded.tolist() == ours.query_ball_point(Q, 0.5).tolist()
    with pytest.raises(ValueError, match="metric='minkowski', p=1"):
        ours.query_ball_point(Q, 0.5, p=1)
    with pytest.raises(ValueError, match="exact"):
        ours.query_ball_point(Q, 0.5, eps=0.1)
    with pytest.raises(TypeError, match="return_length must be True or False"):
        ours.query_ball_point(Q, 0.5, return_length=1)


@pytest.mark.parametrize("index", INDEXES)
def test_n_m_and_data(index, data):
    X, _ = data
    ours = index(X)
    assert (ours.n, ours.m) == (300, 3)
    np.testing.assert_array_equal(ours.data, X)
    assert not ours.data.flags.writeable
    X[0] = 99.0  # the caller's array is the caller's
    assert ours.data[0, 0] != 99.0
    copy = pickle.loads(pickle.dumps(ours))
    np.testing.assert_array_equal(copy.data, ours.data)
    with pytest.raises(AttributeError, match="keep your own copy"):
        _ = index(X, metric="mahalanobis", metric_params={"VI": np.eye(3)}).data


@pytest.mark.parametrize("index", INDEXES)
def test_ckdtree_query_options_name_their_equivalents(index, data):
    X, Q = data
    ours = index(X)
    with pytest.raises(TypeError, match="workers: n_jobs="):
        ours.query(Q, k=2, workers=2)
    with pytest.raises(TypeError, match="eps: nothing: patrec's searches are exact"):
        ours.query(Q, eps=0.5)
    with pytest.raises(TypeError, match="distance_upper_bound: query_radius"):
        ours.query(Q, distance_upper_bound=1.0)
    with pytest.raises(TypeError, match="colour: no such parameter"):
        ours.query(Q, colour="red")


def test_leafsize_is_leaf_size(data):
    X, Q = data
    tree = BranchBoundTree(X, leafsize=5)
    assert tree.leaf_size == 5
    np.testing.assert_array_equal(tree.query(Q, k=3)[1], BruteForce(X).query(Q, k=3)[1])
    with pytest.raises(TypeError, match="give one of the two"):
        BranchBoundTree(X, leafsize=5, leaf_size=5)


def _ckdtree_calls():
    return {
        "leafsize": lambda X: BranchBoundTree(X, leafsize=8),
        "n": lambda X: _after(BruteForce(X), lambda index: index.n),
        "m": lambda X: _after(BranchBoundTree(X), lambda index: index.m),
        "query_ball_point": lambda X: _after(
            BruteForce(X), lambda index: index.query_ball_point(X[0], 0.5)
        ),
    }


def _after(index, call):
    call(index)
    return index


@pytest.mark.parametrize("used", sorted(_ckdtree_calls()))
def test_a_ckdtree_user_is_warned_of_the_query_shape_once(used, data):
    """A cKDTree script swapped to patrec keeps running on (n, 1) arrays and
    broadcasts them against (n,) ones: the index warns, once, of the shape."""
    X, Q = data
    index = _ckdtree_calls()[used](X)
    reference = cKDTree(X).query(Q)
    with pytest.warns(UserWarning, match=r"shape \(n_queries, k\).*indices\[:, 0\]"):
        distances, indices = index.query(Q)
    assert indices.shape == (len(Q), 1) and reference[1].shape == (len(Q),)
    np.testing.assert_array_equal(indices[:, 0], reference[1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        index.query(Q)  # said once
        index.query(Q[0])  # one point: cKDTree's shape, nothing to say


@pytest.mark.parametrize("index", [BruteForce, BranchBoundTree])
def test_a_scikit_learn_style_caller_is_not_warned(index, data):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert index(data[0]).query(data[1])[1].shape == (len(data[1]), 1)

"""NearestNeighbors and the neighbour queries of the k-NN classifier, against
scikit-learn's: the same neighbours, distances and graphs (on data without ties,
where scikit-learn's order is defined), and patrec's tie rule on tied data."""

import numpy as np
import pytest
from sklearn import neighbors as sk

from patrec import KNeighborsClassifier, NearestNeighbors

ALGORITHMS = ["auto", "brute", "bnb", "kd_tree", "ball_tree"]


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(200, 3)), rng.normal(size=(30, 3))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("metric", ["minkowski", "cityblock", "chebyshev"])
def test_kneighbors_and_graph_equal_scikit_learn(data, algorithm, metric):
    X, Q = data
    ours = NearestNeighbors(n_neighbors=4, algorithm=algorithm, metric=metric).fit(X)
    theirs = sk.NearestNeighbors(n_neighbors=4, metric=metric).fit(X)
    for queries in (Q, None):
        d, i = ours.kneighbors(queries)
        d_sk, i_sk = theirs.kneighbors(queries)
        np.testing.assert_array_equal(i, i_sk)
        np.testing.assert_allclose(d, d_sk, rtol=1e-12)
        np.testing.assert_array_equal(
            ours.kneighbors(queries, 2, return_distance=False),
            theirs.kneighbors(queries, 2, return_distance=False),
        )
        for mode in ("connectivity", "distance"):
            ours_graph = ours.kneighbors_graph(queries, mode=mode)
            theirs_graph = theirs.kneighbors_graph(queries, mode=mode)
            assert ours_graph.shape == theirs_graph.shape
            np.testing.assert_allclose(
                ours_graph.toarray(), theirs_graph.toarray(), rtol=1e-12
            )


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_radius_neighbors_and_graph_equal_scikit_learn(data, algorithm):
    X, Q = data
    ours = NearestNeighbors(radius=0.8, algorithm=algorithm).fit(X)
    theirs = sk.NearestNeighbors(radius=0.8).fit(X)
    for queries in (Q, None):
        d, i = ours.radius_neighbors(queries)
        d_sk, i_sk = theirs.radius_neighbors(queries, sort_results=True)
        assert len(i) == len(i_sk)
        for row in range(len(i)):
            np.testing.assert_array_equal(i[row], i_sk[row])
            np.testing.assert_allclose(d[row], d_sk[row], rtol=1e-12)
        for mode in ("connectivity", "distance"):
            np.testing.assert_allclose(
                ours.radius_neighbors_graph(queries, mode=mode).toarray(),
                theirs.radius_neighbors_graph(queries, mode=mode).toarray(),
                rtol=1e-12,
            )
        only = ours.radius_neighbors(queries, 0.5, return_distance=False)
        only_sk = theirs.radius_neighbors(queries, 0.5, return_distance=False)
        assert [sorted(r) for r in only] == [sorted(r) for r in only_sk]


def test_ties_go_to_the_lower_index_and_duplicates_stay():
    X = np.array([[0.0], [1.0], [1.0], [2.0], [0.0]])
    nn = NearestNeighbors(n_neighbors=2).fit(X)
    _, indices = nn.kneighbors()
    # sample 0's duplicate (4) and sample 1's (2) are their nearest "others"
    np.testing.assert_array_equal(indices[:, 0], [4, 2, 1, 1, 0])
    distances, found = nn.radius_neighbors(radius=0.0)
    assert [row.tolist() for row in found] == [[4], [2], [1], [], [0]]


def test_the_classifier_answers_kneighbors_of_none_and_its_graph(data):
    X, Q = data
    y = (X[:, 0] > 0).astype(int)
    ours = KNeighborsClassifier(3, algorithm="kd_tree").fit(X, y)
    theirs = sk.KNeighborsClassifier(3).fit(X, y)
    np.testing.assert_array_equal(ours.kneighbors()[1], theirs.kneighbors()[1])
    np.testing.assert_allclose(
        ours.kneighbors_graph(Q, mode="distance").toarray(),
        theirs.kneighbors_graph(Q, mode="distance").toarray(),
        rtol=1e-12,
    )
    assert ours.fit_algorithm_ == "bnb"
    assert KNeighborsClassifier(algorithm="ball_tree").fit(X, y).fit_algorithm_ == "bnb"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda nn: nn.kneighbors(n_neighbors=200), "only 199 other"),
        (lambda nn: nn.kneighbors_graph(mode="weights"), "mode"),
        (lambda nn: nn.radius_neighbors(radius=-1), "radius"),
        (
            lambda nn: nn.radius_neighbors(return_distance=False, sort_results=True),
            "sort",
        ),
        (lambda nn: nn.kneighbors([[0.0, 1.0]]), "features"),
    ],
)
def test_bad_queries_are_refused_by_name(data, call, message):
    nn = NearestNeighbors().fit(data[0])
    with pytest.raises(ValueError, match=message):
        call(nn)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"algorithm": "cover_tree"}, "algorithm"),
        ({"n_neighbors": 0}, "n_neighbors"),
        ({"radius": -0.5}, "radius"),
        ({"leaf_size": 0}, "leaf_size"),
        ({"metric": "hamming"}, "metric"),
    ],
)
def test_bad_parameters_are_refused_by_name(data, params, message):
    with pytest.raises((ValueError, TypeError), match=message):
        NearestNeighbors(**params).fit(data[0])


def test_not_fitted():
    from patrec.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        NearestNeighbors().kneighbors([[0.0]])

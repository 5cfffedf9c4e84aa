"""The multiclass linear machine, Kesler's construction and the sectors example."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris, make_blobs

from patrec import LinearMachine, kesler_construct
from patrec.datasets import make_sectors


def kesler_perceptron(X, y, n_classes, orders, rate=1.0, margin=0.0):
    """One binary perceptron on the multivector features psi(x, r).

    The stacked vector a is corrected along psi(x, y) - psi(x, r*) whenever the
    difference a . (psi(x, y) - psi(x, r*)) <= margin, r* the best wrong class.
    """
    psi = [kesler_construct(X, np.full(len(X), r), n_classes) for r in range(n_classes)]
    a = np.zeros(psi[0].shape[1])
    mistakes = []
    for order in orders:
        made = 0
        for i in order:
            scores = np.array([a @ psi[r][i] for r in range(n_classes)])
            rivals = np.where(np.arange(n_classes) == y[i], -np.inf, scores)
            winner = int(np.argmax(rivals))
            difference = psi[y[i]][i] - psi[winner][i]
            if a @ difference <= margin:
                a = a + rate * difference
                made += 1
        mistakes.append(made)
        if made == 0:
            break
    return a.reshape(n_classes, -1), mistakes


def python_update_all(X, y, n_classes, orders, rate=1.0, margin=0.0, averaged=False):
    """The "all" rule: the truth gains rho x, each offender loses rho x / |E|."""
    Z = np.hstack([X, np.ones((len(X), 1))])
    W = np.zeros((n_classes, Z.shape[1]))
    total, steps = np.zeros_like(W), 0
    for order in orders:
        for i in order:
            scores = W @ Z[i]
            offenders = [
                r
                for r in range(n_classes)
                if r != y[i] and scores[y[i]] - scores[r] <= margin
            ]
            if offenders:
                W[y[i]] += rate * Z[i]
                for r in offenders:
                    W[r] -= rate * Z[i] / len(offenders)
            total += W
            steps += 1
    return total / steps if averaged else W


@pytest.fixture
def iris():
    X, y = load_iris(return_X_y=True)
    return X[::2], y[::2]


@pytest.mark.parametrize("rate, margin", [(1.0, 0.0), (0.5, 1.0)])
def test_winner_rule_is_one_perceptron_on_kesler_features(iris, rate, margin):
    X, y = iris
    orders = [np.arange(len(y))] * 6
    expected, mistakes = kesler_perceptron(X, y, 3, orders, rate, margin)
    clf = LinearMachine(
        learning_rate=rate, margin=margin, shuffle=False, max_epochs=6
    ).fit(X, y)
    np.testing.assert_allclose(clf.coef_, expected[:, :-1], atol=1e-10)
    np.testing.assert_allclose(clf.intercept_, expected[:, -1], atol=1e-10)
    np.testing.assert_array_equal(clf.mistakes_, mistakes)


@pytest.mark.parametrize("averaged", [False, True])
def test_all_rule_matches_plain_python(iris, averaged):
    X, y = iris
    rng = np.random.default_rng(2)
    orders = [rng.permutation(len(y)) for _ in range(5)]
    expected = python_update_all(
        X, y, 3, orders, rate=0.7, margin=0.2, averaged=averaged
    )
    clf = LinearMachine(
        update="all",
        learning_rate=0.7,
        margin=0.2,
        averaged=averaged,
        random_state=2,
        max_epochs=5,
    ).fit(X, y)
    np.testing.assert_allclose(clf.coef_, expected[:, :-1], atol=1e-10)
    np.testing.assert_allclose(clf.intercept_, expected[:, -1], atol=1e-10)


def test_kesler_construct_layout():
    X = np.array([[2.0, 3.0], [4.0, 5.0]])
    psi = kesler_construct(X, [2, 0], 3)
    np.testing.assert_array_equal(
        psi, [[0, 0, 0, 0, 0, 0, 2, 3, 1], [4, 5, 1, 0, 0, 0, 0, 0, 0]]
    )
    W = np.arange(9.0).reshape(3, 3)  # rows (w_r, b_r)
    for r in range(3):
        scores = kesler_construct(X, [r, r], 3) @ W.ravel()
        np.testing.assert_allclose(scores, X @ W[r, :2] + W[r, 2])
    with pytest.raises(ValueError, match="class indices"):
        kesler_construct(X, [0, 3], 3)
    with pytest.raises(ValueError, match="shape"):
        kesler_construct(X, [0], 3)


@pytest.mark.parametrize("update", ["winner", "all"])
@pytest.mark.parametrize("n_classes", [3, 5])
def test_converges_on_separable_sectors(update, n_classes):
    X, y = make_sectors(n_classes, n_samples=400, random_state=0)
    clf = LinearMachine(update=update, max_epochs=1000, random_state=0).fit(X, y)
    assert clf.mistakes_[-1] == 0
    assert clf.score(X, y) == 1.0


def test_sparse_and_dense_give_the_same_machine():
    X, y = make_blobs(120, n_features=6, centers=4, random_state=0)
    X[X < 0] = 0.0  # make the sparse matrix actually sparse
    for update in ("winner", "all"):
        dense = LinearMachine(
            update=update, averaged=True, random_state=1, max_epochs=8
        ).fit(X, y)
        for index_type in (np.int32, np.int64):
            Xs = sp.csr_matrix(X)
            Xs.indices = Xs.indices.astype(index_type)
            Xs.indptr = Xs.indptr.astype(index_type)
            sparse = LinearMachine(
                update=update, averaged=True, random_state=1, max_epochs=8
            ).fit(Xs, y)
            np.testing.assert_allclose(sparse.coef_, dense.coef_, atol=1e-10)
            np.testing.assert_allclose(
                sparse.decision_function(Xs), dense.decision_function(X), atol=1e-8
            )


def test_float32_stays_close_to_float64():
    X, y = make_blobs(600, n_features=10, centers=5, cluster_std=3.0, random_state=0)
    wide = LinearMachine(averaged=True, random_state=0, max_epochs=20).fit(X, y)
    X32 = X.astype(np.float32)
    narrow = LinearMachine(averaged=True, random_state=0, max_epochs=20).fit(X32, y)
    assert narrow.decision_function(X32).dtype == np.float32
    assert abs(narrow.score(X32, y) - wide.score(X, y)) <= 0.01


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"learning_rate": 0}, ValueError, "learning_rate"),
        ({"learning_rate": -0.1}, ValueError, "learning_rate"),
        ({"update": "both"}, ValueError, "update"),
        ({"margin": -1}, ValueError, "margin"),
        ({"max_epochs": 0}, ValueError, "max_epochs"),
    ],
)
def test_bad_parameters(iris, params, error, match):
    X, y = iris
    with pytest.raises(error, match=match):
        LinearMachine(**params).fit(X, y)


def test_deterministic_with_random_state(iris):
    X, y = iris
    a = LinearMachine(random_state=3, max_epochs=5).fit(X, y)
    b = LinearMachine(random_state=3, max_epochs=5).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)

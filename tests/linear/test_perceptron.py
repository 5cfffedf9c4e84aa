"""The binary perceptron against a plain-Python transcription of the algorithm."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_blobs

from patrec import Perceptron


def python_perceptron(X, y, orders, rate=1.0, margin=0.0, averaged=False):
    """Rosenblatt's rule on the augmented vectors, Daume's averaging, stop on 0."""
    Z = np.hstack([X, np.ones((len(X), 1))])
    signs = np.where(y == 1, 1.0, -1.0)
    a = np.zeros(Z.shape[1])
    total = np.zeros_like(a)
    steps = 0
    mistakes = []
    for order in orders:
        made = 0
        for i in order:
            if signs[i] * (a @ Z[i]) <= margin:
                a = a + rate * signs[i] * Z[i]
                made += 1
            total += a
            steps += 1
        mistakes.append(made)
        if made == 0:
            break
    return (total / steps if averaged else a), mistakes


@pytest.fixture
def blobs():
    X, y = make_blobs(80, centers=[[0, 0], [2, 2]], cluster_std=1.0, random_state=3)
    return X, y


@pytest.mark.parametrize("averaged", [False, True])
@pytest.mark.parametrize("rate, margin", [(1.0, 0.0), (0.1, 0.5)])
def test_matches_plain_python(blobs, averaged, rate, margin):
    X, y = blobs
    orders = [np.arange(len(y))] * 7
    expected, mistakes = python_perceptron(X, y, orders, rate, margin, averaged)
    clf = Perceptron(
        learning_rate=rate,
        margin=margin,
        averaged=averaged,
        max_epochs=7,
        shuffle=False,
    ).fit(X, y)
    np.testing.assert_allclose(clf.coef_[0], expected[:-1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(clf.intercept_, expected[-1:], atol=1e-12)
    np.testing.assert_array_equal(clf.mistakes_, mistakes)
    assert clf.n_iter_ == len(mistakes) == 7


def test_stops_after_an_epoch_without_mistakes():
    X = np.array([[0.0, 0.0], [1.0, 0.2], [4.0, 4.0], [5.0, 4.5]])
    y = np.array([0, 0, 1, 1])
    clf = Perceptron(max_epochs=1000, random_state=0).fit(X, y)
    assert clf.mistakes_[-1] == 0 and (clf.mistakes_[:-1] > 0).all()
    assert clf.n_iter_ == len(clf.mistakes_) < 1000
    assert clf.score(X, y) == 1.0
    # with a margin the final weights clear it on every row
    clf = Perceptron(margin=1.0, max_epochs=1000, random_state=0).fit(X, y)
    signs = np.where(y == 1, 1, -1)
    assert (signs * clf.decision_function(X) > 1.0).all()


def test_shuffle_is_deterministic_with_random_state(blobs):
    X, y = blobs
    a = Perceptron(random_state=5, max_epochs=5).fit(X, y)
    b = Perceptron(random_state=5, max_epochs=5).fit(X, y)
    c = Perceptron(random_state=6, max_epochs=5).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)
    rng = np.random.default_rng(5)
    orders = [rng.permutation(len(y)) for _ in range(5)]
    expected, _ = python_perceptron(X, y, orders)
    np.testing.assert_allclose(a.coef_[0], expected[:-1], atol=1e-12)


def test_sparse_float32_and_float64_agree(blobs):
    X, y = blobs
    dense = Perceptron(averaged=True, random_state=0, max_epochs=10).fit(X, y)
    sparse = Perceptron(averaged=True, random_state=0, max_epochs=10).fit(
        sp.csr_matrix(X), y
    )
    np.testing.assert_allclose(sparse.coef_, dense.coef_, atol=1e-12)
    np.testing.assert_array_equal(sparse.predict(sp.csr_matrix(X)), dense.predict(X))
    single = Perceptron(averaged=True, random_state=0, max_epochs=10).fit(
        X.astype(np.float32), y
    )
    np.testing.assert_allclose(single.coef_, dense.coef_, rtol=1e-4, atol=1e-4)
    assert abs(single.score(X.astype(np.float32), y) - dense.score(X, y)) <= 0.01


@pytest.mark.parametrize("shuffle", [False, True])
def test_multiclass_is_one_perceptron_per_class(shuffle):
    X, y = make_blobs(90, centers=3, random_state=1)
    clf = Perceptron(shuffle=shuffle, random_state=0, max_epochs=4).fit(X, y)
    assert clf.coef_.shape == (3, 2)
    mistakes = np.zeros(clf.n_iter_, dtype=int)
    for r in range(3):  # the same visiting orders, so the same weights
        binary = Perceptron(shuffle=shuffle, random_state=0, max_epochs=4).fit(
            X, y == r
        )
        np.testing.assert_allclose(clf.coef_[r], binary.coef_[0], atol=1e-12)
        np.testing.assert_allclose(clf.intercept_[r], binary.intercept_[0])
        mistakes[: binary.n_iter_] += binary.mistakes_
    np.testing.assert_array_equal(clf.mistakes_, mistakes)
    assert clf.decision_function(X).shape == (90, 3)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"learning_rate": 0.0}, ValueError, "learning_rate"),
        ({"learning_rate": -1.0}, ValueError, "learning_rate"),
        ({"margin": -0.5}, ValueError, "margin"),
        ({"max_epochs": 0}, ValueError, "max_epochs"),
        ({"max_epochs": 2.5}, TypeError, "max_epochs"),
        ({"averaged": "yes"}, TypeError, "averaged"),
        ({"shuffle": 1}, TypeError, "shuffle"),
    ],
)
def test_bad_parameters(blobs, params, error, match):
    X, y = blobs
    with pytest.raises(error, match=match):
        Perceptron(**params).fit(X, y)

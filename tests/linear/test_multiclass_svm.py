"""The Crammer-Singer SVM: the course's SGD update, its objective, and LinearSVC."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_digits, load_iris
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from patrec import MulticlassSVM, datasets
from patrec.datasets import make_sectors


def course_sgd(X, y, n_classes, lam, orders, averaged):
    """The update as the course writes it: shrink all, +eta x to the truth,
    -eta x to the loss-augmented winner, eta_t = 1 / (lambda t); the mean of the
    iterates of the last half of the epochs."""
    Z = np.hstack([X, np.ones((len(X), 1))])
    W = np.zeros((n_classes, Z.shape[1]))
    t = 0
    first_averaged = len(orders) // 2
    total, count = np.zeros_like(W), 0
    for epoch, order in enumerate(orders):
        for i in order:
            t += 1
            eta = 1.0 / (lam * t)
            augmented = W @ Z[i] + (np.arange(n_classes) != y[i])
            winner = int(
                np.argmax(np.where(np.arange(n_classes) == y[i], -np.inf, augmented))
            )
            violated = augmented[winner] - W[y[i]] @ Z[i] > 0
            W *= 1.0 - lam * eta
            if violated:
                W[y[i]] += eta * Z[i]
                W[winner] -= eta * Z[i]
            if epoch >= first_averaged:
                total += W
                count += 1
    return total / count if averaged else W


def objective(X, y, W, lam):
    Z = np.hstack([X, np.ones((len(X), 1))])
    scores = Z @ W.T
    margins = (
        scores
        + (np.arange(W.shape[0]) != y[:, None])
        - scores[np.arange(len(y)), y][:, None]
    )
    return margins.max(axis=1).mean() + 0.5 * lam * (W**2).sum()


@pytest.fixture
def iris():
    X, y = load_iris(return_X_y=True)
    return StandardScaler().fit_transform(X)[::3], y[::3]


@pytest.mark.parametrize("averaged", [False, True])
@pytest.mark.parametrize("lam", [0.5, 1e-3])
def test_matches_the_course_update(iris, averaged, lam):
    X, y = iris
    rng = np.random.default_rng(0)
    orders = [rng.permutation(len(y)) for _ in range(4)]
    expected = course_sgd(X, y, 3, lam, orders, averaged)
    clf = MulticlassSVM(alpha=lam, max_epochs=4, averaged=averaged, random_state=0).fit(
        X, y
    )
    W = np.column_stack([clf.coef_, clf.intercept_])
    np.testing.assert_allclose(W, expected, rtol=1e-9, atol=1e-9 / lam)
    assert clf.objective_.shape == (4,)
    assert clf.objective_[-1] == pytest.approx(objective(X, y, expected, lam), rel=1e-9)


def test_objective_decreases_and_sparse_agrees(iris):
    X, y = iris
    clf = MulticlassSVM(alpha=1e-2, max_epochs=30, random_state=0).fit(X, y)
    assert clf.objective_[-1] < clf.objective_[0]
    sparse = MulticlassSVM(alpha=1e-2, max_epochs=30, random_state=0).fit(
        sp.csr_matrix(X), y
    )
    np.testing.assert_allclose(sparse.coef_, clf.coef_, atol=1e-9)
    np.testing.assert_allclose(sparse.objective_, clf.objective_, rtol=1e-10)


def gaussian_mixture(n_classes=10, n_per_class=60, n_features=8, seed=0):
    rng = np.random.default_rng(seed)
    means = rng.normal(scale=2.0, size=(n_classes, n_features))
    X = np.vstack([m + rng.normal(size=(n_per_class, n_features)) for m in means])
    return X, np.repeat(np.arange(n_classes), n_per_class)


def bundled_and_mixture():
    """patrec's bundled datasets, scikit-learn's digits and a 10-class mixture."""
    for load in (
        datasets.load_iris,
        datasets.load_wine,
        datasets.load_breast_cancer,
        load_digits,
    ):
        X, y = load(return_X_y=True)
        yield load.__name__, StandardScaler().fit_transform(X), y
    X, y = gaussian_mixture()
    yield "mixture", X, y


@pytest.mark.parametrize(
    "name, X, y",
    list(bundled_and_mixture()),
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_accuracy_within_a_point_of_liblinear(name, X, y):
    C = 1.0
    reference = LinearSVC(
        multi_class="crammer_singer", C=C, max_iter=20000, random_state=0
    ).fit(X, y)
    clf = MulticlassSVM(alpha=1.0 / (C * len(y)), max_epochs=30, random_state=0).fit(
        X, y
    )
    assert abs(clf.score(X, y) - reference.score(X, y)) <= 0.01


def test_float32_within_a_point_of_float64():
    X, y = gaussian_mixture(seed=1)
    wide = MulticlassSVM(alpha=1e-3, random_state=0).fit(X, y)
    X32 = X.astype(np.float32)
    narrow = MulticlassSVM(alpha=1e-3, random_state=0).fit(X32, y)
    np.testing.assert_allclose(narrow.coef_, wide.coef_, rtol=1e-3, atol=1e-3)
    assert abs(narrow.score(X32, y) - wide.score(X, y)) <= 0.01


def test_separates_the_sectors():
    X, y = make_sectors(3, random_state=0)
    clf = MulticlassSVM(alpha=1e-4, max_epochs=50, random_state=0).fit(X, y)
    assert clf.score(X, y) == 1.0


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"alpha": 0.0}, ValueError, "alpha"),
        ({"alpha": -1.0}, ValueError, "alpha"),
        ({"alpha": "big"}, TypeError, "alpha"),
        ({"max_epochs": 0}, ValueError, "max_epochs"),
        ({"averaged": None}, TypeError, "averaged"),
    ],
)
def test_bad_parameters(iris, params, error, match):
    X, y = iris
    with pytest.raises(error, match=match):
        MulticlassSVM(**params).fit(X, y)


def test_deterministic_with_random_state(iris):
    X, y = iris
    a = MulticlassSVM(random_state=4, max_epochs=3).fit(X, y)
    b = MulticlassSVM(random_state=4, max_epochs=3).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.decision_function(X).shape == (len(y), 3)

"""One-vs-all and all-pairs, and the course's three-sector claim."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from patrec import AllPairs, LinearMachine, MulticlassSVM, OneVsAll, Perceptron
from patrec.datasets import make_sectors


@pytest.fixture
def wine():
    X, y = load_wine(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def test_one_vs_all_fusion_rule(wine):
    X, y = wine
    base = LogisticRegression(C=0.05)
    clf = OneVsAll(base).fit(X, y)
    assert base.get_params() == LogisticRegression(C=0.05).get_params()  # untouched
    assert not hasattr(base, "coef_")
    distances = []
    for r, model in enumerate(clf.estimators_):
        expected = LogisticRegression(C=0.05).fit(X, np.where(y == r, 1, -1))
        np.testing.assert_allclose(model.coef_, expected.coef_)
        w, b = expected.coef_[0], expected.intercept_[0]
        distances.append((X @ w + b) / np.linalg.norm(w))  # signed distance
    distances = np.column_stack(distances)
    np.testing.assert_allclose(clf.decision_function(X), distances)
    np.testing.assert_array_equal(clf.predict(X), np.argmax(distances, axis=1))
    raw = OneVsAll(base, normalize=False).fit(X, y)
    np.testing.assert_allclose(raw.scales_, 1.0)


def test_all_pairs_summed_scores_and_votes(wine):
    X, y = wine
    clf = AllPairs(LinearSVC(C=0.01), normalize=False).fit(X, y)
    assert clf.pairs_.tolist() == [[0, 1], [0, 2], [1, 2]]
    f = {}
    for (a, b), model in zip(clf.pairs_, clf.estimators_):
        rows = (y == a) | (y == b)
        assert model.coef_.shape == (1, X.shape[1])
        expected = LinearSVC(C=0.01).fit(X[rows], np.where(y[rows] == a, 1, -1))
        np.testing.assert_allclose(model.coef_, expected.coef_)
        f[a, b] = expected.decision_function(X)
        f[b, a] = -f[a, b]
    sums = np.column_stack([sum(f[c, r] for r in range(3) if r != c) for c in range(3)])
    np.testing.assert_allclose(clf.decision_function(X), sums)
    votes = np.column_stack(
        [sum((f[c, r] > 0) for r in range(3) if r != c) for c in range(3)]
    )
    voter = AllPairs(LinearSVC(C=0.01), decision="vote", normalize=False).fit(X, y)
    np.testing.assert_array_equal(np.round(voter.decision_function(X)), votes)
    assert (voter.predict(X) == y).mean() > 0.95


def test_all_pairs_normalised_scores_are_distances(wine):
    X, y = wine
    clf = AllPairs(LinearSVC(C=0.01)).fit(X, y)
    raw = AllPairs(LinearSVC(C=0.01), normalize=False).fit(X, y)
    norms = [np.linalg.norm(m.coef_) for m in raw.estimators_]
    np.testing.assert_allclose(clf.scales_, 1.0 / np.array(norms))


def test_two_classes_give_one_column():
    X, y = load_iris(return_X_y=True)
    X, y = X[y > 0], y[y > 0]
    for clf in (OneVsAll(), AllPairs(), AllPairs(decision="vote")):
        scores = clf.fit(X, y).decision_function(X)
        assert scores.shape == (len(y),)
        np.testing.assert_array_equal(clf.predict(X), np.where(scores > 0, 2, 1))


def test_sparse_input_and_sklearn_base():
    X, y = load_iris(return_X_y=True)
    Xs = sp.csr_matrix(X)
    for clf in (OneVsAll(), AllPairs()):
        dense = type(clf)().fit(X, y).decision_function(X)
        np.testing.assert_allclose(clf.fit(Xs, y).decision_function(Xs), dense)
    assert OneVsAll(LinearSVC()).fit(Xs, y).score(Xs, y) > 0.9


def test_bad_base_estimator_and_options():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(TypeError, match="decision_function"):
        OneVsAll("perceptron").fit(X, y)

    class NoCoef(Perceptron):  # scores, but no coef_ to normalise with
        def fit(self, X, y):
            super().fit(X, y)
            del self.coef_
            return self

        def decision_function(self, X):
            return np.zeros(len(X))

    with pytest.raises(TypeError, match="normalize=False"):
        OneVsAll(NoCoef()).fit(X, y)
    OneVsAll(NoCoef(), normalize=False).fit(X, y)
    with pytest.raises(ValueError, match="decision"):
        AllPairs(decision="max").fit(X, y)
    with pytest.raises(TypeError, match="normalize"):
        OneVsAll(normalize="yes").fit(X, y)


def test_three_sectors_claim():
    """Linear machines separate the three sectors; one-vs-all perceptrons cannot.

    The course's claim is about the binary problems: no line splits one sector from
    the other two.  So every sector-vs-rest problem keeps training errors, whether
    the line is a perceptron's (it never finishes an epoch without a mistake) or a
    nearly hard-margin linear SVM's.  The fused argmax of the k scores is itself a
    linear machine and can get lucky on a draw, so its error is asserted above zero
    on average over five draws.
    """
    ova_errors = []
    for seed in range(5):
        X, y = make_sectors(3, random_state=seed)
        assert LinearMachine(random_state=0).fit(X, y).score(X, y) == 1.0
        svm = MulticlassSVM(alpha=1e-4, max_epochs=50, random_state=0).fit(X, y)
        assert svm.score(X, y) == 1.0
        ova = OneVsAll(Perceptron(random_state=0)).fit(X, y)
        ova_errors.append(1.0 - ova.score(X, y))
        for r, model in enumerate(ova.estimators_):
            signs = np.where(y == r, 1, -1)
            assert model.mistakes_.min() > 0
            assert model.score(X, signs) < 1.0
            hard_margin = LinearSVC(C=100.0, max_iter=100_000).fit(X, signs)
            assert hard_margin.score(X, signs) < 1.0
    assert np.mean(ova_errors) > 0.0


def test_three_sectors_figures_of_the_user_guide():
    """The numbers the linear guide gives for one-vs-all on the sectors."""
    for seed in range(10):
        X, y = make_sectors(random_state=seed)
        assert OneVsAll().fit(X, y).score(X, y) == 1.0
        assert LinearMachine(random_state=0).fit(X, y).score(X, y) == 1.0
    X, y = make_sectors(3, n_samples=300, random_state=4)  # plot_three_sectors' data
    ova = OneVsAll(Perceptron(random_state=0)).fit(X, y)
    assert 1.0 - ova.score(X, y) == pytest.approx(0.03)

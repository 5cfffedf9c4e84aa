"""FisherLDA: the course's scatter matrices, agreement with scikit-learn, bad input."""

import numpy as np
import pytest
from scipy import linalg
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from patrec import FisherLDA

DATASETS = {
    "iris": load_iris,
    "wine": load_wine,
    "breast_cancer": load_breast_cancer,
    "digits": load_digits,
}


# FisherLDA estimates the shared covariance with 1/n, whichever the solver.
SVD_COVARIANCE_OVER_N = pytest.mark.needs(
    "scikit-learn>=1.9.1",
    "LinearDiscriminantAnalysis(solver='svd') scales the pooled covariance by 1/n like "
    "its other solvers (before 1.9.1 by 1/(n - n_classes), which changes its "
    "probabilities)",
)


def load(name):
    return DATASETS[name](return_X_y=True)


def course_scatter(X, y):
    """S_w and S_b written out as in the course, one sample at a time."""
    d = X.shape[1]
    m = X.mean(axis=0)
    S_w = np.zeros((d, d))
    S_b = np.zeros((d, d))
    for label in np.unique(y):
        X_k = X[y == label]
        m_k = X_k.mean(axis=0)
        for x in X_k:
            S_w += np.outer(x - m_k, x - m_k)
        S_b += len(X_k) * np.outer(m_k - m, m_k - m)
    return S_w, S_b


def assert_same_subspace(A, B):
    """Columns of A and B agree one by one up to sign and scale (after centring)."""
    A = A - A.mean(axis=0)
    B = B - B.mean(axis=0)
    for j in range(A.shape[1]):
        correlation = np.corrcoef(A[:, j], B[:, j])[0, 1]
        assert abs(correlation) == pytest.approx(1.0, abs=1e-8)


def centre_over_classes(scores):
    """Scores minus their mean over the classes: what every class shares is gone."""
    return scores - scores.mean(axis=1, keepdims=True)


def assert_agrees_with_sklearn(ours, theirs, X):
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-8
    )


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer", "digits"])
@pytest.mark.parametrize(
    "solver", [pytest.param("svd", marks=SVD_COVARIANCE_OVER_N), "eigen"]
)
def test_agrees_with_sklearn(name, solver):
    X, y = load(name)
    # digits has pixels that are always blank: S_w is singular and the eigen solver
    # needs shrinkage, in both libraries
    shrinkage = 0.1 if (name == "digits" and solver == "eigen") else None
    ours = FisherLDA(solver=solver, shrinkage=shrinkage).fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver=solver, shrinkage=shrinkage).fit(X, y)
    assert_agrees_with_sklearn(ours, theirs, X)
    ours_scores, theirs_scores = ours.decision_function(X), theirs.decision_function(X)
    ours_coef, theirs_coef = ours.coef_, theirs.coef_
    if solver == "eigen" and len(ours.classes_) > 2:
        # scikit-learn's eigen solver writes g_k with Sigma^{-1} m_k, patrec with
        # Sigma^{-1} (m_k - c): they differ by a term shared by all classes
        ours_scores, theirs_scores = map(
            centre_over_classes, (ours_scores, theirs_scores)
        )
        ours_coef = ours_coef - ours_coef.mean(axis=0)
        theirs_coef = theirs_coef - theirs_coef.mean(axis=0)
    np.testing.assert_allclose(
        ours_scores, theirs_scores, rtol=1e-7, atol=1e-7 * np.abs(theirs_scores).max()
    )
    if shrinkage is not None:
        # scikit-learn derives S_b from a shrunk total covariance; patrec keeps the
        # course's S_b, so only the classifiers are the same
        return
    np.testing.assert_allclose(
        ours.explained_variance_ratio_, theirs.explained_variance_ratio_, atol=1e-9
    )
    np.testing.assert_allclose(
        ours_coef, theirs_coef, rtol=1e-6, atol=1e-9 * np.abs(theirs_coef).max()
    )
    assert_same_subspace(ours.transform(X), theirs.transform(X))


@pytest.mark.parametrize("shrinkage", [0.0, 0.3, 1.0, "auto"])
def test_shrinkage_agrees_with_sklearn(shrinkage):
    X, y = load("wine")
    ours = FisherLDA(solver="eigen", shrinkage=shrinkage).fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver="eigen", shrinkage=shrinkage).fit(X, y)
    assert_agrees_with_sklearn(ours, theirs, X)
    np.testing.assert_allclose(ours.covariance_, theirs.covariance_, rtol=1e-10)


def test_auto_shrinkage_fits_digits():
    X, y = load("digits")
    ours = FisherLDA(solver="eigen", shrinkage="auto").fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver="eigen", shrinkage="auto").fit(X, y)
    assert_agrees_with_sklearn(ours, theirs, X)


def test_eigenvectors_solve_the_course_eigenproblem():
    X, y = load("wine")
    clf = FisherLDA(solver="eigen").fit(X, y)
    S_w, S_b = course_scatter(X, y)
    W = clf.scalings_[:, :2]
    # S_b w = lambda S_w w, with lambda / sum(lambda) the explained variance ratio
    eigenvalues = np.diag(W.T @ S_b @ W) / np.diag(W.T @ S_w @ W)
    np.testing.assert_allclose(
        S_b @ W, S_w @ W * eigenvalues, rtol=1e-8, atol=1e-8 * np.abs(S_b @ W).max()
    )
    np.testing.assert_allclose(
        eigenvalues / eigenvalues.sum(), clf.explained_variance_ratio_, rtol=1e-10
    )
    # the shared covariance is S_w / n and the directions are whitened by it
    np.testing.assert_allclose(clf.covariance_, S_w / len(X), rtol=1e-10)
    np.testing.assert_allclose(W.T @ clf.covariance_ @ W, np.eye(2), atol=1e-10)


def test_fisher_criterion_is_maximal():
    """No other direction gives a larger ratio w^T S_b w / w^T S_w w."""
    X, y = load("iris")
    S_w, S_b = course_scatter(X, y)
    best = FisherLDA(solver="eigen").fit(X, y).scalings_[:, 0]
    ratio = (best @ S_b @ best) / (best @ S_w @ best)
    rng = np.random.default_rng(0)
    for w in rng.normal(size=(200, X.shape[1])):
        assert (w @ S_b @ w) / (w @ S_w @ w) <= ratio * (1 + 1e-12)


def test_solvers_agree_with_each_other():
    X, y = load("wine")
    svd = FisherLDA(solver="svd").fit(X, y)
    eigen = FisherLDA(solver="eigen").fit(X, y)
    np.testing.assert_array_equal(svd.predict(X), eigen.predict(X))
    np.testing.assert_allclose(svd.predict_proba(X), eigen.predict_proba(X), atol=1e-10)
    assert_same_subspace(svd.transform(X), eigen.transform(X))


@SVD_COVARIANCE_OVER_N
def test_priors_change_the_classifier_like_sklearn_svd():
    X, y = load("iris")
    priors = [0.6, 0.3, 0.1]
    theirs = LinearDiscriminantAnalysis(solver="svd", priors=priors).fit(X, y)
    for solver in ("svd", "eigen"):
        ours = FisherLDA(solver=solver, priors=priors).fit(X, y)
        np.testing.assert_allclose(ours.priors_, priors)
        assert_agrees_with_sklearn(ours, theirs, X)


def test_svd_handles_singular_within_scatter():
    rng = np.random.default_rng(1)
    n, d = 30, 60  # fewer samples than features
    y = np.repeat([0, 1, 2], 10)
    X = rng.normal(size=(n, d)) + 3.0 * y[:, np.newaxis]
    X[:, 5] = 7.0  # a constant feature
    X[:, 6] = X[:, 0] - 2 * X[:, 1]  # a collinear one
    ours = FisherLDA(solver="svd").fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver="svd").fit(X, y)
    assert_agrees_with_sklearn(ours, theirs, X)
    assert ours.score(X, y) == 1.0
    with pytest.raises(ValueError, match=r"singular.*solver='svd'.*shrinkage"):
        FisherLDA(solver="eigen").fit(X, y)
    shrunk = FisherLDA(solver="eigen", shrinkage="auto").fit(X, y)
    assert shrunk.score(X, y) == 1.0


def test_transform_shape_and_n_components():
    X, y = load("wine")
    for solver in ("svd", "eigen"):
        clf = FisherLDA(solver=solver, n_components=1).fit(X, y)
        assert clf.transform(X).shape == (len(X), 1)
        assert clf.n_components_ == 1
        theirs = LinearDiscriminantAnalysis(solver=solver, n_components=1).fit(X, y)
        np.testing.assert_allclose(
            clf.explained_variance_ratio_, theirs.explained_variance_ratio_
        )
        full = FisherLDA(solver=solver).fit(X, y)
        assert full.transform(X).shape == (len(X), 2)
        assert full.fit_transform(X, y).shape == (len(X), 2)
        # n_components changes only transform
        np.testing.assert_array_equal(clf.predict(X), full.predict(X))
        assert list(full.get_feature_names_out()) == ["fisherlda0", "fisherlda1"]
    with pytest.raises(ValueError, match="n_components"):
        FisherLDA(n_components=3).fit(X, y)


def test_binary_decision_function_is_one_dimensional():
    X, y = load("breast_cancer")
    labels = np.array(["benign", "malignant"])[y]
    clf = FisherLDA().fit(X, labels)
    scores = clf.decision_function(X)
    assert scores.shape == (len(X),)
    np.testing.assert_array_equal(
        clf.predict(X), clf.classes_[(scores > 0).astype(int)]
    )
    log_proba = clf.predict_log_proba(X)
    np.testing.assert_allclose(log_proba[:, 1] - log_proba[:, 0], scores, atol=1e-8)


def test_float32_input():
    X, y = load("wine")
    X32 = X.astype(np.float32)
    ours32 = FisherLDA().fit(X32, y)
    ours64 = FisherLDA().fit(X, y)
    assert ours32.transform(X32).dtype == np.float32
    assert np.mean(ours32.predict(X32) == ours64.predict(X)) == 1.0
    np.testing.assert_allclose(
        ours32.predict_proba(X32), ours64.predict_proba(X), atol=1e-4
    )


@pytest.mark.parametrize(
    "params, error, message",
    [
        ({"solver": "lsqr"}, ValueError, "solver"),
        ({"solver": "svd", "shrinkage": 0.5}, ValueError, "shrinkage"),
        ({"solver": "eigen", "shrinkage": 1.5}, ValueError, "shrinkage"),
        ({"solver": "eigen", "shrinkage": "oas"}, ValueError, "shrinkage"),
        ({"solver": None}, ValueError, "solver"),
        ({"shrinkage": -0.1, "solver": "eigen"}, ValueError, "shrinkage"),
        ({"shrinkage": np.nan, "solver": "eigen"}, ValueError, "shrinkage"),
        ({"shrinkage": [0.1], "solver": "eigen"}, TypeError, "shrinkage"),
        ({"shrinkage": True, "solver": "eigen"}, TypeError, "shrinkage"),
        ({"tol": -1.0}, ValueError, "tol"),
        ({"tol": 0.0}, ValueError, r"tol must be in \(0"),
        ({"tol": "small"}, TypeError, "tol"),
        ({"tol": np.inf}, ValueError, "tol"),
        ({"n_components": 0}, ValueError, "n_components"),
        ({"n_components": -1}, ValueError, "n_components"),
        ({"n_components": 3}, ValueError, r"n_components must be in \[1, 2\]"),
        ({"n_components": 1.5}, TypeError, "n_components"),
        ({"n_components": True}, TypeError, "n_components"),
        ({"n_components": "2"}, TypeError, "n_components"),
    ],
)
def test_bad_parameters(params, error, message):
    X, y = load("iris")
    with pytest.raises(error, match=message):
        FisherLDA(**params).fit(X, y)


def test_as_many_samples_as_classes_is_refused():
    with pytest.raises(ValueError, match="more samples than classes"):
        FisherLDA().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])


def test_svd_fast_path_matches_the_full_svd(monkeypatch):
    """The eigen-decomposition shortcut of the 'svd' solver changes nothing."""
    from patrec.discriminant import fisher

    X, y = load("wine")
    fast = FisherLDA(solver="svd").fit(X, y)
    monkeypatch.setattr(fisher, "_WELL_CONDITIONED", np.inf)  # always the full SVD
    full = FisherLDA(solver="svd").fit(X, y)
    np.testing.assert_allclose(fast.predict_proba(X), full.predict_proba(X), atol=1e-12)
    np.testing.assert_allclose(fast.coef_, full.coef_, rtol=1e-9)
    assert_same_subspace(fast.transform(X), full.transform(X))


@pytest.mark.parametrize("solver", ["svd", "eigen"])
def test_decision_function_is_coef_and_intercept(solver):
    X, y = load("wine")
    clf = FisherLDA(solver=solver).fit(X, y)
    np.testing.assert_allclose(
        clf.decision_function(X), X @ clf.coef_.T + clf.intercept_, rtol=1e-9, atol=1e-9
    )


def test_numpy_integer_n_components():
    X, y = load("iris")
    assert FisherLDA(n_components=np.int64(1)).fit(X, y).transform(X).shape == (150, 1)


def test_tol_too_large_is_explained():
    X, y = load("iris")
    with pytest.raises(ValueError, match="tol is too large"):
        FisherLDA(tol=10.0).fit(X, y)


def test_one_feature():
    X, y = load("iris")
    one = FisherLDA(solver="eigen").fit(X[:, 2:3], y)
    theirs = LinearDiscriminantAnalysis(solver="eigen").fit(X[:, 2:3], y)
    assert_agrees_with_sklearn(one, theirs, X[:, 2:3])
    assert one.transform(X[:, 2:3]).shape == (150, 1)


@SVD_COVARIANCE_OVER_N
def test_a_class_with_one_sample_is_allowed():
    """S_w is pooled over the classes: a class of one sample only adds its mean."""
    X, y = load("iris")
    X1, y1 = np.vstack([X, [[7.0, 3.0, 1.0, 2.0]]]), np.append(y, 3)
    ours = FisherLDA().fit(X1, y1)
    theirs = LinearDiscriminantAnalysis().fit(X1, y1)
    assert_agrees_with_sklearn(ours, theirs, X1)


@pytest.mark.parametrize("shrinkage", [0.3, "auto"])
def test_with_shrinkage_only_the_projection_differs_from_sklearn(shrinkage):
    # (docs/from_sklearn.rst) scikit-learn's eigen solver takes S_b as shrunk S_t
    # minus shrunk S_w; patrec keeps the class means' S_b and shrinks S_w alone
    X, y = load("iris")
    ours = FisherLDA(solver="eigen", shrinkage=shrinkage).fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver="eigen", shrinkage=shrinkage).fit(X, y)
    assert_agrees_with_sklearn(ours, theirs, X)
    if shrinkage == 0.3:
        # the figures the page gives
        assert round(ours.explained_variance_ratio_[0], 3) == 0.991
        assert round(theirs.explained_variance_ratio_[0], 3) == 0.678
        # for a fixed shrinkage a, theirs is (1 - a) S_b + a tr(S_b) / d I: with
        # it, patrec's own S_w gives scikit-learn's ratios back
        means = ours.means_ - ours.priors_ @ ours.means_
        between = (means.T * ours.priors_) @ means
        a, d = 0.3, X.shape[1]
        theirs_between = (1 - a) * between + a * np.trace(between) / d * np.eye(d)
        values = np.sort(linalg.eigh(theirs_between, ours.covariance_)[0])[::-1]
        np.testing.assert_allclose(
            values[:2] / values.sum(), theirs.explained_variance_ratio_, rtol=1e-8
        )


@pytest.mark.parametrize("weighted", [False, True])
def test_store_covariance_keeps_the_svd_solvers_shared_covariance(weighted):
    X, y = load("wine")
    weights = np.random.default_rng(0).integers(1, 4, len(y)) if weighted else None
    eigen = FisherLDA(solver="eigen").fit(X, y, sample_weight=weights)
    svd = FisherLDA(store_covariance=True).fit(X, y, sample_weight=weights)
    np.testing.assert_allclose(svd.covariance_, eigen.covariance_, rtol=1e-12)
    assert not hasattr(FisherLDA().fit(X, y), "covariance_")
    theirs = LinearDiscriminantAnalysis(store_covariance=True).fit(X, y)
    if not weighted:
        np.testing.assert_allclose(svd.covariance_, theirs.covariance_, rtol=1e-10)
    with pytest.raises(TypeError, match="store_covariance must be True or False"):
        FisherLDA(store_covariance="yes").fit(X, y)


def test_too_many_components_are_refused_in_scikit_learns_words():
    X, y = load("iris")
    with pytest.raises(ValueError, match=r"cannot be larger than .* min\(4, 2\)"):
        FisherLDA(n_components=3).fit(X, y)


def test_priors_not_summing_to_one_are_named_with_their_sum():
    X, y = load("iris")
    with pytest.raises(ValueError, match=r"got a sum of 1\.1; divide"):
        FisherLDA(priors=[0.5, 0.3, 0.3]).fit(X, y)

"""QDA: the course's discriminant, the compiled kernel, scikit-learn, bad input."""

import numpy as np
import pytest
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    load_wine,
    make_classification,
)
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
from sklearn.utils.estimator_checks import check_array_api_input

from patrec import QDA
from patrec.discriminant._quadratic import mahalanobis_squared

DATASETS = {
    "iris": load_iris,
    "wine": load_wine,
    "breast_cancer": load_breast_cancer,
    "digits": load_digits,
}


def course_discriminants(X_train, y_train, X, reg_param=0.0, priors=None):
    """g_i(x) written out with numpy: N_i - 1 covariances, inverse and log-det."""
    classes = np.unique(y_train)
    if priors is None:
        priors = [np.mean(y_train == label) for label in classes]
    scores = []
    for label, prior in zip(classes, priors):
        X_i = X_train[y_train == label]
        m_i = X_i.mean(axis=0)
        sigma = np.cov(X_i, rowvar=False, ddof=1)
        sigma = (1 - reg_param) * sigma + reg_param * np.eye(X.shape[1])
        _, log_det = np.linalg.slogdet(sigma)
        diff = X - m_i
        quadratic = np.einsum("ij,ij->i", diff @ np.linalg.inv(sigma), diff)
        scores.append(-0.5 * quadratic - 0.5 * log_det + np.log(prior))
    return np.column_stack(scores)


def sklearn_qda(X, y, reg_param):
    """scikit-learn's QDA with the course's N_i - 1 covariance normalisation.

    scikit-learn up to 1.7 divided by N_i - 1, later versions by N_i.  The fitted
    eigenvalues ``scalings_`` are rescaled to N_i - 1 when needed; everything else
    (the SVD, the prediction code) is scikit-learn's.
    """
    # tol only decides when scikit-learn refuses a covariance; keep every class
    model = QuadraticDiscriminantAnalysis(reg_param=reg_param, tol=1e-300).fit(X, y)
    probe = QuadraticDiscriminantAnalysis().fit(
        [[0.0], [2.0], [5.0], [7.0]], [0, 0, 1, 1]
    )
    if np.isclose(probe.scalings_[0][0], 1.0):  # biased: var of {0, 2} = 1, not 2
        for k, label in enumerate(model.classes_):
            n = np.sum(y == label)
            biased = (model.scalings_[k] - reg_param) / (1 - reg_param)
            model.scalings_[k] = (1 - reg_param) * biased * n / (n - 1) + reg_param
    return model


@pytest.mark.parametrize(
    "name, reg_param",
    [
        ("iris", 0.0),
        ("wine", 0.0),
        ("breast_cancer", 0.0),
        ("wine", 0.5),
        ("digits", 0.1),
    ],
)
def test_agrees_with_sklearn(name, reg_param):
    X, y = DATASETS[name](return_X_y=True)
    ours = QDA(reg_param=reg_param).fit(X, y)
    theirs = sklearn_qda(X, y, reg_param)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(
        ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-8
    )
    scale = np.abs(theirs.decision_function(X)).max()
    np.testing.assert_allclose(
        ours.decision_function(X),
        theirs.decision_function(X),
        rtol=0,
        atol=1e-9 * scale,
    )


@pytest.mark.parametrize("reg_param", [0.0, 0.2])
def test_course_discriminant(reg_param):
    X, y = load_wine(return_X_y=True)
    priors = [0.2, 0.5, 0.3]
    clf = QDA(reg_param=reg_param, priors=priors, store_covariance=True).fit(X, y)
    expected = course_discriminants(X, y, X, reg_param, priors)
    scores = clf.decision_function(X)
    np.testing.assert_allclose(
        scores, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max()
    )
    np.testing.assert_array_equal(clf.predict(X), np.argmax(expected, axis=1))
    for k in range(3):
        sigma = np.cov(X[y == k], rowvar=False, ddof=1)
        np.testing.assert_allclose(
            clf.covariance_[k],
            (1 - reg_param) * sigma + reg_param * np.eye(13),
            rtol=1e-10,
        )
        L_inv = clf.precision_factors_[k]
        np.testing.assert_allclose(
            L_inv.T @ L_inv @ clf.covariance_[k], np.eye(13), atol=1e-8
        )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("block", [1, 7, 256])
def test_kernel_matches_brute_force(dtype, block):
    """Blocks of every size, including a last block that is not full."""
    rng = np.random.default_rng(0)
    n, d, c = 601, 9, 4
    X = rng.normal(size=(n, d))
    means = rng.normal(size=(c, d))
    A = rng.normal(size=(c, d, d))
    covariances = A @ A.transpose(0, 2, 1) + np.eye(d)
    inverse_factors = np.linalg.inv(np.linalg.cholesky(covariances))
    expected = np.column_stack(
        [
            np.einsum(
                "ij,ij->i", (X - means[k]) @ np.linalg.inv(covariances[k]), X - means[k]
            )
            for k in range(c)
        ]
    )
    out = np.empty((n, c))
    mahalanobis_squared(
        X.astype(dtype), means.astype(dtype), inverse_factors.astype(dtype), out, block
    )
    rtol = 1e-5 if dtype == np.float32 else 1e-11
    np.testing.assert_allclose(out, expected, rtol=rtol)


def test_float32_input():
    X, y = load_wine(return_X_y=True)
    X32 = X.astype(np.float32)
    ours32 = QDA().fit(X32, y)
    ours64 = QDA().fit(X, y)
    np.testing.assert_array_equal(ours32.predict(X32), ours64.predict(X))
    np.testing.assert_allclose(
        ours32.predict_proba(X32), ours64.predict_proba(X), atol=1e-4
    )


def test_probabilities_far_from_the_data():
    """log-sum-exp: no overflow or 0/0 where every exp(g_i) underflows."""
    X, y = load_iris(return_X_y=True)
    clf = QDA().fit(X, y)
    far = np.full((2, 4), 1e6)
    far[1] *= -1
    proba = clf.predict_proba(far)
    assert np.all(np.isfinite(proba))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    log_proba = clf.predict_log_proba(far)
    assert np.all(np.isfinite(log_proba[log_proba > -np.inf]))


def test_binary_decision_function_is_log_odds():
    X, y = load_breast_cancer(return_X_y=True)
    clf = QDA().fit(X[:, :10], np.where(y == 1, "benign", "malignant"))
    scores = clf.decision_function(X[:, :10])
    assert scores.shape == (len(X),)
    log_proba = clf.predict_log_proba(X[:, :10])
    np.testing.assert_allclose(log_proba[:, 1] - log_proba[:, 0], scores, atol=1e-8)
    np.testing.assert_array_equal(
        clf.predict(X[:, :10]), clf.classes_[(scores > 0).astype(int)]
    )


def test_class_with_one_sample_is_refused():
    X = [[0.0, 0.0], [1.0, 0.5], [0.3, 1.0], [5.0, 5.0]]
    y = ["cat", "cat", "cat", "dog"]
    with pytest.raises(ValueError, match=r"Class 'dog' has only 1 sample.*FisherLDA"):
        QDA().fit(X, y)


def test_singular_covariance_names_class_and_remedy():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.repeat([3, 7], 20)
    X[y == 7, 2] = 1.0  # constant within class 7
    message = r"class 7 is singular: the feature at index 2.*reg_param > 0"
    with pytest.raises(ValueError, match=message):
        QDA().fit(X, y)
    assert QDA(reg_param=0.01).fit(X, y).score(X, y) > 0.5


def test_too_few_samples_for_the_features():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 5))
    y = np.repeat([0, 1], 6)
    X[y == 1] = rng.normal(size=(6, 5))[:, [0, 1, 2, 3, 3]]
    with pytest.raises(ValueError, match=r"class 1 is singular"):
        QDA().fit(X, y)
    few = np.vstack([X[:6], X[6:9]])
    with pytest.raises(ValueError, match=r"3 samples for 5 features"):
        QDA().fit(few, np.repeat([0, 1], [6, 3]))


@pytest.mark.needs(
    "scikit-learn>=1.9",
    "the estimator checks run the array-API check on NumPy input for every estimator "
    "(check_array_api_input's expect_only_array_outputs)",
)
def test_estimator_check_with_collinear_features():
    """scikit-learn's array-API check fits make_classification data whose redundant
    features are exact linear combinations: QDA() refuses it with a clear error, and
    passes the check with a reg_param (as scikit-learn's own QDA does)."""
    X, y = make_classification(n_samples=30, n_features=10, random_state=42)
    with pytest.raises(ValueError, match="reg_param"):
        QDA().fit(X, y)
    check_array_api_input(
        "QDA",
        QDA(reg_param=0.1),
        array_namespace="numpy",
        expect_only_array_outputs=False,
    )


@pytest.mark.parametrize(
    "params, error",
    [
        ({"reg_param": -0.1}, ValueError),
        ({"reg_param": 1.5}, ValueError),
        ({"reg_param": "big"}, TypeError),
        ({"reg_param": np.nan}, ValueError),
        ({"reg_param": None}, TypeError),
        ({"reg_param": True}, TypeError),
        ({"store_covariance": "yes"}, TypeError),
        ({"store_covariance": 1}, TypeError),
    ],
)
def test_bad_parameters(params, error):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(error, match=next(iter(params))):
        QDA(**params).fit(X, y)


def test_no_covariance_unless_asked():
    X, y = load_iris(return_X_y=True)
    assert not hasattr(QDA().fit(X, y), "covariance_")
    assert QDA(store_covariance=True).fit(X, y).covariance_.shape == (3, 4, 4)


def test_kernel_one_feature_and_no_samples():
    X = np.array([[0.0], [1.0], [3.0]])
    out = np.empty((3, 2))
    mahalanobis_squared(X, np.array([[1.0], [0.0]]), np.array([[[0.5]], [[2.0]]]), out)
    np.testing.assert_allclose(out, [[0.25, 0.0], [0.0, 4.0], [1.0, 36.0]])
    mahalanobis_squared(X[:0], np.zeros((2, 1)), np.ones((2, 1, 1)), np.empty((0, 2)))


@pytest.mark.parametrize(
    "means, factors, out",
    [
        (np.zeros((2, 2)), np.ones((2, 3, 3)), np.empty((5, 2))),  # means: 2 features
        (np.zeros((2, 3)), np.ones((3, 3, 3)), np.empty((5, 2))),  # 3 factors, 2 means
        (np.zeros((2, 3)), np.ones((2, 3, 2)), np.empty((5, 2))),  # factors not square
        (np.zeros((2, 3)), np.ones((2, 3, 3)), np.empty((4, 2))),  # out: 4 rows
        (np.zeros((2, 3)), np.ones((2, 3, 3)), np.empty((5, 1))),  # out: 1 column
    ],
)
def test_kernel_refuses_inconsistent_shapes(means, factors, out):
    """The loops run without bounds checks: a shape mismatch must stop at the door."""
    with pytest.raises(ValueError, match="inconsistent shapes"):
        mahalanobis_squared(np.ones((5, 3)), means, factors, out)


def test_kernel_refuses_an_empty_block():
    with pytest.raises(ValueError, match="block"):
        mahalanobis_squared(
            np.ones((5, 3)), np.zeros((2, 3)), np.ones((2, 3, 3)), np.empty((5, 2)), 0
        )


def test_kernel_refuses_mixed_dtypes():
    X = np.ones((4, 2), dtype=np.float32)
    with pytest.raises(ValueError, match="dtype mismatch"):
        mahalanobis_squared(X, np.zeros((1, 2)), np.ones((1, 2, 2)), np.empty((4, 1)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_kernel_runs_in_the_dtype_of_the_data(dtype, monkeypatch):
    from patrec.discriminant import quadratic

    seen = []

    def recording(X, means, factors, out):
        seen.append((X.dtype, means.dtype, factors.dtype))
        return mahalanobis_squared(X, means, factors, out)

    monkeypatch.setattr(quadratic, "mahalanobis_squared", recording)
    X, y = load_iris(return_X_y=True)
    QDA().fit(X.astype(dtype), y).predict(X.astype(dtype))
    assert seen == [(np.dtype(dtype),) * 3]


def test_reg_param_one_is_the_identity():
    X, y = load_iris(return_X_y=True)
    clf = QDA(reg_param=1.0, store_covariance=True).fit(X, y)
    np.testing.assert_allclose(clf.covariance_, np.broadcast_to(np.eye(4), (3, 4, 4)))
    # identity covariances: the nearest class mean wins (equal priors here)
    distances = ((X[:, np.newaxis, :] - clf.means_) ** 2).sum(axis=2)
    np.testing.assert_array_equal(clf.predict(X), np.argmin(distances, axis=1))


def test_predictions_from_several_threads_agree():
    """Each kernel call has its own work buffer, so threads may share one model."""
    from concurrent.futures import ThreadPoolExecutor

    X, y = load_digits(return_X_y=True)
    clf = QDA(reg_param=0.1).fit(X, y)
    expected = clf.predict_proba(X)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(clf.predict_proba, [X] * 8))
    for result in results:
        np.testing.assert_array_equal(result, expected)


def test_a_precision_beyond_float64_is_refused_not_infinite():
    # Constant tiny classes: the covariance left after rescaling is rounding noise,
    # and its inverse in the units of X overflows (found by the property tests).
    X = np.full((10, 1), 1.5e-294)
    y = np.repeat(["cat", "dog"], 5)
    with pytest.raises(ValueError, match="too small to represent the class precisions"):
        QDA().fit(X, y)

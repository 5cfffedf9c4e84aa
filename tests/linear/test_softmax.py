"""Softmax regression against scikit-learn's multinomial LogisticRegression."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import check_grad
from scipy.special import logsumexp
from sklearn.datasets import load_digits, load_iris, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from patrec import SoftmaxRegression
from patrec.exceptions import ConvergenceWarning
from patrec.linear.softmax import SoftmaxObjective


def digits_like():
    X, y = load_digits(return_X_y=True)
    return X[:300] / 16.0, y[:300]


def datasets():
    for load in (load_iris, load_wine):
        X, y = load(return_X_y=True)
        yield load.__name__, StandardScaler().fit_transform(X), y
    yield ("digits",) + digits_like()


@pytest.mark.parametrize(
    "name, X, y", list(datasets()), ids=lambda v: v if isinstance(v, str) else ""
)
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_probabilities_match_scikit_learn(name, X, y, C):
    reference = LogisticRegression(C=C, tol=1e-10, max_iter=10000).fit(X, y)
    clf = SoftmaxRegression(C=C, tol=1e-9).fit(X, y)
    np.testing.assert_allclose(
        clf.predict_proba(X), reference.predict_proba(X), atol=1e-4
    )
    np.testing.assert_array_equal(clf.predict(X), reference.predict(X))


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_objective_and_gradient_are_exact(fit_intercept, sparse):
    X, y = load_iris(return_X_y=True)
    k, (n, d), C = 3, X.shape, 0.5
    data = sp.csr_matrix(X) if sparse else X
    objective = SoftmaxObjective(data, y, k, C, fit_intercept)
    theta = np.random.default_rng(0).normal(scale=0.3, size=objective.size)

    def J(t):  # the textbook formula, divided by C n
        W = t[: k * d].reshape(k, d)
        b = t[k * d :] if fit_intercept else np.zeros(k)
        S = X @ W.T + b
        data_term = (logsumexp(S, axis=1) - S[np.arange(n), y]).sum()
        return (C * data_term + 0.5 * (W**2).sum()) / (C * n)

    loss, gradient = objective(theta)
    assert loss == pytest.approx(J(theta), rel=1e-12)
    assert check_grad(
        lambda t: objective(t)[0], lambda t: objective(t)[1].copy(), theta
    ) < 1e-5 * np.linalg.norm(gradient)
    assert check_grad(J, lambda t: objective(t)[1].copy(), theta) < 1e-5


def test_probabilities_are_stable_for_huge_scores():
    clf = SoftmaxRegression().fit([[0.0], [1.0], [2.0]], [0, 1, 2])
    clf.coef_ = np.array([[1e4], [0.0], [-1e4]])
    P = clf.predict_proba([[1e3], [-1e3], [0.0]])
    assert np.isfinite(P).all()
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_allclose(P[0], [1, 0, 0], atol=1e-12)
    assert np.isfinite(clf.predict_log_proba([[1e3]])).all()


def test_sparse_and_float32_input():
    X, y = load_iris(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    dense = SoftmaxRegression(tol=1e-9).fit(X, y)
    sparse = SoftmaxRegression(tol=1e-9).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(
        sparse.predict_proba(X), dense.predict_proba(X), atol=1e-6
    )
    # (a tol within float32's rounding of the objective: at 1e-6 the line search
    # may find no lower point, and says so)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        single = SoftmaxRegression(tol=1e-5).fit(X.astype(np.float32), y)
    assert abs(single.score(X, y) - dense.score(X, y)) <= 0.01


def test_stopping_early_is_said_with_the_remedy():
    X, y = load_iris(return_X_y=True)
    with pytest.warns(
        ConvergenceWarning, match="after 3 iterations.*increase max_iter"
    ):
        SoftmaxRegression(max_iter=3).fit(X, y)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"C": 0.0}, ValueError, "C"),
        ({"C": -1.0}, ValueError, "C"),
        ({"max_iter": 0}, ValueError, "max_iter"),
        ({"tol": 0.0}, ValueError, "tol"),
        ({"fit_intercept": "no"}, TypeError, "fit_intercept"),
    ],
)
def test_bad_parameters(params, error, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(error, match=match):
        SoftmaxRegression(**params).fit(X, y)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("scale", [0.1, 300.0])
def test_blocked_kernel_gives_the_numpy_objective_and_gradient(
    dtype, weighted, fit_intercept, scale
):
    # the one-pass kernel of linear/_softmax.pyx (dense X) against the two numpy
    # products (sparse X), over several blocks and a partial last block
    import patrec.linear.softmax as softmax

    rng = np.random.default_rng(0)
    X = rng.normal(size=(5003, 23)).astype(dtype)
    codes = rng.integers(7, size=len(X))
    weights = rng.random(len(X)) if weighted else None
    theta = rng.normal(size=7 * (23 + fit_intercept)) * scale
    blocked = softmax.SoftmaxObjective(X, codes, 7, 0.5, fit_intercept, weights)
    plain = softmax.SoftmaxObjective(
        sp.csr_matrix(X), codes, 7, 0.5, fit_intercept, weights
    )
    assert blocked.dense and not plain.dense
    (loss_a, grad_a), (loss_b, grad_b) = blocked(theta), plain(theta)
    # (float32: the products of the two paths round float32 sums in different orders)
    tol = 1e-13 if dtype == np.float64 else 1e-5
    assert loss_a == pytest.approx(loss_b, rel=1e-13 if dtype == np.float64 else 1e-6)
    assert np.abs(grad_a - grad_b).max() <= tol * np.abs(grad_b).max()


def test_the_kernels_exponential_is_libms_to_a_few_units_in_the_last_place():
    from patrec.linear._softmax import exp_in_place

    rng = np.random.default_rng(0)
    x = np.concatenate(
        [
            rng.uniform(-745, 709, 20001),
            rng.uniform(-1, 1, 20001),
            np.linspace(-708, -700, 101),
            [0.0, -0.0, 1e-300, -1e-300, np.log(2), 709.0, -708.0],
        ]
    )
    expected = np.exp(np.maximum(x, -708.0))
    expected[x < -708.0] = 0.0  # (below the smallest normal number: 0)
    got = x.copy()
    exp_in_place(got)
    ulp = np.spacing(np.maximum(expected, np.finfo(float).tiny))
    assert np.all(np.abs(got - expected) <= 2 * ulp)  # (measured: 1 at most)
    assert got[x == 0.0].tolist() == [1.0, 1.0]
    # every length: the eight-value (AVX2) loop, the two-lane one, the value left over
    for n in range(20):
        part = x[:n].copy()
        exp_in_place(part)
        np.testing.assert_array_equal(part, got[:n])


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize(
    "scale, dtype",
    [(1e25, np.float64), (1e200, np.float64), (1e300, np.float64), (1e30, np.float32)],
)
def test_features_of_any_magnitude_give_the_model_of_normal_ones(scale, dtype, sparse):
    # Issue 37: at 1e200 the fit stopped at zero weights, said it converged and
    # warned nothing (accuracy 1/3); from 1e25 it stopped there with a warning.
    X, y = load_iris(return_X_y=True)
    expected = SoftmaxRegression().fit(X, y).score(X, y)
    big = (X * scale).astype(dtype)
    data = sp.csr_matrix(big) if sparse else big
    kept = big.copy()
    with warnings.catch_warnings():
        # (float32 data round the objective at 1e-7: L-BFGS may say it stopped)
        action = "ignore" if dtype == np.float32 else "error"
        warnings.simplefilter(action, ConvergenceWarning)
        clf = SoftmaxRegression().fit(data, y)
    assert clf.score(data, y) >= expected
    assert np.isfinite(clf.coef_).all() and np.abs(clf.coef_).max() > 0
    assert np.isfinite(clf.predict_proba(data)).all()
    np.testing.assert_array_equal(big, kept)


@pytest.mark.parametrize("scale", [1e10, 1e200])
def test_one_feature_far_larger_than_the_others_is_fitted_as_well(scale):
    # (before issue 37: L-BFGS said it converged with a training accuracy of 1/3
    # at 1e10, and stopped at zero weights at 1e200)
    X, y = load_iris(return_X_y=True)
    expected = SoftmaxRegression().fit(X, y).score(X, y)
    X[:, 0] *= scale
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = SoftmaxRegression().fit(X, y)
    assert clf.score(X, y) >= expected


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_rescaled_features_keep_the_objective_of_the_weights(sparse):
    # Features beyond 2**32 are fitted multiplied by a power of two: the objective
    # is still J of the weights of the features as given (`model`), and L-BFGS's
    # gtol still bounds the gradient with respect to those weights by tol.
    X, y = load_iris(return_X_y=True)
    X[:, 1:3] *= 2.0**100  # two columns rescaled, two kept
    k, (n, d), C = 3, X.shape, 0.5
    objective = SoftmaxObjective(sp.csr_matrix(X) if sparse else X, y, k, C, True)
    assert objective.exponents.tolist() == [0, 103, 103, 0]
    theta = np.random.default_rng(0).normal(scale=0.3, size=objective.size)
    W, b = objective.model(theta)
    S = X @ W.T + b
    data_term = (logsumexp(S, axis=1) - S[np.arange(n), y]).sum()
    J = (C * data_term + 0.5 * (W**2).sum()) / (C * n)
    loss, gradient = objective(theta)
    assert loss == pytest.approx(J, rel=1e-12)
    # dJ/dW = dJ/dtheta * 2**e_j, so |dJ/dtheta| <= gtol means |dJ/dW| <= tol
    gtol = objective.gradient_tolerance(1e-6)
    gtol_W, gtol_b = gtol[: k * d].reshape(k, d), gtol[k * d :]
    np.testing.assert_array_equal(gtol_W * 2.0 ** np.array([0, 103, 103, 0]), 1e-6)
    np.testing.assert_array_equal(gtol_b, 1e-6)
    assert np.isfinite(gradient).all()

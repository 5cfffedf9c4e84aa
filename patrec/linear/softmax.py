"""Softmax (multinomial logistic) regression.

Each class r has a linear function g_r(x) = w_r . x + b_r and the model says

    P(y = r | x) = exp(g_r(x)) / sum_q exp(g_q(x)).

The weights maximise the likelihood of the training labels with an L2 penalty, i.e.
minimise the convex function

    J(W, b) = C sum_i [log sum_q exp(g_q(x_i)) - g_{y_i}(x_i)] + (1/2) sum_r ||w_r||^2

(the biases are not penalised; C as in scikit-learn's ``LogisticRegression``).  The
gradient is dJ/dw_r = C sum_i (P(r | x_i) - [y_i = r]) x_i + w_r and dJ/db_r the same
sum without x_i; `scipy.optimize.minimize` with L-BFGS-B uses it directly.
"""
import numbers

import numpy as np
from scipy.optimize import minimize

from ..base import BaseEstimator, ClassifierMixin
from .._validation import check_scalar
from ._base import LinearClassifierMixin, check_flag, linear_scores

__all__ = ["SoftmaxRegression"]


class SoftmaxRegression(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """Multinomial logistic regression with an L2 penalty, fitted by L-BFGS.

    Parameters
    ----------
    C : float, default=1.0
        Inverse regularisation strength (> 0): the data term is weighted by C against
        (1/2) sum_r ||w_r||^2.
    fit_intercept : bool, default=True
        Learn the biases b_r (not penalised).
    max_iter : int, default=1000
        Most L-BFGS iterations.
    tol : float, default=1e-6
        L-BFGS stops when every gradient entry of the objective (divided by the number
        of samples) is below ``tol``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
        Row r is w_r.
    intercept_ : ndarray of shape (n_classes,)
        The biases b_r (zeros without ``fit_intercept``).
    n_iter_ : int
        L-BFGS iterations run.
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    MulticlassSVM : the hinge-loss counterpart.

    Notes
    -----
    Each objective and gradient evaluation costs O(n_samples * n_classes *
    n_features) (two matrix products).  The probabilities are computed as
    exp(g_r - logsumexp(g)), with the largest g subtracted first so that nothing
    overflows.

    References
    ----------
    .. [1] C. M. Bishop, *Pattern Recognition and Machine Learning*, Springer, 2006,
       section 4.3.4 (multiclass logistic regression).
    .. [2] D. C. Liu and J. Nocedal, "On the limited memory BFGS method for large
       scale optimization", Mathematical Programming 45, 1989.

    Examples
    --------
    >>> from patrec import SoftmaxRegression
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> clf = SoftmaxRegression().fit(X, [0, 0, 1, 1, 2, 2])
    >>> clf.predict([[0.5, 0], [7, 0], [0, 7]]).tolist()
    [0, 1, 2]
    >>> clf.predict_proba([[7, 0]]).round(2).tolist()
    [[0.01, 0.99, 0.0]]
    """

    def __init__(self, *, C=1.0, fit_intercept=True, max_iter=1000, tol=1e-6):
        self.C = C
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def _fit(self, X, codes):
        C = check_scalar(self.C, "C", low=0, low_open=True)
        fit_intercept = check_flag(self.fit_intercept, "fit_intercept")
        max_iter = check_scalar(self.max_iter, "max_iter", numbers.Integral, low=1)
        tol = check_scalar(self.tol, "tol", low=0, low_open=True)
        n_samples, n_features = X.shape
        n_classes = len(self.classes_)
        samples = np.arange(n_samples)
        # J / (C n): the same minimiser, a gradient scale independent of n
        penalty = 1.0 / (C * n_samples)
        XT = X.T  # the work is laid out class by sample: reductions run over classes

        def objective(theta):
            coef, intercept = _unpack(theta, n_classes, n_features, fit_intercept)
            scores = np.asarray(coef.astype(X.dtype) @ XT, dtype=np.float64)
            scores += intercept[:, None]
            proba, log_norm = _softmax(scores)
            loss = (log_norm.sum() - scores[codes, samples].sum()) / n_samples
            loss += 0.5 * penalty * np.dot(coef.ravel(), coef.ravel())
            residual = proba
            residual[codes, samples] -= 1.0  # P(r | x_i) - [y_i = r]
            grad_coef = np.asarray(residual.astype(X.dtype, copy=False) @ X)
            grad_coef = grad_coef / n_samples + penalty * coef
            parts = [grad_coef.ravel()]
            if fit_intercept:
                parts.append(residual.sum(axis=1) / n_samples)
            return loss, np.concatenate(parts)

        size = n_classes * (n_features + fit_intercept)
        result = minimize(objective, np.zeros(size), jac=True, method="L-BFGS-B",
                          options={"maxiter": max_iter, "gtol": tol, "maxls": 50,
                                   "ftol": 64 * np.finfo(float).eps})
        coef, intercept = _unpack(result.x, n_classes, n_features, fit_intercept)
        self.coef_ = coef.copy()
        self.intercept_ = intercept.copy()
        self.n_iter_ = int(result.nit)

    def predict_log_proba(self, X):
        """log P(y = r | x) for every class, computed stably.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
        """
        X = self._validate_X(X, accept_sparse=True)
        scores = linear_scores(X, self.coef_, self.intercept_).astype(np.float64)
        return scores - _softmax(scores, axis=1)[1][:, None]

    def predict_proba(self, X):
        """P(y = r | x) for every class (the softmax of the scores).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Rows sum to one; columns follow ``classes_``.
        """
        return np.exp(self.predict_log_proba(X))


def _softmax(scores, axis=0):
    """Softmax and log-sum-exp over ``axis`` (the classes) without overflow: the
    largest score is subtracted first.

    Returns ``(proba, log_norm)``; ``proba`` is a new array.
    """
    top = scores.max(axis=axis, keepdims=True)
    proba = np.exp(scores - top)
    total = proba.sum(axis=axis, keepdims=True)
    proba /= total
    return proba, np.squeeze(top + np.log(total), axis=axis)


def _unpack(theta, n_classes, n_features, fit_intercept):
    coef = theta[:n_classes * n_features].reshape(n_classes, n_features)
    if fit_intercept:
        return coef, theta[n_classes * n_features:]
    return coef, np.zeros(n_classes)

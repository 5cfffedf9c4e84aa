"""Softmax (multinomial logistic) regression.

Each class r has a linear function g_r(x) = w_r . x + b_r and the model says

    P(y = r | x) = exp(g_r(x)) / sum_q exp(g_q(x)).

The weights maximise the likelihood of the training labels with an L2 penalty, i.e.
minimise the convex function

    J(W, b) = C sum_i [log sum_q exp(g_q(x_i)) - g_{y_i}(x_i)] + (1/2) sum_r ||w_r||^2

(the biases are not penalised; C as in scikit-learn's ``LogisticRegression``).  The
gradient is dJ/dw_r = C sum_i (P(r | x_i) - [y_i = r]) x_i + w_r and dJ/db_r the same
sum without x_i; L-BFGS (`_optimize.minimize_lbfgs`) uses it directly.
"""

import numbers

import numpy as np
import scipy.sparse as sp

from .._progress import Reporter
from .._training import linear_scores
from .._validation import check_flag, check_scalar, unit_scaled_weights
from ..base import BaseEstimator, ClassifierMixin, WeightedFitMixin
from ..exceptions import ConvergenceWarning, warn_caller
from ._base import LinearClassifierMixin
from ._optimize import minimize_lbfgs
from ._softmax import softmax_data_term

__all__ = ["SoftmaxRegression"]

_BLOCK_BYTES = 32 << 10  # the rows of X one block of the dense kernel takes


class SoftmaxRegression(
    LinearClassifierMixin, WeightedFitMixin, ClassifierMixin, BaseEstimator
):
    """Multinomial logistic regression with an L2 penalty, fitted by L-BFGS.

    Parameters
    ----------
    C : float, default=1.0
        Inverse regularisation strength (> 0): the data term is weighted by C against
        (1/2) sum_r ||w_r||^2.
    fit_intercept : bool, default=True
        Learn the biases b_r (not penalised).
    max_iter : int, default=1000
        Most L-BFGS iterations.  A `ConvergenceWarning` says when L-BFGS stops before
        meeting ``tol``.
    tol : float, default=1e-6
        L-BFGS stops when every gradient entry of the objective (divided by the number
        of samples) is below ``tol``, or when an iteration lowers that objective by
        at most 64 machine epsilons relative: scipy's L-BFGS-B rules, so ``tol``
        means what it means for scikit-learn's ``LogisticRegression(solver="lbfgs")``.
    verbose : int or bool, default=0
        Progress on standard error: 1 reports the iterations run and the final
        objective, 2 adds the objective after every L-BFGS iteration.

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
    overflows.  float32 input keeps the matrix products in float32; the parameters
    and L-BFGS work in float64.

    A feature j that reaches 2**32 (about 4.3e9) in magnitude is multiplied by the
    power of two 2**-e_j that brings its largest value into [0.5, 1) before L-BFGS
    starts, and the weights found for it are multiplied by 2**-e_j at the end: the
    objective is the same function of the same weights (their penalty scaled by
    2**-2e_j to match), and ``tol`` still bounds the objective's gradient with
    respect to ``coef_``.  Unscaled, L-BFGS's first step, of unit length, moves the
    scores by about the size of the features: near 1e25 no step it could try
    lowered the objective and the fit stopped at zero weights, and one feature near
    1e10 among features near 1 left it stuck far from the minimum.  Features below
    2**32 are fitted as given.

    ``sample_weight`` weights each sample's term of the data sum,
    ``C sum_i w_i [log sum_q exp(g_q(x_i)) - g_{y_i}(x_i)]``: integer weights give
    exactly the objective of the samples repeated that many times (so the same
    minimiser), and a zero weight leaves the sample out.  As in scikit-learn,
    multiplying every weight by a constant acts like multiplying C by it.

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

    _PEER_PARAMETERS = {
        "penalty": "always the squared norm of the weights, weighted by 1 / C",
        "solver": "always L-BFGS",
        "l1_ratio": "none: the penalty is the squared norm",
        "multi_class": "always multinomial (the softmax of the course)",
        "class_weight": "fit(X, y, sample_weight=...)",
        "warm_start": "none: each fit starts afresh",
        "random_state": "none: L-BFGS from zero weights draws nothing",
        "n_jobs": "none: one multinomial model is fitted",
        "dual": "none: the primal objective is minimised",
        "intercept_scaling": "none: the biases are not penalised",
    }

    def __init__(
        self, *, C=1.0, fit_intercept=True, max_iter=1000, tol=1e-6, verbose=0
    ):
        self.C = C
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose

    def _fit(self, X, codes, sample_weight=None):
        C = check_scalar(self.C, "C", low=0, low_open=True)
        fit_intercept = check_flag(self.fit_intercept, "fit_intercept")
        max_iter = check_scalar(self.max_iter, "max_iter", numbers.Integral, low=1)
        tol = check_scalar(self.tol, "tol", low=0, low_open=True)
        log = Reporter(type(self).__name__, self.verbose)
        objective = SoftmaxObjective(
            X, codes, len(self.classes_), C, fit_intercept, sample_weight
        )

        def report(theta, value):
            log(2, f"iteration {report.count}: objective {value:.6g}")
            report.count += 1

        report.count = 1
        result = minimize_lbfgs(
            objective,
            np.zeros(objective.size),
            gtol=objective.gradient_tolerance(tol),
            max_iter=max_iter,
            callback=report if log.wants(2) else None,
        )
        log(
            1,
            f"L-BFGS {'converged' if result.success else 'stopped'} after "
            f"{result.nit} iterations; objective J / (C n) = {result.fun:.6g}",
        )
        if not result.success:
            advice = (
                "increase max_iter, or scale the features"
                if result.nit == max_iter
                else "the objective may be as low as its rounding allows (float32 "
                "data round it at about 1e-7): raise tol, or fit float64 data"
            )
            warn_caller(
                f"L-BFGS stopped before converging after {result.nit} iterations "
                f"({result.message}); {advice}.",
                ConvergenceWarning,
            )
        coef, intercept = objective.model(result.x)
        self.coef_ = coef
        self.intercept_ = intercept
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
        return scores - _log_sum_exp(scores)[:, None]

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


class SoftmaxObjective:
    """J / (C n) and its gradient as one function of the flat parameter vector.

    theta holds the k x d weights row by row, then (with an intercept) the k biases.
    Dividing J by C n leaves the minimiser unchanged and makes the size of the
    gradient independent of n.  With sample weights, sample i's term is multiplied
    by w_i and n is the total weight (what the repeated samples would give).  The
    k x n score matrix is allocated once and reused for the probabilities and the
    residuals, so each evaluation costs two matrix products (one with X, one with
    X^T) plus O(k n) elementwise work, in the precision of X.
    That is the path of sparse X.  Dense X goes through
    ``_softmax.softmax_data_term`` instead: the same products and the same sums,
    taken block of rows by block of rows, each block of X (32 KiB) still in the
    first-level cache when the second product reads it.

    A feature j of magnitude 2**32 or more is first multiplied by 2**-e_j, which
    brings its largest value into [0.5, 1) (``exponents`` holds the e_j, 0 for
    the features kept as given; None when all are): theta then holds its weights
    times 2**e_j and their penalty is scaled by 2**-2e_j, so that J stays the
    same function of the weights; `model` gives the weights of the features as
    given, and `gradient_tolerance` the matching L-BFGS ``gtol``.
    """

    def __init__(self, X, codes, n_classes, C, fit_intercept, sample_weight=None):
        X, self.exponents = _unit_scaled_features(X)
        self.X = X
        self.n_classes, self.n_features = n_classes, X.shape[1]
        self.fit_intercept = fit_intercept
        self.size = n_classes * (self.n_features + fit_intercept)
        if sample_weight is None:
            self.weights, self.total = None, X.shape[0]
            self.penalty = 1.0 / (C * self.total)
        else:
            # J / (C n) is a weighted mean plus the penalty over C n: scaled by a
            # power of two, the weights keep their sum in range (near 1e307 it
            # overflowed and L-BFGS stopped at once, at zero weights) and the
            # penalty takes the true C n back from the exponent
            self.weights, exponent = unit_scaled_weights(sample_weight)
            self.total = float(self.weights.sum())
            with np.errstate(over="ignore", divide="ignore"):
                self.penalty = min(
                    1.0 / np.ldexp(C * self.total, exponent), np.finfo(np.float64).max
                )
        if self.exponents is not None:
            self.penalty = np.ldexp(self.penalty, -2 * self.exponents)  # (d,)
        # Dense X: one pass of blocks over the rows (linear/_softmax.pyx) reads X
        # from memory once an evaluation instead of twice, and its loops over a
        # block's scores cost less than numpy's passes over the whole k x n matrix:
        # 23% less time on the digits, 45% less at 100 000 x 50.
        self.dense = not sp.issparse(X)
        if self.dense:
            self.X = np.ascontiguousarray(X)
            self.codes = np.asarray(codes, dtype=np.intp)
            row_bytes = X.itemsize * max(1, X.shape[1])
            rows = max(16, min(X.shape[0], _BLOCK_BYTES // row_bytes))
            self.block = np.empty((rows, n_classes), dtype=X.dtype)
            self.work = np.empty(rows * n_classes)
            self.grad_buffer = np.empty((n_classes, self.n_features), dtype=X.dtype)
            self.grad_intercept = np.empty(n_classes)
            self.no_weights = np.empty(0)
            # (the specialisation for X's dtype, called without the fused dispatch)
            self._data_term = softmax_data_term.__signatures__[
                "float32_t" if X.dtype == np.float32 else "float64_t"
            ]
            return
        self.XT = X.T  # class-by-sample layout: the reductions run over the k classes
        # flat positions of the true class's entries in the k x n score matrix
        self.truth = codes * X.shape[0] + np.arange(X.shape[0])
        self.scores = np.empty((n_classes, X.shape[0]))

    def unpack(self, theta):
        """The weights (k, d) and biases (k,) held in theta (views)."""
        k, d = self.n_classes, self.n_features
        coef = theta[: k * d].reshape(k, d)
        intercept = theta[k * d :] if self.fit_intercept else np.zeros(k)
        return coef, intercept

    def model(self, theta):
        """The weights (k, d) of the features as given and the biases (k,) that
        theta holds (new arrays)."""
        coef, intercept = self.unpack(theta)
        if self.exponents is None:
            return coef.copy(), intercept.copy()
        return np.ldexp(coef, -self.exponents), intercept.copy()

    def gradient_tolerance(self, tol):
        """L-BFGS's gtol for theta that bounds the gradient of J / (C n) with respect
        to the weights of the features as given by tol: tol itself, or for the
        weights of a rescaled feature j (whose gradient is 2**-e_j times theirs)
        tol 2**-e_j."""
        if self.exponents is None:
            return tol
        coef_tol = np.broadcast_to(
            np.ldexp(tol, -self.exponents), (self.n_classes, self.n_features)
        )
        return np.concatenate(
            [coef_tol.reshape(-1), np.full(self.size - coef_tol.size, tol)]
        )

    def _penalty_term(self, coef):
        """(1/2) sum_r ||w_r||^2 over C n, held in the units of theta."""
        if self.exponents is None:
            w = coef.reshape(-1)
            return 0.5 * self.penalty * float(w @ w)
        return 0.5 * float(np.sum(self.penalty * coef * coef))

    def __call__(self, theta):
        if self.dense:
            return self._dense_call(theta)
        coef, intercept = self.unpack(theta)
        n_samples = self.total
        scores = _product(coef, self.XT, out=self.scores)  # g_r(x_i), k x n
        scores += intercept[:, None]
        flat = scores.reshape(-1)
        true_scores = flat[self.truth]
        top = scores.max(axis=0)
        scores -= top
        np.exp(scores, out=scores)
        total = scores.sum(axis=0)
        scores /= total  # P(r | x_i)
        terms = top + np.log(total) - true_scores  # each sample's loss
        if self.weights is None:
            loss = terms.sum() / n_samples
        else:
            loss = (self.weights @ terms) / n_samples
        loss += self._penalty_term(coef)
        flat[self.truth] -= 1.0  # the residuals P(r | x_i) - [y_i = r]
        if self.weights is not None:
            scores *= self.weights  # w_i (P(r | x_i) - [y_i = r])
        gradient = np.empty_like(theta)
        grad_coef = gradient[: coef.size].reshape(coef.shape)
        grad_coef[...] = _product(scores, self.X)
        grad_coef /= n_samples
        grad_coef += self.penalty * coef
        if self.fit_intercept:
            gradient[coef.size :] = scores.sum(axis=1) / n_samples
        return loss, gradient

    def _dense_call(self, theta):
        """The same value and gradient for dense X, from `softmax_data_term`."""
        coef, intercept = self.unpack(theta)
        loss = self._data_term(
            self.X,
            self.codes,
            self.no_weights if self.weights is None else self.weights,
            coef if self.X.dtype == np.float64 else coef.astype(self.X.dtype),
            np.ascontiguousarray(intercept, dtype=np.float64),
            self.grad_buffer,
            self.grad_intercept,
            self.block,
            self.work,
        )
        scale = 1.0 / self.total
        gradient = np.empty_like(theta)
        grad_coef = gradient[: coef.size].reshape(coef.shape)
        np.multiply(coef, self.penalty, out=grad_coef)
        grad_coef += self.grad_buffer * scale
        if self.fit_intercept:
            np.multiply(self.grad_intercept, scale, out=gradient[coef.size :])
        return loss * scale + self._penalty_term(coef), gradient


def _product(A, B, out=None):
    """A @ B for a float64 matrix A and data B (dense or sparse), in B's precision
    (float64 result)."""
    if isinstance(B, np.ndarray) and B.dtype == np.float64:
        return np.matmul(A, B, out=out)
    product = np.asarray(A.astype(B.dtype, copy=False) @ B)
    if out is None:
        return product.astype(np.float64, copy=False)
    out[...] = product
    return out


def _unit_scaled_features(X):
    """X and None when every feature stays below 2**32 in magnitude.  Otherwise X
    with each such feature j multiplied by the power of two 2**-e_j that brings its
    largest value into [0.5, 1) (a new array or CSR matrix of X's dtype, exact save
    for values pushed below the normal range), and the e_j (0 for the others)."""
    if X.shape[0] == 0:
        return X, None
    # (the largest |x| of each column from its extremes, with no copy of X)
    highest, lowest = X.max(axis=0), X.min(axis=0)
    if sp.issparse(X):
        highest, lowest = highest.toarray().reshape(-1), lowest.toarray().reshape(-1)
    _, exponents = np.frexp(np.maximum(highest, -lowest))
    exponents = np.where(exponents > 32, exponents, 0).astype(np.intc)
    if not exponents.any():
        return X, None
    if sp.issparse(X):
        X = X.copy()
        X.data = np.ldexp(X.data, -exponents[X.indices])
        return X, exponents
    return np.ldexp(X, -exponents), exponents


def _log_sum_exp(scores):
    """log sum_r exp(scores[i, r]) for each row i, without overflow: the largest
    score of the row is subtracted before exponentiating and added back after."""
    top = scores.max(axis=1)
    return top + np.log(np.exp(scores - top[:, None]).sum(axis=1))

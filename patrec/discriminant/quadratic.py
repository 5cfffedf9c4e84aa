"""Quadratic discriminant analysis (QDA).

Every class omega_i is modelled as a Gaussian with its own mean m_i and covariance
Sigma_i, estimated from the class's N_i samples,

    m_i = (1 / N_i) sum_j x_j,
    Sigma_i = 1 / (N_i - 1) sum_j (x_j - m_i)(x_j - m_i)^T,

and a sample goes to the class with the largest

    g_i(x) = -1/2 (x - m_i)^T Sigma_i^{-1} (x - m_i) - 1/2 log|Sigma_i|
             + log P(omega_i),

the logarithm of ``P(omega_i) p(x | omega_i)`` without the constant ``-d/2 log(2 pi)``.
The boundaries g_i = g_j are quadratic surfaces.

With the Cholesky factor ``Sigma_i = L_i L_i^T`` the quadratic form is the squared
length of ``L_i^{-1} (x - m_i)`` and ``log|Sigma_i| = 2 sum_j log L_i[j, j]``; the
compiled kernel `patrec.discriminant._quadratic.mahalanobis_squared` evaluates the
lengths for many samples at once with level-3 BLAS.
"""

import numbers

import numpy as np
from scipy import linalg

from .._validation import check_class_weights, check_scalar, unit_scaled_weights
from ..base import BaseEstimator, ClassifierMixin, WeightedFitMixin
from ._bayes_rule import BayesRuleMixin
from ._quadratic import mahalanobis_squared
from ._statistics import (
    check_deviations,
    check_priors,
    cholesky_or_none,
    feature_scales,
    fold_covariance,
    group_by_class,
    scaled_copy,
    scoring_dtype,
)

__all__ = ["QDA"]


class QDA(BayesRuleMixin, WeightedFitMixin, ClassifierMixin, BaseEstimator):
    """Quadratic discriminant analysis: one Gaussian per class, Bayes' rule.

    Parameters
    ----------
    reg_param : float in [0, 1], default=0.0
        Regularisation r: each class covariance is replaced by ``(1 - r) Sigma_i +
        r I``, which makes it invertible for any r > 0.  Use it when a class has
        no more samples than features, or constant or collinear features.
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities P(omega_i) in the order of ``classes_``.  Positive and
        summing to 1; None uses the class frequencies of the training data.
    store_covariance : bool, default=False
        Keep the (regularised) class covariances in ``covariance_``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    priors_ : ndarray of shape (n_classes,)
        The class priors used.
    means_ : ndarray of shape (n_classes, n_features)
        The class means m_i.
    covariance_ : ndarray of shape (n_classes, n_features, n_features)
        The class covariances Sigma_i (after regularisation); only with
        ``store_covariance=True``.
    precision_factors_ : ndarray of shape (n_classes, n_features, n_features)
        The inverse Cholesky factors ``L_i^{-1}`` (lower triangular), so that
        ``Sigma_i^{-1} = L_i^{-T} L_i^{-1}``.
    log_determinants_ : ndarray of shape (n_classes,)
        ``log|Sigma_i|``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Column names, when ``X`` was a data frame with string column names.

    See Also
    --------
    FisherLDA : One covariance shared by all classes, linear boundaries.

    Notes
    -----
    Fitting costs O(n d^2 + c d^3): one pass to group the samples by class, one
    covariance and one Cholesky factorisation per class.  Prediction costs
    O(n c d^2): for blocks of samples, one triangular matrix product per class
    (BLAS ``dtrmm``/``strmm``, float32 input stays float32) followed by sums of
    squares, in a compiled loop that releases the GIL.

    The covariances are normalised by N_i - 1 as in the course (and in scikit-learn
    up to version 1.7; later versions of scikit-learn's
    ``QuadraticDiscriminantAnalysis`` divide by N_i).  A class covariance that is
    singular is refused instead of being used with tiny eigenvalues.

    ``sample_weight`` gives frequency weights: sample j counts w_j times.  With W_i
    the total weight of class i, the estimates are

        m_i = (1 / W_i) sum_j w_j x_j,
        Sigma_i = 1 / (W_i - 1) sum_j w_j (x_j - m_i)(x_j - m_i)^T,

    and the default priors W_i / W.  Integer weights therefore give exactly the model
    fitted on the samples repeated that many times (N_i - 1 becomes W_i - 1), and a
    zero weight is the same as leaving the sample out.  Because of the W_i - 1, the
    weights are counts, not proportions: each class's weights must sum to more than
    1, and scaling every weight changes the covariances slightly.

    References
    ----------
    .. [1] R. O. Duda, P. E. Hart and D. G. Stork, *Pattern Classification*, 2nd ed.,
       Wiley, 2001, section 2.6.3.
    .. [2] T. Hastie, R. Tibshirani and J. Friedman, *The Elements of Statistical
       Learning*, 2nd ed., Springer, 2009, section 4.3 (regularised discriminant
       analysis).

    Examples
    --------
    >>> from patrec import QDA
    >>> X = [[-1, -1], [-2, -1], [-3, -2], [1, 1], [2, 1], [3, 2]]
    >>> y = [1, 1, 1, 2, 2, 2]
    >>> QDA().fit(X, y).predict([[-0.8, -1]])
    array([1])
    """

    _PEER_PARAMETERS = {
        "tol": "none: a singular class covariance is refused by name; regularise "
        "it with reg_param",
        "solver": "none: the class covariances are estimated directly",
        "covariance_estimator": "reg_param= (shrinks each class covariance)",
        "shrinkage": "reg_param= (shrinks each class covariance)",
    }

    def __init__(self, reg_param=0.0, priors=None, store_covariance=False):
        self.reg_param = reg_param
        self.priors = priors
        self.store_covariance = store_covariance

    def _fit(self, X, codes, sample_weight=None):
        reg_param = check_scalar(
            self.reg_param, "reg_param", numbers.Real, low=0, high=1
        )
        if not isinstance(self.store_covariance, (bool, np.bool_)):
            raise TypeError(
                "store_covariance must be True or False, got "
                f"{self.store_covariance!r}."
            )
        n_features = X.shape[1]
        n_classes = self.classes_.shape[0]
        counts = np.bincount(codes, minlength=n_classes)
        weights = None
        if sample_weight is not None:  # samples of weight zero do not count
            counts = check_class_weights(self.classes_, codes, sample_weight)
            weights = sample_weight[np.argsort(codes, kind="stable")]
            totals = np.bincount(codes, weights=sample_weight, minlength=n_classes)
            for label, total in zip(self.classes_, totals):
                if not np.isfinite(total):
                    raise ValueError(
                        f"The weights of class {_label_text(label)} sum to more than "
                        "float64 holds: QDA's weights are counts (it divides by the "
                        "total weight - 1). Divide sample_weight by a common factor; "
                        "from totals of about 1e16 on, W - 1 = W in float64, so the "
                        "model does not change."
                    )
                if total <= 1:  # N_i >= 2 for repeated samples
                    raise ValueError(
                        f"The weights of class {_label_text(label)} sum to {total:g}: "
                        "QDA divides the class covariance by (total weight - 1), so "
                        "sample_weight must be counts whose sum exceeds 1 in every "
                        "class (multiply proportions by the class sizes)."
                    )
        else:
            totals = counts.astype(np.float64)
            for label, count in zip(self.classes_, counts):
                if count < 2:
                    raise ValueError(
                        f"Class {_label_text(label)} has only {count} sample: QDA "
                        "estimates a covariance matrix for every class and needs at "
                        "least 2 samples per class. Add samples of this class, drop "
                        "it, or use FisherLDA (one covariance shared by all classes)."
                    )
        self.priors_ = check_priors(self.priors, totals)

        # features near 1e150 or 1e-150 would overflow or underflow the covariances:
        # fit on features rescaled by powers of two s_j, then fold back.  In those
        # units the regularisation r I of the units of X is r S^-2.
        scales = feature_scales(X)
        identity = np.ones(n_features)
        if scales is not None:
            X = scaled_copy(X, scales)
            with np.errstate(over="ignore"):
                identity = (1.0 / scales) ** 2
            if reg_param > 0 and not np.all(np.isfinite(identity)):
                raise ValueError(
                    "The features of X are too small for reg_param > 0 in float64: "
                    "the regularisation reg_param * I would swamp their covariance "
                    "beyond the floating-point range. Rescale the features (for "
                    "example divide each by its standard deviation)."
                )
        X_sorted, rows = group_by_class(X, codes, n_classes)
        means = np.empty((n_classes, n_features))
        covariances = np.empty((n_classes, n_features, n_features))
        precision_factors = np.empty((n_classes, n_features, n_features))
        log_determinants = np.empty(n_classes)
        for k, label in enumerate(self.classes_):
            means[k], covariances[k] = _class_covariance(
                X_sorted[rows[k]],
                reg_param,
                identity,
                None if weights is None else weights[rows[k]],
            )
            factor, feature = cholesky_or_none(covariances[k])
            if factor is None:
                raise ValueError(
                    _singular_message(label, feature, counts[k], n_features, reg_param)
                )
            precision_factors[k] = linalg.solve_triangular(
                factor, np.eye(n_features), lower=True
            )
            log_determinants[k] = 2.0 * np.sum(np.log(np.diag(factor)))
        if scales is not None:  # L = S L', so L^-1 = L'^-1 S^-1
            if self.store_covariance:
                covariances = fold_covariance("covariance_", covariances, scales)
            means *= scales
            with np.errstate(over="ignore"):
                precision_factors /= scales
            if not np.all(np.isfinite(precision_factors)):
                raise ValueError(
                    "The features of X are too small to represent the class "
                    "precisions in float64: some class varies too little for its "
                    "inverse covariance to stay in the floating-point range. Rescale "
                    "the features (for example divide each by its standard "
                    "deviation), or set reg_param > 0."
                )
            log_determinants += 2.0 * np.sum(np.log(scales))
        self.means_ = means
        self.precision_factors_ = precision_factors
        self.log_determinants_ = log_determinants
        if self.store_covariance:
            self.covariance_ = covariances

    def _class_scores(self, X):
        """``g_i(x)`` for every sample and class, shape (n_samples, n_classes)."""
        X = self._validate_X(X)
        dtype = scoring_dtype(X.dtype, self.precision_factors_)
        distances = np.empty((X.shape[0], self.classes_.shape[0]))
        mahalanobis_squared(
            X.astype(dtype, copy=False),
            self.means_.astype(dtype),
            self.precision_factors_.astype(dtype),
            distances,
        )
        return -0.5 * (distances + self.log_determinants_) + np.log(self.priors_)


def _class_covariance(samples, reg_param, identity, weights=None):
    """Mean and regularised covariance ``(1 - r) Sigma + r diag(identity)`` of one
    class (``identity`` is all ones unless the features were rescaled).

    ``samples`` is a float64 array the caller no longer needs: it is centred in place.
    Sigma is normalised by N_i - 1 as in the course; with frequency ``weights`` the
    sums are weighted and N_i is their total W_i.
    """
    if weights is None:
        mean = samples.mean(axis=0)
        samples -= mean
        check_deviations(samples)
        covariance = samples.T @ samples / (samples.shape[0] - 1)
    else:
        # the weights scaled by a power of two: the same mean and covariance, bit
        # for bit, with sums that stay in range for weights near 1e306
        scaled, exponent = unit_scaled_weights(weights)
        total = scaled.sum()
        mean = scaled @ samples / total
        samples -= mean
        check_deviations(samples)
        divisor = np.ldexp(np.ldexp(total, exponent) - 1, -exponent)  # (W_i - 1)
        covariance = (samples * scaled[:, np.newaxis]).T @ samples / divisor
    if reg_param > 0:
        covariance *= 1.0 - reg_param
        covariance.flat[:: covariance.shape[0] + 1] += reg_param * identity
    return mean, covariance


def _singular_message(label, feature, n_samples, n_features, reg_param):
    """Why the covariance of class ``label`` is singular, and what to do about it."""
    reason = (
        f" (it has {n_samples} samples for {n_features} features, so its covariance "
        "cannot have full rank)"
        if n_samples <= n_features
        else f": the feature at index {feature} is constant in this class or a "
        "linear combination of other features"
    )
    remedy = (
        "Increase reg_param"
        if reg_param > 0
        else "Set reg_param > 0 (for example reg_param=0.01)"
    )
    return (
        f"The covariance matrix of class {_label_text(label)} is singular{reason}. "
        f"{remedy}: each class covariance becomes (1 - reg_param) * Sigma + "
        "reg_param * I. FisherLDA, which pools the classes, is another option."
    )


def _label_text(label):
    """A class label as it would be written in Python: ``3``, ``'cat'``."""
    return repr(label.item() if isinstance(label, np.generic) else label)

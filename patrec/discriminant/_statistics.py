"""Class statistics and covariance estimates shared by `FisherLDA` and `QDA`.

Everything here works in float64 on arrays that `patrec._validation` has already
checked; the estimators turn the results into their fitted attributes.
"""

import numbers

import numpy as np
from scipy import sparse
from scipy.linalg import lapack

from .._validation import unit_scaled_weights

__all__ = [
    "check_priors",
    "class_means",
    "group_by_class",
    "shrink",
    "ledoit_wolf_covariance",
    "cholesky_or_none",
    "check_deviations",
    "feature_scales",
    "scaled_copy",
    "fold_covariance",
    "scoring_dtype",
]

# A covariance counts as singular when, for some feature j, the part of its variance
# not explained by the features before it, L_jj^2, is below this fraction of the
# variance itself, Sigma_jj (that is 1 - R^2 of regressing feature j on features
# 1 .. j-1).  Constant and exactly collinear features give a ratio of (almost) zero.
SINGULAR_RTOL = 1e-10


def check_priors(priors, counts):
    """The class prior probabilities, checked.

    Parameters
    ----------
    priors : array-like of shape (n_classes,) or None
        Prior probabilities P(omega_i) in the order of ``classes_``; None means the
        class frequencies ``counts / counts.sum()``.
    counts : ndarray of shape (n_classes,)
        Training samples per class.

    Returns
    -------
    priors : ndarray of shape (n_classes,), float64
        Positive, summing to one.
    """
    if priors is None:  # (scaled by a power of two: the total stays in range)
        scaled, _ = unit_scaled_weights(counts)
        return scaled / scaled.sum()
    if isinstance(priors, (str, bytes, numbers.Number)):
        raise ValueError(
            f"priors must be a sequence of {counts.shape[0]} probabilities, one per "
            f"class, got {priors!r}."
        )
    try:
        values = np.asarray(priors, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"priors must be numbers, got {priors!r}.") from exc
    if values.ndim != 1 or values.shape[0] != counts.shape[0]:
        raise ValueError(
            f"priors must have one entry per class: {counts.shape[0]} classes were "
            f"seen in y, got priors of shape {values.shape}."
        )
    if not np.all(np.isfinite(values)) or np.any(values <= 0):
        raise ValueError(f"priors must be positive and finite, got {values.tolist()}.")
    total = values.sum()
    if abs(total - 1.0) > 1e-6:
        raise ValueError(
            f"priors must sum to 1, got a sum of {float(total)!r}; divide them by their sum."
        )
    return values / total


def class_means(X, codes, n_classes, sample_weight=None):
    """Samples per class and class means, in one pass over ``X``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of shape (n_samples,)
        Class codes ``0 .. n_classes - 1``.
    n_classes : int
    sample_weight : ndarray of shape (n_samples,), default=None
        Frequency weights: the counts are the classes' total weights W_k and the means
        ``sum_i w_i x_i / W_k``, what repeating sample i ``w_i`` times would give.

    Returns
    -------
    counts : ndarray of shape (n_classes,), float64
    means : ndarray of shape (n_classes, n_features), float64
    """
    n_samples = X.shape[0]
    weights = np.ones(n_samples) if sample_weight is None else sample_weight
    # The sparse class-indicator matrix sums each class's rows in O(n_samples *
    # n_features), accumulating in float64.
    indicator = sparse.csr_matrix(
        (weights, (codes, np.arange(n_samples))),
        shape=(n_classes, n_samples),
    )
    counts = np.bincount(codes, weights=sample_weight, minlength=n_classes).astype(
        np.float64
    )
    sums = indicator @ X.astype(np.float64, copy=False)
    return counts, np.asarray(sums) / counts[:, np.newaxis]


def group_by_class(X, codes, n_classes):
    """A float64 copy of ``X`` with its rows sorted by class, and each class's rows.

    Returns
    -------
    X_sorted : ndarray of shape (n_samples, n_features), float64
        A new array (never a view of ``X``): callers may modify it.
    rows : list of slice
        ``X_sorted[rows[k]]`` are the samples of class k.
    """
    order = np.argsort(codes, kind="stable")
    X_sorted = np.take(X, order, axis=0).astype(np.float64, copy=False)
    bounds = np.searchsorted(codes[order], np.arange(n_classes + 1))
    return X_sorted, [slice(bounds[k], bounds[k + 1]) for k in range(n_classes)]


def shrink(covariance, shrinkage):
    """``(1 - a) * S + a * (trace(S) / d) * I``: pull S towards a scaled identity."""
    n_features = covariance.shape[0]
    target = np.trace(covariance) / n_features
    shrunk = (1.0 - shrinkage) * covariance
    shrunk.flat[:: n_features + 1] += shrinkage * target
    return shrunk


def ledoit_wolf_covariance(centred, sample_weight=None, weight_exponent=0):
    """Ledoit–Wolf shrunk covariance of one class's centred samples.

    The features are first scaled to unit variance (features with zero variance are
    left as they are), the biased covariance S of the scaled data is shrunk towards
    ``mu * I`` (``mu = trace(S) / d``) with the intensity of Ledoit and Wolf [1]_,
    and the result is scaled back.

    Parameters
    ----------
    centred : ndarray of shape (n_samples, n_features)
        Samples of one class minus the class mean.
    sample_weight : ndarray of shape (n_samples,), default=None
        Frequency weights: every sum over the samples weights sample k by w_k and
        ``n`` becomes their total, exactly what repeating the samples would give.
    weight_exponent : int, default=0
        The weights given are the frequency weights divided by ``2**weight_exponent``
        (`unit_scaled_weights`): ``n`` is their total times that power of two.  It
        may overflow to infinity, the limit in which nothing is shrunk.

    Returns
    -------
    covariance : ndarray of shape (n_features, n_features)

    Notes
    -----
    With ``Z`` the scaled samples (rows ``z_k``), ``n`` samples and ``d`` features the
    intensity is ``min(b, c) / c`` where ``c = ||S - mu I||_F^2 / d`` measures how far S
    is from the target and ``b = (sum_k ||z_k z_k^T - S||_F^2) / (n^2 d)`` estimates
    the error of S.  It costs O(n d^2).

    References
    ----------
    .. [1] O. Ledoit and M. Wolf, "A well-conditioned estimator for large-dimensional
       covariance matrices", Journal of Multivariate Analysis 88(2), 365-411, 2004.
    """
    n_features = centred.shape[1]
    if sample_weight is None:
        n_samples = total = centred.shape[0]
        weights = None
    else:
        weights, total = sample_weight, sample_weight.sum()
        with np.errstate(over="ignore"):
            n_samples = np.ldexp(total, weight_exponent)
    scale = np.sqrt(np.average(centred**2, axis=0, weights=weights))
    scale[scale == 0.0] = 1.0
    Z = centred / scale
    S = (Z if weights is None else Z * weights[:, np.newaxis]).T @ Z / total
    if n_features == 1:
        intensity = 0.0
    else:
        mu = np.trace(S) / n_features
        # ||S - mu I||_F^2 / d
        distance = np.sum(S**2) - 2.0 * mu * np.trace(S) + n_features * mu**2
        distance /= n_features
        # sum_k ||z_k z_k^T - S||_F^2 = sum_k ||z_k||^4 - n ||S||_F^2
        fourth = np.sum(Z**2, axis=1) ** 2
        spread = np.average(fourth, weights=weights) - np.sum(S**2)
        spread /= n_features * n_samples
        spread = min(spread, distance)
        intensity = 0.0 if spread == 0 else spread / distance
    return shrink(S, intensity) * scale[:, np.newaxis] * scale[np.newaxis, :]


def cholesky_or_none(covariance):
    """Lower Cholesky factor of a covariance, or None when it is (nearly) singular.

    Returns
    -------
    factor : ndarray of shape (n_features, n_features) or None
    feature : int or None
        When the factor is None, the first feature found to be constant or a linear
        combination of the features before it.
    """
    factor, info = lapack.dpotrf(covariance, lower=1, clean=1)
    if info > 0:  # the leading minor of order `info` is not positive definite
        return None, info - 1
    diagonal = np.diag(covariance)
    weak = ~(np.diag(factor) ** 2 > SINGULAR_RTOL * diagonal)
    if weak.any():
        return None, int(np.argmax(weak))
    return factor, None


# Features whose largest magnitude lies outside [2^-LIMIT, 2^LIMIT] are rescaled
# before any moment is taken: far inside the float64 range, so ordinary data keeps
# its exact arithmetic, and far enough from its ends that the sums of squares of the
# rescaled features can neither overflow nor underflow.
_SCALE_LIMIT = 64


def feature_scales(X):
    """Per-feature powers of two that bring ``X``'s features near 1, or None.

    A covariance squares the features: around 1e155 the squares overflow float64 and
    around 1e-155 they underflow.  Dividing feature j by ``s_j = 2^e_j``, with
    ``2^(e_j - 1) <= max_i |X_ij| < 2^e_j``, is exact (only the exponents change), and
    the moments of the rescaled data fold back exactly: ``m = S m'``, ``Sigma = S
    Sigma' S`` with ``S = diag(s)``.

    Returns
    -------
    scales : ndarray of shape (n_features,) or None
        None when every feature already lies in a safe range (nothing to do).
    """
    largest = np.max(np.abs(X), axis=0).astype(np.float64) if X.shape[0] else None
    if largest is None:
        return None
    _, exponents = np.frexp(largest)
    unsafe = (largest > 0) & (np.abs(exponents) > _SCALE_LIMIT)
    if not unsafe.any():
        return None
    return np.ldexp(1.0, np.where(largest > 0, exponents, 0))


def scaled_copy(X, scales):
    """``X / scales`` in a new float64 array (exact: the scales are powers of two)."""
    return np.divide(X, scales, dtype=np.float64)


def fold_covariance(name, covariance, scales):
    """``S Sigma' S``: a covariance of rescaled features in the units of ``X``.

    The model is fitted on rescaled features; a covariance in the units of ``X``
    (features near 1e200 have variances near 1e400) may not be representable, and
    is then refused rather than stored as infinity or zero.
    """
    with np.errstate(over="ignore", under="ignore"):
        folded = covariance * scales[:, np.newaxis] * scales[np.newaxis, :]
    variances = np.diagonal(folded, axis1=-2, axis2=-1)
    before = np.diagonal(covariance, axis1=-2, axis2=-1)
    if not np.all(np.isfinite(folded)) or np.any((variances == 0) & (before > 0)):
        size = "large" if not np.all(np.isfinite(folded)) else "small"
        raise ValueError(
            f"The features of X are too {size} to represent {name} in float64: the "
            "variances would leave the floating-point range. Rescale the features "
            "(for example divide each by its standard deviation)."
        )
    return folded


def check_deviations(deviations):
    """Refuse within-class deviations whose squares leave the float64 range.

    A scatter matrix sums ``n`` squares; it stays finite and meaningful when every
    deviation ``|x - m_k|`` lies between ``sqrt(tiny)`` and ``sqrt(max / n)``.  Beyond
    that (features around 1e150 or 1e-155) the covariance would overflow to infinity or
    underflow to zero, so the data must be rescaled first.  An infinite or NaN
    deviation (from a class mean that overflowed) is refused as well.
    """
    largest = max(np.max(deviations), -np.min(deviations))
    too_large = not largest <= np.sqrt(np.finfo(np.float64).max / deviations.shape[0])
    too_small = 0.0 < largest < np.sqrt(np.finfo(np.float64).tiny)
    if too_large or too_small:
        size = "large" if too_large else "small"
        by = (
            f"by up to {largest:.3g}"
            if np.isfinite(largest)
            else "by more than float64 holds"
        )
        raise ValueError(
            f"The features of X are too {size} for a covariance estimate in float64: "
            f"the samples differ from their class means {by}, whose "
            "squares leave the floating-point range. Rescale the features (for "
            "example divide each by its standard deviation)."
        )


def scoring_dtype(dtype, *parameters):
    """The dtype to score data of ``dtype`` in: its own when the fitted parameters
    fit in it, else float64.

    float32 data is scored in float32, but a parameter beyond the float32 range
    (the inverse standard deviations of features around 1e-38, float32's smallest
    normal numbers) would become infinite there.
    """
    limit = np.finfo(dtype).max
    if all(np.max(np.abs(values)) < limit for values in parameters):
        return dtype
    return np.dtype(np.float64)

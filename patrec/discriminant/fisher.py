"""Multiclass Fisher linear discriminant analysis (LDA).

Fisher's criterion looks for the projection ``y = W^T x`` that spreads the class means
apart while keeping each class compact.  With class means m_k, n_k samples per class
and the overall mean m, the course defines

    within-class scatter   S_w = sum_k sum_{x in omega_k} (x - m_k)(x - m_k)^T
    between-class scatter  S_b = sum_k n_k (m_k - m)(m_k - m)^T

and the projection maximises ``J(W) = |W^T S_b W| / |W^T S_w W|``.  Its columns are the
leading eigenvectors of the generalised eigenproblem ``S_b w = lambda S_w w``; since
S_b has rank at most c - 1, there are at most c - 1 useful directions.

The same statistics make a classifier: model every class as a Gaussian with its own
mean m_k and one shared covariance ``Sigma = S_w / n`` (the maximum-likelihood pooled
estimate), and pick the class with the largest

    g_k(x) = m_k^T Sigma^{-1} x - 1/2 m_k^T Sigma^{-1} m_k + log P(omega_k),

a linear function of x.  Dividing both scatter matrices by n changes neither the
eigenvectors' directions nor the eigenvalues, so the course's S_w / S_b and these
covariances give the same projection.
"""

import numbers

import numpy as np
from scipy import linalg

from .._validation import (
    check_class_weights,
    check_flag,
    check_option,
    check_scalar,
    plain,
    unit_scaled_weights,
)
from ..base import BaseEstimator, ClassifierMixin, WeightedFitMixin
from ._bayes_rule import BayesRuleMixin
from ._statistics import (
    check_deviations,
    check_priors,
    cholesky_or_none,
    class_means,
    feature_scales,
    fold_covariance,
    ledoit_wolf_covariance,
    scaled_copy,
    scoring_dtype,
    shrink,
)

__all__ = ["FisherLDA"]

# The fast path of the 'svd' solver takes the eigen-decomposition of the d x d
# within-class correlation matrix instead of the SVD of the n x d data.  It is used
# when the smallest eigenvalue is at least this fraction of the largest, where its
# singular values are accurate to about 1e-10 relative.
_WELL_CONDITIONED = 1e-6


class FisherLDA(BayesRuleMixin, WeightedFitMixin, ClassifierMixin, BaseEstimator):
    """Multiclass Fisher linear discriminant: projection and Gaussian classifier.

    ``transform`` projects onto the at most c - 1 directions that solve Fisher's
    generalised eigenproblem ``S_b w = lambda S_w w``.  ``predict`` assigns a sample
    to the class with the largest linear discriminant of the Gaussian model with one
    covariance shared by all classes.

    Parameters
    ----------
    n_components : int, default=None
        Number of directions returned by ``transform``, at most
        ``min(n_classes - 1, n_features)`` (the default).  It does not change the
        classifier.
    solver : {"svd", "eigen"}, default="svd"
        ``"eigen"`` solves ``S_b w = lambda S_w w`` with `scipy.linalg.eigh`, as in
        the course; it needs a non-singular S_w (or ``shrinkage``).  ``"svd"`` first
        whitens the within-class scatter with a singular value decomposition and drops
        the directions whose singular value is below ``tol``, so it also works when
        S_w is singular (fewer samples than features, constant or collinear
        features).  Both give the same classifier when S_w is non-singular.
    shrinkage : None, "auto" or float in [0, 1], default=None
        Regularises the shared covariance (``solver="eigen"`` only).  A number ``a``
        gives ``(1 - a) Sigma + a (trace(Sigma) / d) I``; ``"auto"`` shrinks every
        class covariance by the Ledoit–Wolf intensity (on standardised features)
        before pooling them.
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities P(omega_k) in the order of ``classes_``.  Positive and
        summing to 1; None uses the class frequencies of the training data.
    tol : float, default=1e-4
        ``solver="svd"`` only: singular values of the standardised within-class data
        below ``tol`` count as zero (the rank of S_w).
    store_covariance : bool, default=False
        ``solver="svd"`` only: also keep the shared covariance in ``covariance_``
        (the ``"eigen"`` solver always keeps it).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    priors_ : ndarray of shape (n_classes,)
        The class priors used.
    means_ : ndarray of shape (n_classes, n_features)
        The class means m_k.
    covariance_ : ndarray of shape (n_features, n_features)
        The shared covariance ``S_w / n`` (after shrinkage): with ``solver="eigen"``,
        or ``"svd"`` and ``store_covariance=True``.
    xbar_ : ndarray of shape (n_features,)
        ``solver="svd"`` only: the prior-weighted mean of the class means, the origin
        of ``transform``.
    scalings_ : ndarray of shape (n_features, n_directions)
        The discriminant directions, best first.  For ``"eigen"`` all ``n_features``
        generalised eigenvectors, scaled so that ``scalings_.T @ covariance_ @
        scalings_`` is the identity; for ``"svd"`` the (at most c - 1) directions in
        the span of the class means, with the same scaling.
    explained_variance_ratio_ : ndarray of shape (n_components,)
        Share of the between-class variance along each of the first
        ``n_components`` directions (``min(n_classes - 1, n_features)`` when None):
        the eigenvalues lambda divided by their sum over all directions.
    n_components_ : int
        Number of columns ``transform`` returns.
    coef_ : ndarray of shape (n_classes, n_features) or (1, n_features)
        Weights of the linear discriminants ``g_k(x) = coef_[k] @ x + intercept_[k]``
        (for two classes, one row: g_1 - g_0).
    intercept_ : ndarray of shape (n_classes,) or (1,)
        Their constant terms.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Column names, when ``X`` was a data frame with string column names.

    See Also
    --------
    QDA : One covariance per class, quadratic boundaries.

    Notes
    -----
    The shared covariance is the pooled maximum-likelihood estimate
    ``Sigma = S_w / n = sum_k (n_k / n) Sigma_k`` with Sigma_k the biased covariance
    of class k; the between-class matrix is ``sum_k P(omega_k) (m_k - m)(m_k - m)^T``
    with ``m = sum_k P(omega_k) m_k``, which is ``S_b / n`` for the default priors.
    With the default priors both solvers give the same classifier and projection as
    scikit-learn's ``LinearDiscriminantAnalysis``, save that with ``shrinkage`` only
    the within-class covariance is shrunk: scikit-learn's ``"eigen"`` solver takes the
    between-class matrix as shrunk ``S_t`` minus shrunk ``S_w``, so its ``transform``
    and ``explained_variance_ratio_`` differ there (its predictions do not); no
    setting reproduces them.  With other priors scikit-learn's
    ``"eigen"`` solver weights the class covariances by the priors; here (and in
    scikit-learn's ``"svd"`` solver) the covariance estimate never depends on the
    priors.  For more than two classes both solvers take the discriminants relative
    to the prior-weighted mean of the class means c, as scikit-learn's ``"svd"``
    solver does: ``coef_[k] = Sigma^{-1} (m_k - c)``.  scikit-learn's ``"eigen"``
    solver uses ``Sigma^{-1} m_k``; the two differ by the same row for every class, so
    predictions and probabilities are the same.  Scoring ``x - c`` keeps
    ``decision_function`` accurate when the features sit far from zero.

    The ``"svd"`` solver standardises the within-class deviations, whitens them with
    their singular value decomposition (rank decided by ``tol``) and then takes the
    SVD of the whitened, prior-weighted class means.  When the within-class
    correlation matrix is well conditioned its eigen-decomposition gives the same
    singular values faster, and that route is taken.

    ``sample_weight`` gives frequency weights: sample i counts w_i times in every
    estimate.  The class means become ``sum_i w_i x_i / W_k`` with W_k the class's
    total weight, the pooled covariance ``sum_i w_i (x_i - m_k)(x_i - m_k)^T / W``
    with W the total weight, and the default priors ``W_k / W``.  Integer weights
    therefore give exactly the model fitted on the samples repeated that many
    times, and a zero weight is the same as leaving the sample out.  Every estimate
    is a ratio of weighted sums, so multiplying all weights by a constant changes
    nothing, except with ``shrinkage="auto"``: the Ledoit–Wolf intensity depends on
    the number of samples, which the total weight stands for.

    Fitting costs O(n d^2 + d^3); ``predict`` costs O(n d c).

    References
    ----------
    .. [1] R. O. Duda, P. E. Hart and D. G. Stork, *Pattern Classification*, 2nd ed.,
       Wiley, 2001, sections 2.6 and 3.8.3.
    .. [2] T. Hastie, R. Tibshirani and J. Friedman, *The Elements of Statistical
       Learning*, 2nd ed., Springer, 2009, section 4.3.

    Examples
    --------
    >>> from patrec import FisherLDA
    >>> X = [[-1, -1], [-2, -1], [-3, -2], [1, 1], [2, 1], [3, 2]]
    >>> y = [1, 1, 1, 2, 2, 2]
    >>> clf = FisherLDA().fit(X, y)
    >>> clf.predict([[-0.8, -1]])
    array([1])
    >>> clf.transform([[-0.8, -1]]).shape
    (1, 1)
    """

    _PEER_PARAMETERS = {
        "covariance_estimator": "shrinkage= (a number, or 'auto' for Ledoit-Wolf)",
    }

    def __init__(
        self,
        n_components=None,
        solver="svd",
        shrinkage=None,
        priors=None,
        tol=1e-4,
        store_covariance=False,
    ):
        self.n_components = n_components
        self.solver = solver
        self.shrinkage = shrinkage
        self.priors = priors
        self.tol = tol
        self.store_covariance = store_covariance

    def _fit(self, X, codes, sample_weight=None):
        solver = check_option(self.solver, "solver", ("eigen", "svd"))
        shrinkage = self._check_shrinkage(solver)
        check_scalar(self.tol, "tol", numbers.Real, low=0, low_open=True)
        store_covariance = check_flag(self.store_covariance, "store_covariance")
        n_samples, n_features = X.shape
        n_classes = self.classes_.shape[0]
        weight_exponent = 0
        if sample_weight is not None:  # samples of weight zero do not count
            n_samples = int(
                check_class_weights(self.classes_, codes, sample_weight).sum()
            )
            # a power of two changes no estimate (ratios of weighted sums) and keeps
            # the sums in range; Ledoit-Wolf alone needs the true total (exponent)
            sample_weight, weight_exponent = unit_scaled_weights(sample_weight)
        if n_samples <= n_classes:
            raise ValueError(
                "The number of samples must be more than the number of classes: "
                "FisherLDA needs more samples than classes to estimate the "
                f"within-class scatter; got {n_samples} samples for {n_classes} classes."
            )
        max_components = min(n_classes - 1, n_features)
        if self.n_components is not None:
            check_scalar(self.n_components, "n_components", numbers.Integral, low=1)
            if self.n_components > max_components:
                raise ValueError(
                    f"n_components must be in [1, {max_components}], got "
                    f"{plain(self.n_components)!r}: n_components cannot be larger than "
                    f"min(n_features, n_classes - 1) = min({n_features}, "
                    f"{n_classes - 1})."
                )

        # features near 1e150 or 1e-150 would overflow or underflow the scatter
        # matrices: fit on features rescaled by powers of two, then fold back
        scales = feature_scales(X)
        if scales is not None:
            X = scaled_copy(X, scales)
        counts, means = class_means(X, codes, n_classes, sample_weight)
        self.priors_ = check_priors(self.priors, counts)
        self.means_ = means
        # the within-class deviations x - m_k, one row per sample
        deviations = means[codes]
        np.subtract(X, deviations, out=deviations)
        check_deviations(deviations)
        # weights: deviations.T @ deviations / total is sum_i w_i d_i d_i^T / W
        weights, total = None, float(X.shape[0])
        if sample_weight is not None:
            weights, total = sample_weight, float(counts.sum())
            deviations *= np.sqrt(sample_weight)[:, np.newaxis]
        if solver == "eigen":
            ratios = self._solve_eigen(
                deviations, codes, counts, shrinkage, weights, total, weight_exponent
            )
        else:
            self.xbar_ = self.priors_ @ means
            ratios = self._solve_svd(deviations, total, store_covariance)
        wanted = max_components if self.n_components is None else self.n_components
        self.explained_variance_ratio_ = ratios[:wanted]
        self.n_components_ = min(wanted, self.scalings_.shape[1])
        if scales is not None:
            self._fold_scales(scales)
        self._set_discriminants()

    def _fold_scales(self, scales):
        """Attributes fitted on ``X / scales`` expressed in the units of ``X``."""
        if hasattr(self, "covariance_"):
            self.covariance_ = fold_covariance("covariance_", self.covariance_, scales)
        self.means_ = self.means_ * scales
        if hasattr(self, "xbar_"):
            self.xbar_ = self.xbar_ * scales
        with np.errstate(over="ignore"):
            self.scalings_ = self.scalings_ / scales[:, np.newaxis]
        if not np.all(np.isfinite(self.scalings_)):  # features near 1e-308
            raise ValueError(
                "The features of X are too small to represent scalings_ in float64: "
                "the directions' coefficients, the inverse of the features' scale, "
                "would leave the floating-point range. Rescale the features (for "
                "example divide each by its standard deviation)."
            )

    def _set_discriminants(self):
        """``coef_`` and ``intercept_`` from the centred discriminants."""
        centre, weights, offsets = _centred_discriminants(
            self.means_, self.priors_, self.scalings_
        )
        if weights.shape[0] == 2:  # one function: g_1 - g_0
            weights = weights[1:] - weights[:1]
            offsets = offsets[1:] - offsets[:1]
        self.coef_ = weights
        self.intercept_ = offsets - weights @ centre

    def _check_shrinkage(self, solver):
        shrinkage = self.shrinkage
        if shrinkage is None:
            return None
        if solver != "eigen":
            raise ValueError(
                f"shrinkage={shrinkage!r} works only with solver='eigen'; the 'svd' "
                "solver handles a singular scatter matrix by dropping directions."
            )
        if isinstance(shrinkage, str):
            return check_option(shrinkage, "shrinkage", ("auto",))
        return check_scalar(shrinkage, "shrinkage", numbers.Real, low=0, high=1)

    def _solve_eigen(
        self, deviations, codes, counts, shrinkage, weights, n_samples, weight_exponent
    ):
        """Solve ``S_b w = lambda S_w w``; return the sorted eigenvalue ratios.

        ``deviations`` are scaled by the square roots of the ``weights`` (when given)
        and ``n_samples`` is their total; the weights are the caller's divided by
        ``2**weight_exponent``.
        """
        n_features = deviations.shape[1]
        if shrinkage == "auto":
            covariance = np.zeros((n_features, n_features))
            for k, count in enumerate(counts):
                inside = codes == k
                if weights is None:
                    class_covariance = ledoit_wolf_covariance(deviations[inside])
                else:  # unscaled deviations, weighted inside the estimate
                    keep = inside & (weights > 0)
                    class_covariance = ledoit_wolf_covariance(
                        deviations[keep] / np.sqrt(weights[keep])[:, np.newaxis],
                        weights[keep],
                        weight_exponent,
                    )
                covariance += count / n_samples * class_covariance
        else:
            covariance = deviations.T @ deviations / n_samples  # S_w / n
            if shrinkage is not None:
                covariance = shrink(covariance, shrinkage)
        factor, feature = cholesky_or_none(covariance)
        if factor is None:
            raise ValueError(
                "The within-class scatter matrix S_w is singular, so "
                "S_b w = lambda S_w w has no unique solution: the feature at index "
                f"{feature} is constant within the classes or a linear combination of "
                "other features (this is always so when n_samples - n_classes < "
                "n_features). Use solver='svd', or solver='eigen' with "
                "shrinkage='auto' or a shrinkage in (0, 1]."
            )
        centred_means = self.means_ - self.priors_ @ self.means_
        between = (centred_means.T * self.priors_) @ centred_means  # S_b / n
        eigenvalues, eigenvectors = linalg.eigh(between, covariance)
        order = np.argsort(eigenvalues)[::-1]
        self.covariance_ = covariance
        self.scalings_ = eigenvectors[:, order]
        return _ratios(eigenvalues[order])

    def _solve_svd(self, deviations, n_samples, store_covariance):
        """Whiten S_w by SVD, then find the directions among the class means.

        ``n_samples`` is the total weight of the (square-root weighted) deviations.
        """
        n_classes = self.means_.shape[0]
        covariance = deviations.T @ deviations / n_samples  # S_w / n
        if store_covariance:
            self.covariance_ = covariance
        scale = np.sqrt(np.diag(covariance))
        scale[scale == 0.0] = 1.0
        singular_values, directions = _standardised_svd(
            deviations, covariance, scale, n_samples
        )
        rank = int(np.sum(singular_values > self.tol))
        if rank == 0:
            raise ValueError(
                "FisherLDA found no within-class variation: no singular value of the "
                f"standardised within-class data exceeds tol={self.tol}. Either every "
                "sample equals its class mean, or tol is too large (those singular "
                "values are at most sqrt(n_features))."
            )
        # whitening: whitening.T @ (S_w / n) @ whitening is the identity
        whitening = (directions[:rank] / scale).T / singular_values[:rank]
        weights = np.sqrt(n_samples * self.priors_ / (n_classes - 1))
        centres = (weights[:, np.newaxis] * (self.means_ - self.xbar_)) @ whitening
        _, between_values, between_directions = linalg.svd(centres, full_matrices=False)
        kept = int(np.sum(between_values > self.tol * between_values[0]))
        self.scalings_ = whitening @ between_directions[:kept].T
        return _ratios(between_values**2)

    def transform(self, X):
        """Project ``X`` onto the Fisher directions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The samples to project.

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
            ``X @ scalings_`` (``"eigen"``) or ``(X - xbar_) @ scalings_`` (``"svd"``),
            first ``n_components_`` columns.
        """
        X = self._validate_X(X)
        scalings = self.scalings_[:, : self.n_components_]
        dtype = scoring_dtype(X.dtype, scalings)
        X, scalings = X.astype(dtype, copy=False), scalings.astype(dtype)
        if hasattr(self, "xbar_"):  # fitted with solver="svd"
            return (X - self.xbar_.astype(dtype)) @ scalings
        return X @ scalings

    def fit_transform(self, X, y, sample_weight=None):
        """Fit to ``X`` and ``y``, then project ``X`` onto the Fisher directions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels.

        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights of the samples (see Notes); equal weights when None.

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
            ``fit(X, y, sample_weight).transform(X)``.
        """
        return self.fit(X, y, sample_weight).transform(X)

    def get_feature_names_out(self, input_features=None):
        """Name the columns of ``transform``: ``"fisherlda0"``, ``"fisherlda1"``...

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Ignored: the output columns are new directions, not input features.

        Returns
        -------
        feature_names_out : ndarray of str objects, shape (``n_components_``,)
        """
        self._check_is_fitted()
        return np.asarray(
            [f"fisherlda{i}" for i in range(self.n_components_)], dtype=object
        )

    def __sklearn_tags__(self):
        from sklearn.utils import TransformerTags  # only scikit-learn calls this

        tags = super().__sklearn_tags__()
        tags.transformer_tags = TransformerTags(preserves_dtype=["float64", "float32"])
        return tags

    def _class_scores(self, X):
        """``g_k(x)`` for every sample and class, shape (n_samples, n_classes)."""
        X = self._validate_X(X)
        centre, weights, offsets = _centred_discriminants(
            self.means_, self.priors_, self.scalings_
        )
        dtype = scoring_dtype(X.dtype, weights)
        centred = X.astype(dtype, copy=False) - centre.astype(dtype)
        return centred @ weights.T.astype(dtype) + offsets


def _centred_discriminants(means, priors, scalings):
    """The linear discriminants g_k, written relative to the centre c of the data.

    ``g_k(x) = w_k^T (x - c) + b_k`` with c the prior-weighted mean of the class
    means, ``w_k = Sigma^{-1} (m_k - c)`` and ``b_k = -1/2 (m_k - c)^T Sigma^{-1}
    (m_k - c) + log P(omega_k)`` equals the g_k of the module docstring up to a term
    shared by all classes; ``Sigma^{-1} = scalings @ scalings.T`` on the directions
    kept.  Scoring ``x - c`` instead of ``x`` keeps the numbers small when the
    features sit far from zero (an offset of 1e8, or 1e4 in float32), where ``coef_
    @ x + intercept_`` would cancel away every digit.  It costs O(c d r) for r
    directions, little next to scoring the samples.

    Returns
    -------
    centre : ndarray of shape (n_features,)
    weights : ndarray of shape (n_classes, n_features)
    offsets : ndarray of shape (n_classes,)
    """
    centre = priors @ means
    projected = (means - centre) @ scalings
    weights = projected @ scalings.T
    offsets = -0.5 * np.sum(projected**2, axis=1) + np.log(priors)
    return centre, weights, offsets


def _ratios(values):
    """``values / values.sum()``, or zeros when everything is zero."""
    total = values.sum()
    return values / total if total > 0 else np.zeros_like(values)


def _standardised_svd(deviations, covariance, scale, n_samples):
    """Singular values (descending) and right singular vectors (rows) of
    ``A = deviations / (scale * sqrt(n))``, the standardised within-class data
    (``n``: ``n_samples``, the total weight).

    ``A^T A`` is the within-class correlation matrix ``covariance / (scale scale^T)``.
    When it is well conditioned its eigen-decomposition (O(d^3) once the covariance
    is known) is accurate enough and is used; otherwise the SVD of A itself
    (O(n d^2), accurate however small the singular values) is taken.
    """
    correlation = covariance / np.outer(scale, scale)
    eigenvalues, eigenvectors = linalg.eigh(correlation)
    if eigenvalues[0] >= _WELL_CONDITIONED * eigenvalues[-1] > 0:
        return np.sqrt(eigenvalues[::-1]), eigenvectors[:, ::-1].T
    A = deviations / (scale * np.sqrt(n_samples))
    _, singular_values, right = linalg.svd(A, full_matrices=False)
    return singular_values, right

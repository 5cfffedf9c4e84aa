"""What the linear classifiers of this package share.

- `row_storage` hands a validated dense or CSR matrix to the Cython loops (see
  ``_kernels.pxd``) without copying the feature values;
- `epoch_orders` draws the visiting order of each training epoch;
- `check_epoch` and `check_finite_weights` turn an overflow into a clear error;
- `ArgmaxClassifierMixin` predicts the class of the largest ``decision_function``
  value; `LinearClassifierMixin` adds ``decision_function`` from ``coef_`` /
  ``intercept_``: the scores g_r(x) = w_r . x + b_r.
"""
import numbers

import numpy as np
import scipy.sparse as sp

from .._validation import check_random_state, check_scalar
from ..base import decision_from_scores

_NO_INDEX = np.empty(0, dtype=np.intp)


def row_storage(X):
    """``(values, columns, row_starts)`` for the loops.

    A CSR matrix gives its data and its index arrays as ``intp``; a dense
    C-contiguous matrix gives its flattened values (a view) and two empty arrays.
    """
    if sp.issparse(X):
        return (X.data, np.asarray(X.indices, dtype=np.intp),
                np.asarray(X.indptr, dtype=np.intp))
    return X.reshape(-1), _NO_INDEX, _NO_INDEX


def epoch_orders(n_samples, shuffle, random_state):
    """Yield, epoch after epoch, the order in which the rows are visited.

    With ``shuffle`` every epoch gets a fresh permutation drawn from
    ``random_state``; otherwise the rows are visited in their given order.
    """
    shuffle = check_flag(shuffle, "shuffle")
    rng = check_random_state(random_state)
    in_order = np.arange(n_samples, dtype=np.intp)
    while True:
        yield rng.permutation(n_samples).astype(np.intp) if shuffle else in_order


def check_epoch(count, X):
    """The count returned by an epoch loop, or a ValueError when it reports (with -1)
    that a score w . x overflowed float64."""
    if count < 0:
        raise ValueError(
            "The scores w . x overflowed float64 during training: the features are too "
            f"large (largest |x| = {_largest_magnitude(X):.3g}). Scale them first, for "
            "example with sklearn.preprocessing.StandardScaler."
        )
    return count


def check_finite_weights(weights, X, remedy="scale the features first"):
    """Raise a ValueError when the learned weights overflowed float64."""
    if not np.isfinite(weights).all():
        raise ValueError(
            "The weights overflowed float64 during training (largest |x| = "
            f"{_largest_magnitude(X):.3g}): {remedy}."
        )
    return weights


def _largest_magnitude(X):
    values = X.data if sp.issparse(X) else X
    return float(np.abs(values).max()) if values.size else 0.0


def check_epochs(max_epochs):
    """Validate ``max_epochs``, a positive integer."""
    return check_scalar(max_epochs, "max_epochs", numbers.Integral, low=1)


def check_flag(value, name):
    """Validate a True/False parameter."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}.")
    return bool(value)


def linear_scores(X, coef, intercept):
    """``X @ coef.T + intercept`` in the precision of ``X`` (dense or CSR)."""
    dtype = X.dtype if X.dtype in (np.float32, np.float64) else np.float64
    with np.errstate(over="ignore", invalid="ignore"):
        scores = np.asarray(X @ coef.T.astype(dtype, copy=False))
        scores = scores + intercept.astype(dtype, copy=False)
        if dtype == np.float32 and not np.isfinite(scores).all():
            # float32 data near 1e19 and weights of the same size: go to float64
            X = X.astype(np.float64)
            scores = np.asarray(X @ coef.T) + intercept
    if not np.isfinite(scores).all():
        raise ValueError(
            "The scores w . x + b overflow float64: the features of X are too large "
            "for this model's weights. Rescale the features (as for training)."
        )
    return scores



class ArgmaxClassifierMixin:
    """``predict``: the class with the largest ``decision_function`` value (for two
    classes, ``classes_[1]`` when the single score is positive)."""

    _accept_sparse = True

    def predict(self, X):
        """The predicted class labels.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Predicted class labels.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self._labels_from_scores(scores)


class LinearClassifierMixin(ArgmaxClassifierMixin):
    """``decision_function`` for k discriminants g_r(x) = w_r . x + b_r; ``predict``
    takes the argmax.

    A subclass sets ``coef_`` of shape (n_classes, n_features) and ``intercept_`` of
    shape (n_classes,) — or, for a binary model, shape (1, n_features) and (1,) with
    the positive side meaning ``classes_[1]``.
    """

    def decision_function(self, X):
        """Scores of the discriminants g_r(x) = w_r . x + b_r.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        scores : ndarray of shape (n_samples, n_classes) or (n_samples,)
            For two classes a single column: positive means ``classes_[1]``.
        """
        X = self._validate_X(X, accept_sparse=True)
        scores = linear_scores(X, self.coef_, self.intercept_)
        if scores.shape[1] == 1:
            return scores[:, 0]
        return decision_from_scores(scores)

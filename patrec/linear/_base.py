"""What the linear classifiers of this package share for prediction.

`ArgmaxClassifierMixin` predicts the class of the largest ``decision_function``
value; `LinearClassifierMixin` adds ``decision_function`` from ``coef_`` /
``intercept_``: the scores g_r(x) = w_r . x + b_r.  What the training loops share
with the piecewise-linear machine lives in `patrec._training`.
"""

import numpy as np

from .._training import linear_scores
from ..base import decision_from_scores


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

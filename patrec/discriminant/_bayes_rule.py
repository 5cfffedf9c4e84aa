"""Bayes' decision rule from per-class discriminants, shared by `FisherLDA` and `QDA`.

Both models give, for every sample x and class omega_i, a discriminant g_i(x) equal to
``log(P(omega_i) p(x | omega_i))`` up to a term that is the same for every class.  From
those scores follow the decision (the largest g_i), the posteriors (a softmax of the
g_i) and, for two classes, the log-odds ``g_1 - g_0``.
"""

import numpy as np

from ..base import decision_from_scores

__all__ = ["BayesRuleMixin", "log_softmax"]


class BayesRuleMixin:
    """``decision_function``, ``predict`` and the posteriors from ``_class_scores``.

    A subclass implements ``_class_scores(X)``: it validates ``X`` and returns the
    discriminants g_i(x), an array of shape (n_samples, n_classes).
    """

    def _class_scores(self, X):
        raise NotImplementedError

    def decision_function(self, X):
        """The discriminants g_i(x) of every class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The samples to classify.

        Returns
        -------
        scores : ndarray of shape (n_samples, n_classes) or (n_samples,)
            The g_i(x); each differs from ``log P(omega_i | x)`` by a term that is the same for
            every class.  With two classes, ``g_1(x) - g_0(x)`` per sample: the
            log-odds of ``classes_[1]`` (positive means ``classes_[1]``).
        """
        return decision_from_scores(self._class_scores(X))

    def predict(self, X):
        """The class with the largest discriminant g_i(x) for each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The samples to classify.

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Labels from ``classes_`` (the first such class on an exact tie).
        """
        return self._labels_from_scores(self._class_scores(X))

    def predict_log_proba(self, X):
        """Log posteriors ``log P(omega_i | x) = g_i(x) - log sum_j exp g_j(x)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The samples to classify.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
        """
        return log_softmax(self._class_scores(X))

    def predict_proba(self, X):
        """Posterior probabilities ``P(omega_i | x)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The samples to classify.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Each row sums to one.
        """
        return np.exp(self.predict_log_proba(X))


def log_softmax(scores):
    """``log(exp(s_i) / sum_j exp(s_j))`` per row, with the row maximum subtracted first
    so that no exponential overflows (the log-sum-exp trick)."""
    shifted = scores - scores.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))

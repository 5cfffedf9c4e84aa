"""One-versus-all: k binary problems, combined by the fusion rule.

Problem r relabels the data +1 for class r and -1 for every other class and trains a
binary linear model with weights (w_r, b_r).  A sample goes to the class whose model
gives the largest signed distance to its boundary,

    y = argmax_r (w_r . x + b_r) / ||w_r||,

the fusion rule.  Dividing by the norm of the feature-touching part w_r turns each raw
score into a distance, so that models trained to different scales compare fairly.
"""

import numpy as np

from .._validation import check_flag
from ..base import BaseEstimator, ClassifierMixin, decision_from_scores
from ._base import ArgmaxClassifierMixin
from ._reduction import binary_scores, check_binary_estimator, fit_binary, score_scales

__all__ = ["OneVsAll"]


class OneVsAll(ArgmaxClassifierMixin, ClassifierMixin, BaseEstimator):
    """One-versus-all reduction with the fusion rule.

    Parameters
    ----------
    estimator : binary classifier, default=None
        Cloned for each class; it needs ``fit`` and ``decision_function`` (any patrec
        or scikit-learn binary classifier).  ``None`` means
        ``Perceptron(averaged=True, random_state=0)``.
    normalize : bool, default=True
        Divide each model's score by the norm of its ``coef_`` (the fusion rule).
        The base estimator must then expose ``coef_``.

    Attributes
    ----------
    estimators_ : list of n_classes estimators
        Model r separates class r (+1) from the rest (-1).
    scales_ : ndarray of shape (n_classes,)
        The factors 1 / ||w_r|| applied to the scores (ones when not normalising).
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    AllPairs, OutputCodes, LinearMachine

    Notes
    -----
    Training costs k binary fits on all n_samples rows; prediction k scorings.
    A linear one-vs-all cannot separate some data a linear machine separates, e.g.
    three sectors of a disc meeting at its centre: no line splits one sector from
    the other two.

    References
    ----------
    .. [1] J. Watt, R. Borhani and A. K. Katsaggelos, *Machine Learning Refined*,
       Cambridge University Press, section 7.2 (one-versus-all and the fusion rule).
    .. [2] R. Rifkin and A. Klautau, "In defense of one-vs-all classification", JMLR 5,
       2004.

    Examples
    --------
    >>> from patrec import OneVsAll
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> clf = OneVsAll().fit(X, ["a", "a", "b", "b", "c", "c"])
    >>> clf.predict([[7, 0], [0, 7]]).tolist()
    ['b', 'c']
    """

    _PEER_PARAMETERS = {
        "n_jobs": "none: the binary models are fitted one after the other",
        "verbose": "the binary estimator's own verbose",
    }

    def __init__(self, estimator=None, *, normalize=True):
        self.estimator = estimator
        self.normalize = normalize

    def _fit(self, X, codes):
        base = check_binary_estimator(self.estimator)
        normalize = check_flag(self.normalize, "normalize")
        self.estimators_ = [
            fit_binary(base, X, np.where(codes == r, 1, -1))
            for r in range(len(self.classes_))
        ]
        self.scales_ = score_scales(self.estimators_, normalize)

    def decision_function(self, X):
        """The (normalised) score of each class's model.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples, n_classes) or (n_samples,)
            For two classes, the difference of the two scores (positive means
            ``classes_[1]``).
        """
        X = self._validate_X(X, accept_sparse=True)
        return decision_from_scores(binary_scores(self.estimators_, X) * self.scales_)

"""All pairs: one binary problem for each pair of classes.

For each pair of classes i < r a binary model f_ir is trained on the rows of classes
i (+1) and r (-1) only; f_ri = -f_ir.  A sample goes to

    argmax_i sum_{r != i} f_ir(x)                 (summed scores, the course's rule)

or, with ``decision="vote"``, to the class that wins the most pairwise contests.
"""

import numpy as np

from .._validation import check_flag, check_option
from ..base import BaseEstimator, ClassifierMixin, decision_from_scores
from ._base import ArgmaxClassifierMixin
from ._reduction import binary_scores, check_binary_estimator, fit_binary, score_scales

__all__ = ["AllPairs"]


class AllPairs(ArgmaxClassifierMixin, ClassifierMixin, BaseEstimator):
    """All-pairs (one-versus-one) reduction: c (c - 1) / 2 binary models for c classes.

    Parameters
    ----------
    estimator : binary classifier, default=None
        Cloned for each pair; it needs ``fit`` and ``decision_function``.  ``None``
        means ``Perceptron(averaged=True, random_state=0)``.
    decision : {"sum", "vote"}, default="sum"
        ``"sum"``: the class i with the largest sum_{r != i} f_ir(x).  ``"vote"``: the
        class winning the most pairs (a score of exactly 0 gives half a vote to each);
        ties between votes go to the larger summed score.
    normalize : bool, default=True
        Divide each pairwise score by the norm of its model's ``coef_``, making it
        the signed distance to that model's boundary (as in `OneVsAll`).  This is an
        addition to the course's rule: with perceptrons, whose weights grow with
        every mistake, the models that trained longest would otherwise dominate the
        sums (standardised iris, 5-fold accuracy: 0.92 normalised, 0.63 raw).
        ``normalize=False`` gives the course's rule on raw scores exactly and is
        needed for base estimators without ``coef_`` (kernel SVMs, trees).

    Attributes
    ----------
    estimators_ : list of n_classes * (n_classes - 1) / 2 estimators
        The model of pair ``pairs_[p]``.
    pairs_ : ndarray of shape (n_pairs, 2)
        The class indices (i, r), i < r, of each model: +1 means class i.
    scales_ : ndarray of shape (n_pairs,)
        The factors 1 / ||w_ir|| applied to the scores (ones when not normalising).
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    OneVsAll, OutputCodes

    Notes
    -----
    Each row takes part in c - 1 of the problems, so training sees about
    (c - 1) n_samples rows in total; prediction needs c (c - 1) / 2 scorings.

    References
    ----------
    .. [1] E. L. Allwein, R. E. Schapire and Y. Singer, "Reducing multiclass to
       binary: a unifying approach for margin classifiers", JMLR 1, 2000.

    Examples
    --------
    >>> from patrec import AllPairs
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> clf = AllPairs().fit(X, [0, 0, 1, 1, 2, 2])
    >>> clf.predict([[0.5, 0], [7, 0], [0, 7]]).tolist()
    [0, 1, 2]
    """

    _PEER_PARAMETERS = {
        "n_jobs": "none: the binary models are fitted one after the other",
    }

    def __init__(self, estimator=None, *, decision="sum", normalize=True):
        self.estimator = estimator
        self.decision = decision
        self.normalize = normalize

    def _fit(self, X, codes):
        base = check_binary_estimator(self.estimator)
        check_option(self.decision, "decision", ("sum", "vote"))
        normalize = check_flag(self.normalize, "normalize")
        n_classes = len(self.classes_)
        self.pairs_ = np.array(
            [(y, r) for y in range(n_classes) for r in range(y + 1, n_classes)],
            dtype=np.intp,
        )
        self.estimators_ = []
        for y, r in self.pairs_:
            rows = np.flatnonzero((codes == y) | (codes == r))
            signs = np.where(codes[rows] == y, 1, -1)
            self.estimators_.append(fit_binary(base, X[rows], signs))
        self.scales_ = score_scales(self.estimators_, normalize)

    def decision_function(self, X):
        """Summed pairwise scores, or votes (ties broken by the summed scores).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples, n_classes) or (n_samples,)
            For two classes a single column: positive means ``classes_[1]``.
        """
        X = self._validate_X(X, accept_sparse=True)
        check_option(self.decision, "decision", ("sum", "vote"))
        F = binary_scores(self.estimators_, X) * self.scales_
        n_classes = len(self.classes_)
        sums = np.zeros((X.shape[0], n_classes))
        np.add.at(sums.T, self.pairs_[:, 0], F.T)
        np.add.at(sums.T, self.pairs_[:, 1], -F.T)
        if self.decision == "sum":
            return decision_from_scores(sums)
        wins = np.sign(F) * 0.5 + 0.5  # 1 for y, 0 for r, 1/2 on a tie
        votes = np.zeros_like(sums)
        np.add.at(votes.T, self.pairs_[:, 0], wins.T)
        np.add.at(votes.T, self.pairs_[:, 1], 1.0 - wins.T)
        # squash the sums into (-1/4, 1/4): they order equal votes, never others
        return decision_from_scores(votes + sums / (4.0 * (np.abs(sums) + 1.0)))

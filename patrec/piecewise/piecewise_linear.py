"""The piecewise-linear machine, trained by the subclass error-correction rule.

Class omega_i is split into l_i subclasses and subclass l has an augmented weight
vector a_i^l, a linear discriminant a_i^l . y of the augmented sample
y = (x, 1).  A class scores the best of its subclasses and the machine predicts the
best class:

    g_i(x) = max_l a_i^l . y,        class(x) = argmax_i g_i(x).

Training corrects mistakes one sample at a time.  For a sample y of class i let m be
its best subclass of class i.  When a_i^m . y beats every subclass of every other
class, nothing changes; otherwise let n be the highest-scoring subclass of another
class r and move both, with step rho:

    a_i^m <- a_i^m + rho y,      a_r^n <- a_r^n - rho y.

Epochs repeat until one makes no correction.  With one subclass per class this is
exactly the linear machine's "winner" rule.  The weights start at
``a = (m, -|m|^2 / 2)`` for k-means subclass means m, which is the minimum-distance
classifier over those means, so training starts from that classifier and corrects
it.  The loop is ``_piecewise_linear.piecewise_linear_epoch``, driven by
`patrec._training.run_epochs`.
"""

import numpy as np

from .._training import (
    EpochTrainerMixin,
    MulticlassEpochs,
    check_epochs,
    check_finite_weights,
    linear_scores,
)
from .._validation import check_flag, check_option, check_random_state, check_scalar
from ..base import BaseEstimator, ClassifierMixin, decision_from_scores
from ._piecewise_linear import piecewise_linear_epoch
from ._subclasses import subclass_counts, subclass_means

__all__ = ["PiecewiseLinearClassifier"]


class PiecewiseLinearClassifier(EpochTrainerMixin, ClassifierMixin, BaseEstimator):
    """Piecewise-linear machine: each class scores its best of several linear pieces.

    The discriminant of class i is g_i(x) = max_l a_i^l . (x, 1) over its
    subclasses l, and a sample goes to the class with the largest g_i.  Training
    visits the samples in turn and, for each mistake, pulls the sample's best
    subclass of its own class towards it and pushes the best subclass of the other
    classes away (the error-correction rule of the course, section 4.4).

    Parameters
    ----------
    n_subclasses : int or dict, default=2
        Subclasses (linear pieces) per class.  A dict maps class labels to counts
        (classes not in it get 1).  A count may not exceed the number of samples of
        its class.
    init : {"kmeans", "zeros"}, default="kmeans"
        Starting weights.  ``"kmeans"``: ``a = (m, -|m|^2 / 2)`` for the k-means
        means m of each class (`scipy.cluster.vq.kmeans2`, k-means++ seeding), so
        the untrained machine is the `MinimumDistanceClassifier` over those means.
        ``"zeros"``: all weights zero, as the linear machine starts; the subclasses
        of a class then differ only through the order of the corrections.
    learning_rate : float, default=1.0
        The step rho > 0.  With ``init="zeros"`` it only rescales the weights; with
        ``init="kmeans"`` it sets how far one correction moves a boundary compared
        with the spacing of the subclass means.
    margin : float, default=0.0
        A sample counts as a mistake while a_i^m . y - a_r^n . y <= margin.
    averaged : bool, default=False
        Return the mean of the weights over all steps instead of the last ones.
    max_epochs : int, default=100
        Most passes over the training data.
    shuffle : bool, default=True
        Visit the rows in a new random order every epoch.
    random_state : int, numpy Generator or None, default=None
        Seeds k-means and the shuffling.
    record_history : bool or "weights", default=False
        Keep a record of the training in ``history_``: every correction and the
        weights after every epoch (``True``), or only the weights (``"weights"``).
        Recording never changes the result; see `patrec.plotting.plot_history` and
        `patrec.plotting.animate_training`.
    verbose : int, default=0
        1 reports to stderr how training ended (epochs, corrections left); 2 adds a
        line per epoch.

    Attributes
    ----------
    coef_ : ndarray of shape (n_subclasses_total, n_features)
        Row s holds the weights w of subclass s (float64).  The subclasses are
        grouped by class in the order of ``classes_``.
    intercept_ : ndarray of shape (n_subclasses_total,)
        The biases: a_s = (coef_[s], intercept_[s]).
    subclass_labels_ : ndarray of shape (n_subclasses_total,)
        The class label of each subclass.
    n_subclasses_ : ndarray of shape (n_classes,)
        The number of subclasses of each class.
    n_iter_ : int
        Epochs run.
    corrections_ : ndarray of shape (``n_iter_``,)
        Corrections made in each epoch; the last is 0 when training converged (every
        training sample correctly classified, by more than ``margin``).
    history_ : TrainingHistory
        Only with ``record_history``: the corrections in order and the weights
        after every epoch, shape (n_epochs + 1, n_subclasses_total, n_features + 1),
        row s the augmented a_s (`patrec.TrainingHistory`).  A
        correction raises the sample's best own subclass m (``raised``) and lowers
        the best subclass n of the other classes (``lowered``, of class
        ``rival``).
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Column names, when ``X`` was a data frame with string column names.

    See Also
    --------
    LinearMachine : The same rule with one subclass per class.
    MinimumDistanceClassifier : The starting point of ``init="kmeans"``.

    Notes
    -----
    With one subclass per class and ``init="zeros"`` the machine is the
    `LinearMachine` with ``update="winner"``: given the same ``random_state``, both
    return the same weights to the last bit.  With several subclasses the rule is a
    heuristic: unlike the linear machine's it has no convergence guarantee, even when
    some piecewise-linear rule separates the training data, so look at
    ``corrections_``; ``averaged=True`` steadies the result when it does not
    converge.  Ties count as mistakes.  Training that stops at ``max_epochs`` while
    the last epoch still made corrections raises a
    `~patrec.exceptions.ConvergenceWarning`.

    Cost: k-means runs once per class (O(n_samples * l_i * n_features) per
    iteration); an epoch costs O(n_samples * n_subclasses_total * n_features) to
    score every subclass on every sample, plus O(n_features) per correction.
    Prediction costs O(n_samples * n_subclasses_total * n_features).

    Input must be dense (a sparse matrix raises a `TypeError`).  float32 input is
    read as float32 by the training loop, never copied or upcast; the weights are
    float64, as in `patrec.linear`, because each is a sum of many corrections that
    float32 would round away.  ``decision_function`` works in the precision of ``X``.

    References
    ----------
    .. [1] N. J. Nilsson, *Learning Machines*, McGraw-Hill, 1965, chapter 7
       (piecewise-linear machines and their error-correction training).
    .. [2] R. O. Duda, P. E. Hart and D. G. Stork, *Pattern Classification*, 2nd ed.,
       Wiley, 2001, section 5.12 (the linear machine and its training rule, the
       special case of one subclass per class).
    .. [3] X. Zhang, "Multi-category classification and nonlinear classification",
       lecture notes, chapter 4, 2021, section 4.4 (the discriminant and the training
       algorithm this class implements).

    Examples
    --------
    The XOR problem: no line separates the classes, two lines per class do.

    >>> from patrec import PiecewiseLinearClassifier
    >>> X = [[0, 0], [0.2, 0.1], [1, 1], [0.9, 1], [0, 1], [0.1, 0.9], [1, 0], [1, 0.2]]
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> clf = PiecewiseLinearClassifier(random_state=0).fit(X, y)
    >>> clf.coef_.shape, clf.subclass_labels_.tolist()
    ((4, 2), [0, 0, 1, 1])
    >>> clf.predict([[0.1, 0], [0.9, 0.9], [0, 0.8], [0.8, 0.1]]).tolist()
    [0, 0, 1, 1]
    >>> int(clf.corrections_[-1])
    0
    """

    def __init__(
        self,
        n_subclasses=2,
        *,
        init="kmeans",
        learning_rate=1.0,
        margin=0.0,
        averaged=False,
        max_epochs=100,
        shuffle=True,
        random_state=None,
        record_history=False,
        verbose=0,
    ):
        self.n_subclasses = n_subclasses
        self.init = init
        self.learning_rate = learning_rate
        self.margin = margin
        self.averaged = averaged
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record_history = record_history
        self.verbose = verbose

    def _fit(self, X, codes):
        counts = subclass_counts(
            self.n_subclasses, self.classes_, codes, "n_subclasses"
        )
        init = check_option(self.init, "init", ("kmeans", "zeros"))
        rate = check_scalar(self.learning_rate, "learning_rate", low=0, low_open=True)
        margin = check_scalar(self.margin, "margin", low=0)
        averaged = check_flag(self.averaged, "averaged")
        max_epochs = check_epochs(self.max_epochs)
        rng = check_random_state(self.random_state)
        check_flag(self.shuffle, "shuffle")

        n_features = X.shape[1]
        first = np.concatenate(([0], np.cumsum(counts))).astype(np.intp)
        Wt = self._initial_weights(X, codes, counts, init, rng)  # column s: a_s
        learner = _PiecewiseEpochs(
            X, codes, Wt, first, float(rate), float(margin), averaged
        )
        Wt, corrections, history = self._train_epochs(learner, max_epochs, rng)
        self.coef_ = Wt[:n_features].T.copy()
        self.intercept_ = Wt[n_features].copy()
        self.n_subclasses_ = counts
        self.subclass_labels_ = self.classes_[np.repeat(np.arange(len(counts)), counts)]
        self.n_iter_ = len(corrections)
        self.corrections_ = corrections
        if history is not None:
            self.history_ = history

    @staticmethod
    def _initial_weights(X, codes, counts, init, rng):
        """The starting weights a_s as the columns of a (n_features + 1, n_subclasses)
        matrix: zeros, or ``(m, -|m|^2 / 2)`` for the k-means subclass means m."""
        n_features = X.shape[1]
        if init == "zeros":
            return np.zeros((n_features + 1, int(counts.sum())))
        means = []
        for code, count in enumerate(counts):
            members = X[codes == code]
            means.append(subclass_means(members, members, count, rng))
        means = np.concatenate(means)
        Wt = np.empty((n_features + 1, means.shape[0]))
        Wt[:n_features] = means.T
        with np.errstate(over="ignore"):
            Wt[n_features] = -0.5 * np.einsum("ij,ij->i", means, means)
        return check_finite_weights(Wt, X)

    def subclass_decision_function(self, X):
        """The score a_s . (x, 1) of every subclass.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        scores : ndarray of shape (n_samples, n_subclasses_total)
            Column s belongs to the class ``subclass_labels_[s]``; ``argmax`` over a
            row names the linear piece that decides the sample.
        """
        X = self._validate_X(X)
        return linear_scores(X, self.coef_, self.intercept_)

    def _class_scores(self, X):
        """g_i(x) = the best subclass score of class i, shape (n_samples, n_classes)."""
        scores = self.subclass_decision_function(X)
        starts = np.cumsum(self.n_subclasses_) - self.n_subclasses_
        return np.maximum.reduceat(scores, starts, axis=1)

    def decision_function(self, X):
        """The class discriminants g_i(x) = max_l a_i^l . (x, 1).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        scores : ndarray of shape (n_samples, n_classes), or (n_samples,) for two classes
            The g_i(x) of every class.  With two classes the single column
            g_1(x) - g_0(x): positive means ``classes_[1]``.
        """
        return decision_from_scores(self._class_scores(X))

    def predict(self, X):
        """The class with the largest g_i(x) (the first such class on exact ties).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Predicted class labels.
        """
        return self._labels_from_scores(self._class_scores(X))


class _PiecewiseEpochs(MulticlassEpochs):
    """The epochs of the subclass error-correction rule: one column of Wt per
    subclass, those of class c being ``first[c] .. first[c + 1] - 1``."""

    name = "PiecewiseLinearClassifier"
    noun = "corrections"

    def __init__(self, X, codes, Wt, first, rate, margin, averaged):
        super().__init__(X, codes, Wt, rate, margin, averaged, None)
        self.first = first
        self.subclass_class = np.repeat(np.arange(len(first) - 1), np.diff(first))

    def epoch(self, number, order):
        return self.checked(
            piecewise_linear_epoch(
                self.state, order, self.first, self.rate, self.margin, self.averaged
            )
        )

    def describe(self, rows, log):
        rows["step"] = rows["share"] = self.steps(rows["sample"])
        rows["raised"] = log[:, 2]
        rows["lowered"] = log[:, 3]
        rows["rival"] = self.subclass_class[log[:, 3]]

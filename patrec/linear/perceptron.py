"""The binary perceptron.

Labels are y = +1 for ``classes_[1]`` and y = -1 for ``classes_[0]``, and the
augmented weight vector a = (w, b) scores a sample by g(x) = w . x + b.  The rows are
visited in turn; a row is a mistake when y g(x) <= margin, and a mistake moves the
weights towards the correct side:

    a <- a + rho * y * (x, 1).

An epoch is one pass over the rows; training stops after the first epoch without a
mistake (the data are then separated with the requested margin) or after
``max_epochs`` epochs.  The loop is ``_perceptron.binary_perceptron_epoch``, driven by
`patrec._training.run_epochs`.
"""

import numpy as np

from .._training import EpochLearner, EpochState, EpochTrainerMixin, check_epochs
from .._validation import check_flag, check_scalar
from ..base import BaseEstimator, ClassifierMixin, WeightedFitMixin
from ._base import LinearClassifierMixin
from ._perceptron import binary_perceptron_epoch

__all__ = ["Perceptron"]


class Perceptron(
    LinearClassifierMixin,
    EpochTrainerMixin,
    WeightedFitMixin,
    ClassifierMixin,
    BaseEstimator,
):
    """The binary perceptron with an augmented weight vector.

    For more than two classes, one perceptron per class against the rest.

    Parameters
    ----------
    learning_rate : float, default=1.0
        The step rho > 0 of each correction a <- a + rho y (x, 1).
    margin : float, default=0.0
        A row counts as a mistake while y (w . x + b) <= margin; a positive margin
        keeps correcting until every row is that far on its side.
    averaged : bool, default=False
        Return the mean of the weight vectors over all steps (the averaged
        perceptron) instead of the last one.  It generalises better on data that
        are not separable.
    max_epochs : int, default=100
        Most passes over the training data.
    shuffle : bool, default=True
        Visit the rows in a new random order every epoch.
    random_state : int, numpy Generator or None, default=None
        Seeds the shuffling.
    record_history : bool or "weights", default=False
        Keep a record of the training in ``history_``: every correction and the
        weights after every epoch (``True``), or only the weights (``"weights"``).
        Recording never changes the result; see `patrec.plotting.plot_history` and
        `patrec.plotting.animate_training`.
    verbose : int, default=0
        1 reports to stderr how training ended (epochs, mistakes left); 2 adds a
        line per epoch.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights w (float64); one row per class for more than two classes.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias b.
    n_iter_ : int
        Epochs run.
    mistakes_ : ndarray of shape (``n_iter_``,)
        Mistakes made in each epoch (summed over the perceptrons of a multiclass
        problem); the last is 0 when the data were separated.
    history_ : TrainingHistory
        Only with ``record_history``: the corrections in order and the weights
        after every epoch (`patrec.TrainingHistory`).  Row r of its
        weights is the augmented vector (``coef_[r]``, ``intercept_[r]``); a
        correction of perceptron r on a sample of class r raises it (``raised`` =
        r, ``rival`` = -1), on a sample of another class lowers it (``lowered`` =
        r, ``rival`` = r).  For two classes the single perceptron is raised by the
        samples of ``classes_[1]`` and lowered by those of ``classes_[0]``.
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    LinearMachine : the multiclass perceptron.
    OneVsAll : k binary perceptrons for k classes.

    Notes
    -----
    Each epoch costs O(n_samples * n_features) (O(nnz) for CSR input).  On linearly
    separable data with margin gamma and radius R the perceptron makes at most
    (R / gamma)^2 mistakes (Novikoff).  With more than two classes one perceptron
    per class is trained (class r against the rest) and the largest raw score wins;
    `OneVsAll` does the same with the fusion rule, `LinearMachine` trains the k
    weight vectors jointly.

    float32 input is read as float32 by the loops, never copied or upcast; the
    weights and the sums accumulated into them are float64, since a weight is a sum
    of up to n_samples * max_epochs updates that float32 would round away.
    ``decision_function`` works in the precision of ``X``.

    ``sample_weight`` scales the steps: a mistake on a sample of weight s moves
    the weights by rho s y (x, 1), s times the step of an unweighted sample.  A
    sample of weight 0 is never visited, exactly as if it were removed (the other
    samples are visited in the same order).  An integer weight is not the same as
    repeating the sample: the copies would be visited, and corrected, one at a
    time.

    Training that stops at ``max_epochs`` while the last epoch still made
    mistakes raises a `~patrec.exceptions.ConvergenceWarning`: the classes are
    not linearly separable, or the features need standardising.

    References
    ----------
    .. [1] F. Rosenblatt, "The perceptron: a probabilistic model for information
       storage and organization in the brain", Psychological Review 65, 1958.
    .. [2] Y. Freund and R. E. Schapire, "Large margin classification using the
       perceptron algorithm", Machine Learning 37, 1999 (averaging).

    Examples
    --------
    >>> from patrec import Perceptron
    >>> X = [[0, 0], [1, 0], [3, 3], [4, 3]]
    >>> clf = Perceptron(random_state=0).fit(X, [0, 0, 1, 1])
    >>> clf.predict([[0.5, 0], [3.5, 3]]).tolist()
    [0, 1]
    """

    _PEER_PARAMETERS = {
        "tol": "none: the course's rule stops after an epoch without a mistake "
        "(max_epochs bounds the passes)",
        "max_iter": "max_epochs",
        "eta0": "learning_rate (the step rho)",
        "penalty": "none: the perceptron has no penalty (SoftmaxRegression's C and "
        "MulticlassSVM's alpha regularise)",
        "alpha": "none: the perceptron has no penalty",
        "l1_ratio": "none: the perceptron has no penalty",
        "fit_intercept": "always: the weights are augmented (w, b)",
        "early_stopping": "none: it stops after an epoch without a mistake",
        "validation_fraction": "none: it stops after an epoch without a mistake",
        "n_iter_no_change": "none: it stops after an epoch without a mistake",
        "class_weight": "fit(X, y, sample_weight=...)",
        "warm_start": "none: each fit starts afresh",
        "n_jobs": "none: the corrections of an epoch are sequential",
    }

    def __init__(
        self,
        *,
        learning_rate=1.0,
        margin=0.0,
        averaged=False,
        max_epochs=100,
        shuffle=True,
        random_state=None,
        record_history=False,
        verbose=0,
    ):
        self.learning_rate = learning_rate
        self.margin = margin
        self.averaged = averaged
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record_history = record_history
        self.verbose = verbose

    def _fit(self, X, codes, sample_weight=None):
        rate = check_scalar(self.learning_rate, "learning_rate", low=0, low_open=True)
        margin = check_scalar(self.margin, "margin", low=0)
        averaged = check_flag(self.averaged, "averaged")
        max_epochs = check_epochs(self.max_epochs)
        learner = _PerceptronEpochs(
            X,
            codes,
            len(self.classes_),
            float(rate),
            float(margin),
            averaged,
            sample_weight,
        )
        weights, mistakes, history = self._train_epochs(learner, max_epochs)
        n_features = X.shape[1]
        self.coef_ = weights[:, :n_features].copy()
        self.intercept_ = weights[:, n_features].copy()
        self.n_iter_ = len(mistakes)
        self.mistakes_ = mistakes
        if history is not None:
            self.history_ = history


class _PerceptronEpochs(EpochLearner):
    """The binary perceptrons' epochs: one perceptron per row of W."""

    name = "Perceptron"

    def __init__(self, X, codes, n_classes, rate, margin, averaged, sample_weight):
        super().__init__(X, codes, sample_weight)
        # two classes: one perceptron, class 1 (+1) against class 0 (-1); more: one
        # perceptron per class, class s (+1) against the rest (-1)
        self.binary = n_classes == 2
        self.n_problems = 1 if self.binary else n_classes
        self.rate, self.margin, self.averaged = rate, margin, averaged
        self.W = np.zeros((self.n_problems, X.shape[1] + 1))
        self.U = np.zeros_like(self.W)
        self.counters = np.zeros((self.n_problems, 1))
        self.state = EpochState(
            X, codes, self.W, self.U, self.counters.reshape(-1), self.sample_weight
        )
        self.active = list(range(self.n_problems))  # those still making mistakes
        self.log_rows_per_visit = self.n_problems

    def epoch(self, number, order):
        made = []
        for s in self.active:
            first = self.n_logged[0]
            positive = 1 if self.binary else s  # the code of the class of +1
            made.append(
                self.checked(
                    binary_perceptron_epoch(
                        self.state,
                        order,
                        s,
                        positive,
                        self.rate,
                        self.margin,
                        self.averaged,
                    )
                )
            )
            self.log[first : self.n_logged[0], 2] = s  # which perceptron corrected
        self.active = [s for s, count in zip(self.active, made) if count > 0]
        return sum(made)

    def weights(self):
        return self.W.copy()

    def finish(self):
        """The weights to return, one row per perceptron: the last ones, or the
        average of each perceptron over the steps it trained."""
        if self.averaged:
            self.W -= self.U / self.counters
        return self.W

    def describe(self, rows, log):
        problem = log[:, 2]
        positive = (
            (rows["target"] == 1)
            if self.n_problems == 1
            else (rows["target"] == problem)
        )
        rows["raised"] = np.where(positive, problem, -1)
        rows["lowered"] = np.where(positive, -1, problem)
        if self.n_problems == 1:
            rows["rival"] = 1 - rows["target"]
        else:
            rows["rival"] = rows["lowered"]
        rows["step"] = rows["share"] = self.steps(rows["sample"])

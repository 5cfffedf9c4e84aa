"""The multiclass (Crammer-Singer) support vector machine, trained by SGD.

The model is the linear machine argmax_r a_r . y, with augmented weights a_r = (w_r,
b_r) and the augmented sample y = (x, 1).  The weights A = (a_1, ..., a_c) minimise the
regularised generalised hinge loss over the N samples y_j of classes z_j

    F(A) = (1/N) sum_j max_r [[r != z_j] - a_{z_j} . y_j + a_r . y_j]
           + (lambda / 2) sum_r ||a_r||^2,

where [r != z_j] is 1 for a wrong class and 0 for the right one: an upper bound on
the training error plus a penalty.  Stochastic subgradient descent with step
eta_t = 1 / (lambda t) visits one row per step:

    r* = argmax_r [[r != z] + a_r . y]                 (loss-augmented winner)
    if r* != z:  a_z <- (1 - lambda eta_t) a_z + eta_t y
                 a_r* <- (1 - lambda eta_t) a_r* - eta_t y
    every other a_r <- (1 - lambda eta_t) a_r

(the course's update: shrink all, add to the true class, subtract from the winner).
The loops are in ``_multiclass_svm.pyx``, driven by `patrec._training.run_epochs`.
"""

import numpy as np

from .._training import (
    EpochLearner,
    EpochState,
    EpochTrainerMixin,
    check_epoch,
    check_epochs,
    check_finite_weights,
    counted,
)
from .._validation import check_flag, check_scalar, unit_scaled_weights
from ..base import BaseEstimator, ClassifierMixin, WeightedFitMixin
from ._base import LinearClassifierMixin
from ._multiclass_svm import crammer_singer_epoch, crammer_singer_objective

__all__ = ["MulticlassSVM"]


class MulticlassSVM(
    LinearClassifierMixin,
    EpochTrainerMixin,
    WeightedFitMixin,
    ClassifierMixin,
    BaseEstimator,
):
    """Crammer-Singer multiclass SVM by stochastic subgradient descent (Pegasos).

    Parameters
    ----------
    alpha : float, default=1e-4
        The regularisation strength lambda > 0.  It plays the part of
        1 / (C n_samples) for scikit-learn's ``LinearSVC(C=C)``.
    max_epochs : int, default=20
        Passes over the training data.
    averaged : bool, default=True
        Return the mean of the iterates of the last half of the epochs (epochs
        ``max_epochs // 2 + 1`` to ``max_epochs``) instead of the last iterate; the
        mean is much less noisy.  Leaving out the early iterates, whose steps
        1 / (lambda t) are large, makes it converge faster than the mean of all.
    shuffle : bool, default=True
        Visit the rows in a new random order every epoch.
    random_state : int, numpy Generator or None, default=None
        Seeds the shuffling.
    record_history : bool or "weights", default=False
        Keep a record of the training in ``history_``: every update and the
        weights after every epoch (``True``), or only the weights (``"weights"``).
        Recording never changes the result; see `patrec.plotting.plot_history` and
        `patrec.plotting.animate_training`.
    verbose : int, default=0
        1 reports to stderr how training ended (epochs, training samples still
        misclassified); 2 adds a line per epoch.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
        Row r is w_r (float64).
    intercept_ : ndarray of shape (n_classes,)
        The biases b_r (the weights of a constant feature 1, regularised too).
    objective_ : ndarray of shape (``n_iter_``,)
        The objective F of the returned weights (averaged or last) after each epoch.
    n_iter_ : int
        Epochs run (always ``max_epochs``).
    history_ : TrainingHistory
        Only with ``record_history``: every update in order (``step`` = eta_t =
        1 / (lambda t), times the sample's weight; ``raised`` the true class,
        ``lowered`` = ``rival`` the loss-augmented winner r*) and the weights
        W_t = V_t / (lambda t) after every epoch, the last iterate even when
        ``averaged`` (`patrec.TrainingHistory`).  Before the update of
        step t every w_r is multiplied by 1 - 1/t, updated or not.
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    LinearMachine : the perceptron rule for the same model.

    Notes
    -----
    Because eta_t = 1 / (lambda t), the iterate is W_{t+1} = (g_1 + ... + g_t) /
    (lambda t) where g_s is the update direction of step s, so the loop stores the
    running sum of the g_s and no shrinking is ever applied to memory: a step costs
    O(n_classes * n_features) to score the row (O(n_classes * nnz) for CSR input) and
    O(nnz) to update.  Recording the objective costs one more scoring pass per
    epoch.

    float32 input is read as float32 by the loops, never copied or upcast; the
    weights and the sums accumulated into them are float64, since a weight is a sum
    of up to n_samples * max_epochs updates that float32 would round away.
    ``decision_function`` works in the precision of ``X``.

    ``sample_weight`` weights the hinge terms: the objective becomes
    sum_i s_i L_i / sum_i s_i + (lambda / 2) sum_r ||w_r||^2, so integer weights give
    the objective of the repeated samples and scaling every weight changes nothing.
    SGD follows it with scaled steps: the weights are first rescaled to mean 1 over
    the samples of positive weight, and an update on a sample of weight s is s
    eta_t (x, 1), s times the step of an unweighted sample.  Samples of weight 0
    are never visited, exactly as if they were removed (the other samples are
    visited in the same order).  A repeated sample would instead be visited once
    per copy, so the trained weights differ from those of repeated data, though
    both minimise the same objective.

    When the returned weights still misclassify training samples after the
    ``max_epochs`` epochs a `~patrec.exceptions.ConvergenceWarning` says how many:
    the classes are not linearly separable, or training needs more epochs, a
    smaller ``alpha`` or standardised features.

    References
    ----------
    .. [1] K. Crammer and Y. Singer, "On the algorithmic implementation of multiclass
       kernel-based vector machines", JMLR 2, 2001.
    .. [2] S. Shalev-Shwartz, Y. Singer, N. Srebro and A. Cotter, "Pegasos: primal
       estimated sub-gradient solver for SVM", Mathematical Programming 127, 2011.
    .. [3] A. Rakhlin, O. Shamir and K. Sridharan, "Making gradient descent optimal
       for strongly convex stochastic optimization", ICML 2012 (suffix averaging).

    Examples
    --------
    >>> from patrec import MulticlassSVM
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> clf = MulticlassSVM(alpha=0.01, random_state=0).fit(X, [0, 0, 1, 1, 2, 2])
    >>> clf.predict([[0.5, 0], [7, 0], [0, 7]]).tolist()
    [0, 1, 2]
    """

    _PEER_PARAMETERS = {
        "C": "alpha = 1 / (C n_samples), the regularisation strength",
        "max_iter": "max_epochs (passes of stochastic gradient descent)",
        "tol": "none: a fixed number of epochs (max_epochs)",
        "multi_class": "always 'crammer_singer', the course's multiclass hinge loss",
        "loss": "always the multiclass hinge loss of Crammer and Singer",
        "penalty": "always the squared norm of the weights",
        "dual": "none: trained by stochastic gradient descent in the primal",
        "fit_intercept": "always: the biases b_r are learned (not penalised)",
        "class_weight": "fit(X, y, sample_weight=...)",
    }

    def __init__(
        self,
        *,
        alpha=1e-4,
        max_epochs=20,
        averaged=True,
        shuffle=True,
        random_state=None,
        record_history=False,
        verbose=0,
    ):
        self.alpha = alpha
        self.max_epochs = max_epochs
        self.averaged = averaged
        self.shuffle = shuffle
        self.random_state = random_state
        self.record_history = record_history
        self.verbose = verbose

    def _fit(self, X, codes, sample_weight=None):
        lam = float(check_scalar(self.alpha, "alpha", low=0, low_open=True))
        averaged = check_flag(self.averaged, "averaged")
        max_epochs = check_epochs(self.max_epochs)
        if sample_weight is not None:  # mean 1 over the samples visited
            sample_weight, _ = unit_scaled_weights(sample_weight)  # a sum in range
            sample_weight = sample_weight * (
                np.count_nonzero(sample_weight) / sample_weight.sum()
            )
        learner = _CrammerSingerEpochs(
            X,
            codes,
            len(self.classes_),
            lam,
            averaged,
            max_epochs,
            sample_weight,
            f"alpha={self.alpha!r} is too small, or the features need scaling",
        )
        weights, _, history = self._train_epochs(learner, max_epochs)
        n_features = X.shape[1]
        self.coef_ = weights[:n_features].T.copy()
        self.intercept_ = weights[n_features].copy()
        self.objective_ = np.asarray(learner.objective)
        self.n_iter_ = max_epochs
        if history is not None:
            self.history_ = history


class _CrammerSingerEpochs(EpochLearner):
    """The SGD epochs on the Crammer-Singer objective (see ``_multiclass_svm.pyx``:
    the loop keeps V, the sum of the update directions, and the step count t)."""

    name = "MulticlassSVM"
    noun = "updates"
    stop_when_clean = False  # always max_epochs epochs
    shrinks = True

    def __init__(
        self,
        X,
        codes,
        n_classes,
        lam,
        averaged,
        max_epochs,
        sample_weight,
        overflow_remedy,
    ):
        super().__init__(X, codes, sample_weight)
        self.lam, self.averaged = lam, averaged
        self.update_sum = np.zeros((X.shape[1] + 1, n_classes))  # column r: class r
        self.weighted_sum = np.zeros_like(self.update_sum)
        self.steps_taken = np.array([0.0, 0.0])  # steps t taken, harmonic number H_t
        self.state = EpochState(
            X,
            codes,
            self.update_sum,
            self.weighted_sum,
            self.steps_taken,
            self.sample_weight,
        )
        self.first_averaged = max_epochs // 2 + 1  # suffix averaging: the last half
        self.averaged_steps = 0
        self.overflow_remedy = overflow_remedy
        self.objective = []
        self.wrong = 0
        self.n_visited = (
            len(codes) if sample_weight is None else np.count_nonzero(sample_weight)
        )

    def epoch(self, number, order):
        averaging = self.averaged and number >= self.first_averaged
        if number == self.first_averaged:  # the mean starts here
            self.weighted_sum[...] = 0.0
            self.steps_taken[1] = 0.0
        # the rescaled sample weights would mislead in the overflow message
        updates = check_epoch(
            crammer_singer_epoch(self.state, order, self.lam, averaging), self.X
        )
        steps, harmonic = self.steps_taken
        if averaging:
            self.averaged_steps += len(order)
            self.result = (harmonic * self.update_sum - self.weighted_sum) / (
                self.lam * self.averaged_steps
            )
        else:
            self.result = self.update_sum / (self.lam * steps)
        check_finite_weights(self.result, self.X, self.overflow_remedy)
        objective, self.wrong = crammer_singer_objective(
            self.state, self.result, self.lam
        )
        self.objective.append(objective)
        return updates

    def weights(self):
        steps = self.steps_taken[0]
        if steps == 0:
            return np.zeros(self.update_sum.T.shape)
        return (self.update_sum / (self.lam * steps)).T.copy()

    def finish(self):
        """The weights after the last epoch (averaged or last), class-minor."""
        return self.result

    def describe(self, rows, log):
        rows["step"] = rows["share"] = self.steps(rows["sample"]) / (
            self.lam * rows["t"]
        )
        rows["raised"] = rows["target"]
        rows["rival"] = rows["lowered"] = log[:, 2]

    def summary(self, counts):
        return (
            f"{counted(len(counts), 'epochs')}, {counted(counts[-1], 'updates')} "
            f"in the last; objective {self.objective[-1]:.6g}, "
            f"{counted(self.wrong, 'training samples')} misclassified"
        )

    def unconverged_message(self, counts, max_epochs):
        if self.wrong == 0:
            return None
        return (
            f"MulticlassSVM ran its max_epochs={max_epochs} epochs and its weights "
            f"still misclassify {self.wrong} of the {self.n_visited} training "
            "samples: the classes are not linearly separable, or training needs "
            "more epochs, a smaller alpha, or standardised features (for example "
            "with sklearn.preprocessing.StandardScaler)."
        )

"""The multiclass linear machine (the multiclass perceptron) and Kesler's construction.

Each class r has an augmented weight vector a_r = (w_r, b_r) and the machine predicts
argmax_r g_r(x), g_r(x) = w_r . x + b_r.  Training visits the rows in turn.  Row x of
class y is a mistake when some other class scores at least as high (within
``margin``); then, with step rho,

- ``update="winner"`` (Duda & Hart's rule): a_y += rho (x, 1) and the best-scoring
  wrong class ŷ loses the same, a_ŷ -= rho (x, 1);
- ``update="all"``: a_y += rho (x, 1) and each of the |E| classes r in
  E = {r != y : g_r(x) >= g_y(x) - margin} loses rho (x, 1) / |E|.

Kesler's construction shows this is a single binary perceptron: stack the k weight
vectors into one vector a and map (x, r) to the multivector psi(x, r) that holds
(x, 1) in block r and zeros elsewhere, so that a . psi(x, r) = g_r(x).  The "winner"
update is the perceptron step a <- a + rho (psi(x, y) - psi(x, ŷ)) on the difference
vector, which is why the machine converges whenever the classes are linearly
separable.  The loop is ``_perceptron.linear_machine_epoch``, driven by
`patrec._training.run_epochs`.
"""

import numbers

import numpy as np

from .._training import EpochTrainerMixin, MulticlassEpochs, check_epochs
from .._validation import check_flag, check_option, check_scalar, check_X
from ..base import BaseEstimator, ClassifierMixin, WeightedFitMixin
from ._base import LinearClassifierMixin
from ._perceptron import linear_machine_epoch

__all__ = ["LinearMachine", "kesler_construct"]


class LinearMachine(
    LinearClassifierMixin,
    EpochTrainerMixin,
    WeightedFitMixin,
    ClassifierMixin,
    BaseEstimator,
):
    """The multiclass perceptron: one weight vector per class, predict the argmax.

    Parameters
    ----------
    update : {"winner", "all"}, default="winner"
        Which wrong classes a mistake corrects: the best-scoring one ("winner") or
        every class that outscored the truth, sharing the step equally ("all").
    learning_rate : float, default=1.0
        The step rho > 0.
    margin : float, default=0.0
        A row counts as a mistake while g_y(x) - g_r(x) <= margin for some r != y.
    averaged : bool, default=False
        Return the mean of the weights over all steps instead of the last ones.
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
    coef_ : ndarray of shape (n_classes, n_features)
        Row r is w_r (float64).
    intercept_ : ndarray of shape (n_classes,)
        The biases b_r.
    n_iter_ : int
        Epochs run.
    mistakes_ : ndarray of shape (``n_iter_``,)
        Mistakes made in each epoch; the last is 0 when the data were separated.
    history_ : TrainingHistory
        Only with ``record_history``: the corrections in order and the weights
        (row r: (w_r, b_r)) after every epoch (`patrec.TrainingHistory`).
        A "winner" correction is one row (``raised`` = ``target``, ``lowered`` =
        ``rival``); an "all" correction has one row per class of E, each with
        ``share`` = ``step / |E|``.
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_features_in_ : int
        Number of features seen in ``fit``.

    See Also
    --------
    kesler_construct : the multivector features psi(x, y).
    MulticlassSVM : the same model with a margin-maximising objective.

    Notes
    -----
    An epoch costs O(n_samples * n_classes * n_features) (nnz instead of n_features
    for CSR input): one pass scores every class once per row, against k binary
    passes for one-vs-all.  Ties count as mistakes (the course's E_y uses a strict
    ">"), so the all-zero start is corrected at once and a tie never passes for a
    correct answer.

    float32 input is read as float32 by the loops, never copied or upcast; the
    weights and the sums accumulated into them are float64, since a weight is a sum
    of up to n_samples * max_epochs updates that float32 would round away.
    ``decision_function`` works in the precision of ``X``.

    ``sample_weight`` scales the steps: a mistake on a sample of weight s moves
    the weights by s rho (x, 1) (shared among E for ``update="all"``), s times the
    step of an unweighted sample.  A sample of weight 0 is never visited, exactly
    as if it were removed (the other samples are visited in the same order).  An
    integer weight is not the same as repeating the sample: the copies would be
    visited, and corrected, one at a time.

    Training that stops at ``max_epochs`` while the last epoch still made
    mistakes raises a `~patrec.exceptions.ConvergenceWarning`: the classes are
    not linearly separable, or the features need standardising.

    References
    ----------
    .. [1] R. O. Duda, P. E. Hart and D. G. Stork, *Pattern Classification*, 2nd ed.,
       Wiley, 2001, section 5.12 (multicategory generalisations, Kesler's
       construction).
    .. [2] K. Crammer and Y. Singer, "Ultraconservative online algorithms for
       multiclass problems", JMLR 3, 2003 (the "all" update).

    Examples
    --------
    >>> from patrec import LinearMachine
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> clf = LinearMachine(random_state=0).fit(X, [0, 0, 1, 1, 2, 2])
    >>> clf.predict([[0.5, 0], [7, 0], [0, 7]]).tolist()
    [0, 1, 2]
    """

    _PEER_PARAMETERS = {
        "tol": "none: the course's rule stops after an epoch without a mistake "
        "(max_epochs bounds the passes)",
        "max_iter": "max_epochs",
        "eta0": "learning_rate (the step rho)",
        "penalty": "none: the linear machine has no penalty (SoftmaxRegression's "
        "C and MulticlassSVM's alpha regularise)",
        "alpha": "none: the linear machine has no penalty",
        "l1_ratio": "none: the linear machine has no penalty",
        "validation_fraction": "none: it stops after an epoch without a mistake",
        "fit_intercept": "always: the weights are augmented (w_i, b_i)",
        "early_stopping": "none: it stops after an epoch without a mistake",
        "n_iter_no_change": "none: it stops after an epoch without a mistake",
        "class_weight": "fit(X, y, sample_weight=...)",
        "warm_start": "none: each fit starts afresh",
        "n_jobs": "none: the corrections of an epoch are sequential",
    }

    def __init__(
        self,
        *,
        update="winner",
        learning_rate=1.0,
        margin=0.0,
        averaged=False,
        max_epochs=100,
        shuffle=True,
        random_state=None,
        record_history=False,
        verbose=0,
    ):
        self.update = update
        self.learning_rate = learning_rate
        self.margin = margin
        self.averaged = averaged
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record_history = record_history
        self.verbose = verbose

    def _fit(self, X, codes, sample_weight=None):
        update = check_option(self.update, "update", ("winner", "all"))
        rate = check_scalar(self.learning_rate, "learning_rate", low=0, low_open=True)
        margin = check_scalar(self.margin, "margin", low=0)
        averaged = check_flag(self.averaged, "averaged")
        max_epochs = check_epochs(self.max_epochs)
        n_classes, n_features = len(self.classes_), X.shape[1]
        learner = _LinearMachineEpochs(
            X,
            codes,
            np.zeros((n_features + 1, n_classes)),
            float(rate),
            float(margin),
            update == "all",
            averaged,
            sample_weight,
        )
        weights, mistakes, history = self._train_epochs(learner, max_epochs)
        self.coef_ = weights[:n_features].T.copy()
        self.intercept_ = weights[n_features].copy()
        self.n_iter_ = len(mistakes)
        self.mistakes_ = mistakes
        if history is not None:
            self.history_ = history


class _LinearMachineEpochs(MulticlassEpochs):
    """The linear machine's epochs: one column of Wt per class."""

    name = "LinearMachine"

    def __init__(self, X, codes, Wt, rate, margin, update_all, averaged, sample_weight):
        super().__init__(X, codes, Wt, rate, margin, averaged, sample_weight)
        self.update_all = update_all
        self.log_rows_per_visit = max(Wt.shape[1] - 1, 1) if update_all else 1

    def epoch(self, number, order):
        return self.checked(
            linear_machine_epoch(
                self.state,
                order,
                self.rate,
                self.margin,
                self.update_all,
                self.averaged,
            )
        )

    def describe(self, rows, log):
        rows["step"] = self.steps(rows["sample"])
        rows["rival"] = rows["lowered"] = log[:, 2]
        # an "all" correction: |E| rows, the truth raised once (on the first)
        first = np.ones(len(rows), dtype=bool)
        first[1:] = log[1:, 1] != log[:-1, 1]
        rows["raised"] = np.where(first, rows["target"], -1)
        rows["share"] = rows["step"] / log[:, 3]


def kesler_construct(X, y, n_classes):
    """The multivector features psi(x, y) of Kesler's construction.

    psi(x, y) has ``n_classes`` blocks of length ``n_features + 1``; block y holds the
    augmented sample (x, 1) and every other block is zero.  For the stacked weights
    a = (a_1, ..., a_k), a_r = (w_r, b_r), this gives a . psi(x, r) = w_r . x + b_r,
    so a linear machine on x is one linear function of psi.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The samples.
    y : array-like of int of shape (n_samples,)
        Class indices in ``0 .. n_classes - 1``.
    n_classes : int
        The number of classes k.

    Returns
    -------
    psi : ndarray of shape (n_samples, n_classes * (n_features + 1))
        Row i is psi(X[i], y[i]); float32 for float32 ``X``, else float64.

    Examples
    --------
    >>> from patrec import kesler_construct
    >>> kesler_construct([[2.0, 3.0]], [1], 3)
    array([[0., 0., 0., 2., 3., 1., 0., 0., 0.]])
    """
    X = check_X(X)
    n_classes = check_scalar(n_classes, "n_classes", numbers.Integral, low=1)
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(
            f"y must have shape ({X.shape[0]},) to match X, got {y.shape}."
        )
    if y.size and (y.dtype.kind not in "iu" or y.min() < 0 or y.max() >= n_classes):
        raise ValueError(f"y must hold class indices in 0 .. {n_classes - 1}.")
    n_samples, n_features = X.shape
    block = n_features + 1
    psi = np.zeros((n_samples, n_classes, block), dtype=X.dtype)
    rows = np.arange(n_samples)
    psi[rows, y, :n_features] = X
    psi[rows, y, n_features] = 1.0
    return psi.reshape(n_samples, n_classes * block)

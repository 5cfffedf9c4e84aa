"""What the error-correcting learners of two chapters share to train.

`patrec.linear` (`Perceptron`, `LinearMachine`, `MulticlassSVM`) and
`patrec.piecewise` (`PiecewiseLinearClassifier`) all train the same way: visit the
training rows epoch after epoch and correct the weights on the rows they get wrong.
This module holds that shared part, so neither chapter imports the other's private
modules (the Cython side is ``_training.pxd``, and the epoch state
``_epoch_state.pyx``):

- `row_storage` hands a validated dense or CSR matrix to the Cython loops without
  copying the feature values;
- `EpochState` (compiled) is the one object an epoch kernel takes: the rows, the
  codes, the weights, the sample weights and the correction log, bound once per fit
  by the learner that owns them;
- `epoch_orders` draws the visiting order of each epoch;
- `run_epochs` is the one epoch driver: it draws the orders, runs a learner's epoch
  loop until an epoch makes no correction or ``max_epochs`` is reached, reports
  progress (``verbose``), warns when training stopped still making mistakes, and
  records the `TrainingHistory` (``record_history``);
- `EpochLearner` is what a learner hands to `run_epochs`, and `EpochTrainerMixin`
  gives the four estimators their one call of it;
- `replay` re-applies a recorded history correction by correction;
- `check_epoch`, `check_finite_weights` turn an overflow into a clear error, and
  `linear_scores` scores rows with augmented weights (training and prediction).

Recording costs nothing when it is off: the epoch state then holds an empty log,
and the only test of it sits on the correction branch.
"""

import numbers

import numpy as np
import scipy.sparse as sp

from ._epoch_state import EpochState, row_storage
from ._progress import Reporter
from ._validation import check_flag, check_random_state, check_scalar, check_X
from .exceptions import ConvergenceWarning, warn_caller

__all__ = [
    "EpochLearner",
    "EpochState",
    "EpochTrainerMixin",
    "MulticlassEpochs",
    "TrainingHistory",
    "check_epoch",
    "check_epochs",
    "check_finite_weights",
    "check_record_history",
    "continues",
    "counted",
    "epoch_orders",
    "linear_scores",
    "replay",
    "row_storage",
    "run_epochs",
]

NO_WEIGHTS = np.empty(0, dtype=np.float64)  # the loops' "no sample_weight"
_NO_LOG = np.empty((0, 4), dtype=np.intp)  # the loops' "record nothing"

# One row of `TrainingHistory.corrections`.
CORRECTION_DTYPE = np.dtype(
    [
        ("epoch", np.intp),
        ("t", np.intp),
        ("sample", np.intp),
        ("target", np.intp),
        ("rival", np.intp),
        ("step", np.float64),
        ("raised", np.intp),
        ("lowered", np.intp),
        ("share", np.float64),
    ]
)


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


def check_epoch(count, X, sample_weight=NO_WEIGHTS):
    """The count returned by an epoch loop, or a ValueError when it reports (with -1)
    that a score w . x overflowed float64."""
    if count < 0:
        culprit, sizes, also = _what_is_large(X, sample_weight)
        raise ValueError(
            f"The scores w . x overflowed float64 during training: {culprit} too "
            f"large ({sizes}). Scale the features first, for example with "
            f"sklearn.preprocessing.StandardScaler{also}."
        )
    return count


def check_finite_weights(
    weights, X, remedy="scale the features first", sample_weight=NO_WEIGHTS
):
    """Raise a ValueError when the learned weights overflowed float64."""
    if not np.isfinite(weights).all():
        _, sizes, also = _what_is_large(X, sample_weight)
        raise ValueError(
            f"The weights overflowed float64 during training ({sizes}): {remedy}{also}."
        )
    return weights


def _what_is_large(X, sample_weight):
    """What may have made a score or a weight overflow, how large it is, and the
    remedy to add: the features, or (when some weight exceeds 1 and so multiplies a
    correction) the features or the sample weights."""
    values = X.data if sp.issparse(X) else X
    sizes = f"largest |x| = {float(np.abs(values).max()) if values.size else 0.0:.3g}"
    heaviest = 1.0
    if sample_weight is not None and len(sample_weight):
        heaviest = float(sample_weight.max())
    if heaviest <= 1.0:
        return "the features are", sizes, ""
    return (
        "the features or the sample weights are",
        f"{sizes}, largest sample_weight = {heaviest:.3g}",
        ", or divide sample_weight by its largest value (a common factor of all the "
        "weights scales the corrections alike)",
    )


def check_epochs(max_epochs):
    """Validate ``max_epochs``, a positive integer."""
    return check_scalar(max_epochs, "max_epochs", numbers.Integral, low=1)


def check_record_history(record_history):
    """Validate ``record_history``: False, True or ``"weights"``; return it."""
    allowed = (
        f"record_history must be True, False or 'weights', got {record_history!r}."
    )
    if isinstance(record_history, str):
        if record_history == "weights":
            return record_history
        raise ValueError(allowed)
    if not isinstance(record_history, (bool, np.bool_)):
        raise TypeError(allowed)
    return bool(record_history)


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


class TrainingHistory:
    """What an error-correcting learner did, epoch by epoch and correction by correction.

    The ``history_`` attribute of `Perceptron`, `LinearMachine`, `MulticlassSVM` and
    `PiecewiseLinearClassifier` fitted with ``record_history=True`` (or
    ``"weights"``).  The learner keeps its weight vectors as the rows of a matrix W
    of augmented vectors a = (w, b), scoring a sample x by a . (x, 1): one row per
    class (`LinearMachine`, `MulticlassSVM`), per binary problem (`Perceptron`: one
    row for two classes, one per class otherwise) or per subclass
    (`PiecewiseLinearClassifier`).

    Attributes
    ----------
    corrections : structured ndarray of shape (n_corrections,)
        One row per weight vector lowered by a correction, in the order they were
        made (a correction that lowers none, such as a perceptron raising its
        vector, has one row too).  Fields:

        - ``epoch``: the epoch, from 1;
        - ``t``: the step, counting the rows visited since training began (this
          one included; for a multiclass `Perceptron`, by its binary problem);
        - ``sample``: the row of the training ``X``;
        - ``target``: the sample's class, an index into ``classes_``;
        - ``rival``: the class whose weights lost, an index into ``classes_`` (-1
          when none did: the multiclass `Perceptron` of the sample's own class
          gained);
        - ``step``: how far the correction moved, rho times the sample's weight
          (for `MulticlassSVM` eta_t = 1 / (lambda t), times the weight);
        - ``raised``, ``lowered``: the rows of W that gained ``step`` (x, 1) and
          lost ``share`` (x, 1) (-1: none);
        - ``share``: what row ``lowered`` lost: ``step``, or ``step / |E|`` for each
          of the ``|E|`` rows of an ``update="all"`` correction, which share ``t``
          (only the first of them has ``raised`` set).

        Empty when only the weights were recorded (``record_history="weights"``).
    weights : ndarray of shape (n_epochs + 1, n_rows, n_features + 1)
        W after every epoch, the first entry the initial weights.  Always the
        current weights, not their average (``averaged=True`` returns the average of
        the weights after every step; the steps are in ``corrections``).
    corrections_per_epoch : ndarray of shape (n_epochs,)
        How many samples each epoch corrected.
    visits_per_epoch : int
        The rows visited per epoch (those with a positive ``sample_weight``).
    shrinks : bool
        Whether W is multiplied by (1 - 1 / t) at every step t before its
        correction (`MulticlassSVM`'s regularisation; False for the perceptrons).

    Notes
    -----
    Replaying the corrections from ``weights[0]``, W[raised] += step (x, 1) and
    W[lowered] -= share (x, 1) in order (as the Examples below do, and
    `patrec.plotting.animate_training` frame by frame), gives every epoch's weights: to
    the last bit for the perceptron rules, to rounding for `MulticlassSVM`, whose
    loop keeps the sum of the updates instead of shrinking W.

    Memory: ``corrections`` takes 64 bytes per row, at most ``max_epochs *
    n_samples`` rows (times n_classes - 1 for ``update="all"``, times n_classes for a
    multiclass `Perceptron`); ``weights`` takes 8 (n_epochs + 1) n_rows
    (n_features + 1) bytes.  ``record_history="weights"`` keeps only the latter.

    Examples
    --------
    Replay a linear machine's corrections by hand with the course's rule, a_y += rho
    (x, 1) and a_r -= rho (x, 1), from the initial (zero) weights:

    >>> import numpy as np
    >>> from patrec import LinearMachine
    >>> X = np.array([[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]], dtype=float)
    >>> clf = LinearMachine(record_history=True, random_state=0).fit(
    ...     X, [0, 0, 1, 1, 2, 2])
    >>> history = clf.history_
    >>> W = history.weights[0].copy()
    >>> for row in history.corrections:
    ...     z = np.append(X[row["sample"]], 1.0)
    ...     W[row["raised"]] += row["step"] * z
    ...     W[row["lowered"]] -= row["share"] * z
    >>> bool(np.array_equal(W, history.weights[-1]))
    True
    >>> bool(np.array_equal(W[:, :2], clf.coef_) and np.array_equal(W[:, 2], clf.intercept_))
    True
    """

    def __init__(
        self,
        corrections,
        weights,
        corrections_per_epoch,
        visits_per_epoch,
        shrinks=False,
    ):
        self.corrections = corrections
        self.weights = weights
        self.corrections_per_epoch = corrections_per_epoch
        self.visits_per_epoch = visits_per_epoch
        self.shrinks = shrinks

    @property
    def n_epochs(self):
        """The epochs recorded."""
        return len(self.corrections_per_epoch)

    def __repr__(self):
        return (
            f"TrainingHistory(n_epochs={self.n_epochs}, "
            f"n_corrections={len(self.corrections)}, "
            f"weights_shape={self.weights.shape})"
        )


class EpochLearner:
    """What a learner hands to `run_epochs`: its epoch loop and its weights.

    A subclass sets ``name`` (shown in messages), binds its `EpochState` to
    ``state`` and implements `epoch`, `weights`, `finish` and `describe` (the
    learner's fields of the recorded corrections).
    """

    name = "learner"
    noun = "mistakes"  # what `epoch` counts
    stop_when_clean = True  # stop after an epoch without corrections
    shrinks = False
    log_rows_per_visit = 1  # the most log rows one visited sample can write
    rate = 1.0

    def __init__(self, X, codes, sample_weight):
        self.X = X
        self.codes = codes
        self.n_features = X.shape[1]
        self.sample_weight = NO_WEIGHTS if sample_weight is None else sample_weight
        self.log, self.n_logged = _NO_LOG, np.zeros(1, dtype=np.intp)
        self.state = None  # the subclass binds its EpochState

    def record_into(self, log, n_logged):
        """Have the epochs write their corrections to ``log`` (see `EpochState`)."""
        self.log, self.n_logged = log, n_logged
        self.state.record_into(log, n_logged)

    def checked(self, count):
        """An epoch kernel's count, or the ValueError of an overflow (`check_epoch`)."""
        return check_epoch(count, self.X, self.sample_weight)

    def check_finite(self, weights, remedy="scale the features first"):
        """``weights``, or the ValueError of an overflow (`check_finite_weights`)."""
        return check_finite_weights(weights, self.X, remedy, self.sample_weight)

    def epoch(self, number, order):
        """Run epoch ``number`` over the rows in ``order``; return its count."""
        raise NotImplementedError

    def weights(self):
        """A copy of the current W, shape (n_rows, n_features + 1), float64."""
        raise NotImplementedError

    def finish(self):
        """The weights training returns (the last ones, or their average)."""
        raise NotImplementedError

    def describe(self, rows, log):
        """Fill ``rival``, ``step``, ``raised``, ``lowered``, ``share`` of ``rows``
        (``epoch``, ``t``, ``sample``, ``target`` are set) from the loop's ``log``
        columns 2 and 3."""
        raise NotImplementedError

    def steps(self, samples):
        """The step of a correction on each of ``samples``: ``rate``, times the
        sample's weight when the fit was weighted (as the loops compute it)."""
        steps = np.full(len(samples), self.rate)
        if self.sample_weight.size:
            steps *= self.sample_weight[samples]
        return steps

    def summary(self, counts):
        """The ``verbose=1`` line: how training ended."""
        if counts[-1] == 0:
            return f"converged after {counted(len(counts), 'epochs')}"
        return (
            f"stopped after {counted(len(counts), 'epochs')}, "
            f"{counted(counts[-1], self.noun)} in the last"
        )

    def unconverged_message(self, counts, max_epochs):
        """Why the result may be poor, or None; by default: the last epoch still
        corrected samples."""
        if counts[-1] == 0:
            return None
        return (
            f"{self.name} reached max_epochs={max_epochs} still making "
            f"{counted(counts[-1], self.noun)} in its last epoch: the classes are not "
            "separated by its discriminants. They may not be separable, or the "
            "features may be badly scaled, which makes the corrections converge "
            "very slowly: standardise the features (for example with "
            "sklearn.preprocessing.StandardScaler), or raise max_epochs."
        )


class MulticlassEpochs(EpochLearner):
    """The epochs of the perceptron rule on a machine of several weight vectors.

    ``Wt`` holds the augmented vectors as its columns (see
    ``patrec/_training.pxd``): one per class here, one per subclass in the
    piecewise-linear machine, which subclasses this.
    """

    def __init__(self, X, codes, Wt, rate, margin, averaged, sample_weight):
        super().__init__(X, codes, sample_weight)
        self.Wt = Wt
        self.Ut = np.zeros_like(Wt)
        self.counter = np.zeros(1)
        self.rate, self.margin, self.averaged = rate, margin, averaged
        self.state = EpochState(X, codes, Wt, self.Ut, self.counter, self.sample_weight)

    def weights(self):
        return self.Wt.T.copy()

    def finish(self):
        """The weights to return, class-minor: the last ones, or their average."""
        if self.averaged:
            self.Wt -= self.Ut / self.counter[0]
        return self.Wt


class EpochTrainerMixin:
    """The one `run_epochs` call of `Perceptron`, `LinearMachine`, `MulticlassSVM`
    and `PiecewiseLinearClassifier`: their parameters ``shuffle``,
    ``random_state``, ``record_history`` and ``verbose`` handed on, and the weights
    training returns checked finite."""

    def _train_epochs(self, learner, max_epochs, rng=None):
        """Train ``learner`` (see `run_epochs`); return ``(weights, counts,
        history)``, the weights those of ``learner.finish()``.

        ``rng``: the generator to draw the epoch orders from, when the learner drew
        from it already (default: ``self.random_state``).
        """
        counts, history = run_epochs(
            learner,
            max_epochs=max_epochs,
            shuffle=self.shuffle,
            random_state=self.random_state if rng is None else rng,
            record_history=self.record_history,
            verbose=self.verbose,
        )
        return learner.check_finite(learner.finish()), counts, history


def run_epochs(
    learner,
    *,
    max_epochs,
    shuffle,
    random_state,
    record_history=False,
    verbose=0,
):
    """Train ``learner`` epoch by epoch: the one epoch loop of every error-correcting
    learner.

    Each epoch visits the rows with a positive weight (all rows when the learner
    has no ``sample_weight``) in a fresh order (see `epoch_orders`) and calls
    ``learner.epoch``.  Training stops after an epoch without corrections (when
    ``learner.stop_when_clean``) or after ``max_epochs`` epochs; in the latter case
    a `ConvergenceWarning` says what is still wrong (``learner.unconverged_message``).

    Parameters
    ----------
    learner : EpochLearner
        With its encoded training labels ``codes`` (the ``target`` of each
        correction) and its ``sample_weight`` (rows of weight 0 are never
        visited).
    max_epochs : int
    shuffle : bool
    random_state : int, Generator or None
    record_history : bool or "weights"
    verbose : int
        1: a summary line; 2: one line per epoch (see `patrec._progress.Reporter`).

    Returns
    -------
    counts : ndarray of shape (n_epochs,)
        What each epoch counted (mistakes, corrections or updates).
    history : TrainingHistory or None
    """
    record = check_record_history(record_history)
    report = Reporter(learner.name, verbose)
    codes, sample_weight = learner.codes, learner.sample_weight
    visited = np.flatnonzero(sample_weight > 0) if sample_weight.size else None
    n_visits = len(codes) if visited is None else len(visited)
    recorder = _Recorder(learner, codes, n_visits, record) if record else None
    n_logged = np.zeros(1, dtype=np.intp)
    if recorder is not None:
        learner.record_into(recorder.log, n_logged)
    counts = []
    for number, order in enumerate(
        epoch_orders(n_visits, shuffle, random_state), start=1
    ):
        if visited is not None:
            order = visited[order]
        n_logged[0] = 0
        counts.append(learner.epoch(number, order))
        if recorder is not None:
            recorder.add_epoch(number, order, recorder.log[: n_logged[0]], counts[-1])
        report(2, f"epoch {number}: {counted(counts[-1], learner.noun)}")
        if (learner.stop_when_clean and counts[-1] == 0) or number == max_epochs:
            break
    report(1, learner.summary(counts))
    problem = learner.unconverged_message(counts, max_epochs)
    if problem is not None:
        warn_caller(problem, ConvergenceWarning)
    history = recorder.history() if recorder is not None else None
    return np.asarray(counts, dtype=np.intp), history


def counted(count, noun):
    """``"1 mistake"``, ``"3 mistakes"``: a count and its plural noun."""
    return f"{count} {noun if count != 1 else noun[:-1]}"


class _Recorder:
    """Collects the corrections and the weights of every epoch."""

    def __init__(self, learner, codes, n_visits, record):
        self.learner = learner
        self.codes = codes
        self.n_visits = n_visits
        self.keep_corrections = record is True
        rows = n_visits * learner.log_rows_per_visit if self.keep_corrections else 0
        self.log = np.zeros((rows, 4), dtype=np.intp)
        self.weights = [learner.weights()]
        self.corrections = []
        self.counts = []

    def add_epoch(self, number, order, log, count):
        self.weights.append(self.learner.weights())
        self.counts.append(count)
        if not self.keep_corrections:
            return
        rows = np.zeros(len(log), dtype=CORRECTION_DTYPE)
        rows["epoch"] = number
        rows["t"] = log[:, 1]
        rows["sample"] = order[log[:, 0]]
        rows["target"] = self.codes[rows["sample"]]
        self.learner.describe(rows, log)
        self.corrections.append(rows)

    def history(self):
        corrections = (
            np.concatenate(self.corrections)
            if self.corrections
            else np.zeros(0, dtype=CORRECTION_DTYPE)
        )
        return TrainingHistory(
            corrections,
            np.stack(self.weights),
            np.asarray(self.counts, dtype=np.intp),
            self.n_visits,
            self.learner.shrinks,
        )


def replay(history, X, *, start=0, stop=None):
    """Re-apply the recorded corrections; yield (row index, W) after each one.

    Starts from ``history.weights[0]`` and applies the corrections in order with the
    learner's rule: W[raised] += step (x, 1), W[lowered] -= share (x, 1), and for a
    shrinking learner (`MulticlassSVM`) W scaled by (1 - 1/s) at every step s,
    rows without a correction included.  A correction that lowers several rows
    (``update="all"``) is yielded once, after its last row.

    Parameters
    ----------
    history : TrainingHistory
        With its corrections recorded (``record_history=True``).
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        The training data the history was recorded on.
    start, stop : int
        Yield only for the correction rows ``start <= index < stop`` (all are
        applied up to ``stop``).

    Yields
    ------
    index : int
        The row of ``history.corrections`` just applied.
    W : ndarray of shape (n_rows, n_features + 1)
        The weights after it (the same array, updated in place: copy to keep).

    Raises
    ------
    ValueError
        When ``X`` cannot be the training data: too few rows or a different number
        of features, or the corrections replayed on it do not give the weights
        recorded after an epoch.
    """
    corrections = history.corrections
    if (
        len(corrections) == 0
        and history.n_epochs
        and history.corrections_per_epoch.sum() > 0
    ):
        raise ValueError(
            "The history holds no corrections (record_history='weights'); "
            "fit with record_history=True to replay them."
        )
    X = check_X(X, accept_sparse=True)
    n_features = history.weights.shape[2] - 1
    n_rows = int(corrections["sample"].max()) + 1 if len(corrections) else 1
    if X.shape[1] != n_features or X.shape[0] < n_rows:
        raise ValueError(
            f"X must be the training data the history was recorded on ({n_features} "
            f"features, at least {n_rows} rows); got shape {X.shape}."
        )
    stop = len(corrections) if stop is None else stop
    W = history.weights[0].copy()
    done = 0  # steps of the shrinking learner already applied to W
    for index in range(stop):
        row = corrections[index]
        if history.shrinks:
            t = int(row["t"])
            if t != done:  # steps done + 1 .. t multiply W by done / t
                W *= done / t if done else 0.0
                done = t
        x = X[row["sample"]]
        x = x.toarray().ravel() if sp.issparse(x) else x
        z = np.append(np.asarray(x, dtype=np.float64), 1.0)
        if row["raised"] >= 0:
            W[row["raised"]] += row["step"] * z
        if row["lowered"] >= 0:
            W[row["lowered"]] -= row["share"] * z
        if (
            index + 1 == len(corrections)
            or corrections[index + 1]["epoch"] != row["epoch"]
        ):
            _check_epoch_reached(history, W, int(row["epoch"]), done)
        last_of_its_correction = index + 1 == len(corrections) or not continues(
            corrections, index + 1
        )
        if index >= start and last_of_its_correction:
            yield index, W


def _check_epoch_reached(history, W, epoch, done):
    """Raise a ValueError unless the replayed W (its last correction in ``epoch``
    applied; ``done`` steps shrunk, for a shrinking learner) is the recorded W after
    that epoch: a replay on other data than the training data drifts away."""
    if history.shrinks:  # the steps after the last correction of the epoch shrink W
        W = W * (done / (epoch * history.visits_per_epoch))
    recorded = history.weights[epoch]
    # loose enough for the same data in another precision, far below what other
    # data give
    scale = float(np.abs(recorded).max())
    if not np.allclose(W, recorded, rtol=1e-6, atol=1e-6 * scale):
        raise ValueError(
            f"Replaying the corrections on this X does not give the weights recorded "
            f"after epoch {epoch}: X must be the training data the history was "
            "recorded on, in the same row order."
        )


def continues(corrections, index):
    """Whether row ``index`` continues the correction of the row before it: one more
    class lowered by an ``update="all"`` correction (same step, nothing raised, a
    shared step)."""
    if index == 0:
        return False
    row, before = corrections[index], corrections[index - 1]
    return (
        row["raised"] < 0
        and row["share"] != row["step"]
        and row["t"] == before["t"]
        and row["epoch"] == before["epoch"]
    )

"""The training history of an error-correcting learner: corrections and training
error, epoch by epoch (matplotlib, imported lazily)."""

import numpy as np

from .._validation import check_labels, check_X
from ._common import class_codes, weights_decider

__all__ = ["plot_history"]


def plot_history(clf, X=None, y=None, ax=None):
    """Draw the corrections made in each epoch and, given the data, the training error.

    Bars: the corrections (mistakes) of each epoch, from ``clf.history_`` or
    ``mistakes_`` / ``corrections_``.  With ``X`` and ``y`` and a recorded history
    (``record_history=True`` or ``"weights"``), a line on a second axis gives the
    training error of the weights held after each epoch, from the initial weights
    (epoch 0) on: the current weights, not the average of ``averaged=True``.

    Parameters
    ----------
    clf : fitted Perceptron, LinearMachine, MulticlassSVM or PiecewiseLinearClassifier
    X : array-like of shape (n_samples, n_features), default=None
        The training data (any number of features).
    y : array-like of shape (n_samples,), default=None
        Their labels.
    ax : matplotlib Axes, default=None
        Where to draw; the current axes when None.

    Returns
    -------
    ax : matplotlib Axes
        The axes of the bars; the error line is on ``ax.right_ax``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from patrec import LinearMachine
    >>> from patrec.plotting import plot_history
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> clf = LinearMachine(record_history=True, random_state=0).fit(X, y)
    >>> ax = plot_history(clf, X, y)
    >>> [round(bar.get_height()) for bar in ax.patches] == clf.mistakes_.tolist()
    True
    """
    import matplotlib.pyplot as plt

    history = getattr(clf, "history_", None)
    if history is not None:
        counts = history.corrections_per_epoch
    else:
        counts = getattr(clf, "mistakes_", getattr(clf, "corrections_", None))
        if counts is None:
            raise ValueError(
                f"plot_history needs a fitted error-correcting learner (with mistakes_ "
                f"or history_); got {type(clf).__name__}."
            )
    if (X is None) != (y is None):
        raise ValueError("Give both X and y (for the training error), or neither.")
    if ax is None:
        ax = plt.gca()
    epochs = np.arange(1, len(counts) + 1)
    noun = "updates" if getattr(history, "shrinks", False) else "corrections"
    ax.bar(epochs, counts, color="C0", alpha=0.7, label=f"{noun} in the epoch")
    ax.set_xlabel("epoch")
    ax.set_ylabel(f"{noun} per epoch")
    ax.set_title(f"Training of {type(clf).__name__}")
    handles = ax.get_legend_handles_labels()
    if X is not None:
        if history is None:
            raise ValueError(
                "The training error per epoch needs the weights of every "
                "epoch: fit with record_history=True or 'weights'."
            )
        X = check_X(X)
        if X.shape[1] != history.weights.shape[2] - 1:
            raise ValueError(
                f"X has {X.shape[1]} features; {type(clf).__name__} was trained on "
                f"{history.weights.shape[2] - 1}."
            )
        codes = class_codes(clf.classes_, check_labels(y, X.shape[0]))
        decide = weights_decider(clf)
        Z = np.hstack([X.astype(np.float64), np.ones((X.shape[0], 1))])
        errors = [np.mean(decide(W, Z) != codes) for W in history.weights]
        right = ax.twinx()
        right.plot(
            np.arange(len(errors)),
            errors,
            "o-",
            color="C3",
            markersize=3,
            label="training error",
        )
        right.set_ylabel("training error of the epoch's weights")
        right.set_ylim(0, max(max(errors) * 1.1, 0.05))
        ax.right_ax = right
        more = right.get_legend_handles_labels()
        handles = (handles[0] + more[0], handles[1] + more[1])
    ax.legend(*handles, loc="upper right", fontsize="small")
    ax.set_xlim(-0.5 if X is not None else 0.5, len(counts) + 0.5)
    return ax

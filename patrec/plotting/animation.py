"""The decision regions of an error-correcting learner, animated correction by
correction (or epoch by epoch) from its recorded history (matplotlib, imported
lazily)."""

import numbers

import numpy as np

from .._training import continues, replay
from .._validation import check_labels, check_option, check_scalar, check_X
from ._common import (
    axis_names,
    class_codes,
    class_colours,
    grid_over,
    weights_decider,
)

__all__ = ["animate_training"]


def animate_training(
    clf,
    X,
    y,
    *,
    by="auto",
    max_frames=150,
    resolution=120,
    interval=150,
    margin=0.1,
    cmap="tab10",
    fig=None,
):
    """Animate the decision regions of an error-correcting learner as it trained.

    Replays ``clf.history_`` (fit with ``record_history=True``): each frame shows the
    regions of the weights after one correction, with the corrected sample ringed
    and its rival named in the title, or, for long runs, after each epoch.  The
    weights are the current ones, not the average of ``averaged=True``; the last
    frame is the end of training.

    Parameters
    ----------
    clf : fitted Perceptron, LinearMachine, MulticlassSVM or PiecewiseLinearClassifier
        Trained on two features with ``record_history=True`` (``"weights"`` allows
        ``by="epoch"`` only).
    X : array-like of shape (n_samples, 2)
        The training data.
    y : array-like of shape (n_samples,)
        Their labels.
    by : {"auto", "correction", "epoch"}, default="auto"
        One frame per correction, or per epoch; ``"auto"`` takes corrections when
        there are at most ``max_frames`` of them.
    max_frames : int, default=150
        The most frames; with more corrections or epochs, evenly spaced ones are
        shown (the last always).
    resolution : int, default=120
        Grid points along each axis.
    interval : int, default=150
        Milliseconds between frames.
    margin : float, default=0.1
        Extra room around the data, as a fraction of its range.
    cmap : str, default="tab10"
        Qualitative colour map; class i gets its colour i.
    fig : matplotlib Figure, default=None
        Where to draw; a new figure when None.

    Returns
    -------
    animation : matplotlib.animation.FuncAnimation
        Show it with ``plt.show()``, save it with ``animation.save("run.gif")``, or
        display ``animation.to_jshtml()`` in a notebook.  ``animation.frames_``
        lists each frame's (epoch, correction row or -1) and ``animation.weights_``
        its weights.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from patrec import LinearMachine
    >>> from patrec.plotting import animate_training
    >>> X = [[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]]
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> clf = LinearMachine(record_history=True, random_state=0).fit(X, y)
    >>> anim = animate_training(clf, X, y)
    >>> len(anim.frames_) == len(clf.history_.corrections) + 1
    True
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation
    from matplotlib.colors import ListedColormap

    history = getattr(clf, "history_", None)
    if history is None:
        if "record_history" not in getattr(clf, "get_params", dict)():
            raise ValueError(
                "animate_training replays the corrections of an error-correcting "
                "learner (Perceptron, LinearMachine, MulticlassSVM, "
                f"PiecewiseLinearClassifier); {type(clf).__name__} has none to "
                "replay."
            )
        raise ValueError(
            f"animate_training replays the history of the training: fit "
            f"{type(clf).__name__} with record_history=True first."
        )
    names = axis_names(clf, X)
    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(
            f"animate_training draws 2-D data; X has {X.shape[1]} features."
        )
    codes = class_codes(clf.classes_, check_labels(y, X.shape[0]))
    check_option(by, "by", ("auto", "correction", "epoch"))
    check_scalar(max_frames, "max_frames", numbers.Integral, low=2)
    check_scalar(resolution, "resolution", numbers.Integral, low=2)
    rows = history.corrections
    if by == "auto":
        by = "correction" if 0 < len(rows) < max_frames else "epoch"
    if by == "correction" and len(rows) == 0 and history.corrections_per_epoch.sum():
        raise ValueError(
            "by='correction' needs the corrections: fit with "
            "record_history=True (not 'weights')."
        )

    # the frames: (epoch, correction row or -1) and the weights to draw
    frames, weights = [(0, -1)], [history.weights[0]]
    if by == "correction":
        for index, W in replay(history, X):
            frames.append((int(rows[index]["epoch"]), index))
            weights.append(W.copy())
    else:
        for epoch in range(1, history.n_epochs + 1):
            frames.append((epoch, -1))
            weights.append(history.weights[epoch])
    if len(frames) > max_frames:
        keep = np.unique(
            np.linspace(0, len(frames) - 1, max_frames).round().astype(int)
        )
        frames = [frames[i] for i in keep]
        weights = [weights[i] for i in keep]

    colours = class_colours(plt.get_cmap(cmap), len(clf.classes_))
    grid_x, grid_y, grid = grid_over(X, resolution, margin)
    Z = np.hstack([grid, np.ones((len(grid), 1))])
    decide = weights_decider(clf)
    if fig is None:
        fig = plt.figure(figsize=(6.5, 4.8))
    ax = fig.gca()
    fig.subplots_adjust(right=0.75)  # room for the legend, outside the data
    extent = (grid_x[0, 0], grid_x[0, -1], grid_y[0, 0], grid_y[-1, 0])
    image = ax.imshow(
        decide(weights[0], Z).reshape(grid_x.shape),
        origin="lower",
        extent=extent,
        cmap=ListedColormap(colours),
        alpha=0.3,
        vmin=-0.5,
        vmax=len(colours) - 0.5,
        aspect="auto",
        interpolation="nearest",
    )
    for code, label in enumerate(clf.classes_):
        inside = codes == code
        ax.scatter(
            X[inside, 0],
            X[inside, 1],
            color=colours[code],
            s=18,
            edgecolors="k",
            linewidths=0.3,
            label=str(label),
            zorder=2,
        )
    ring = ax.scatter(
        [],
        [],
        s=160,
        facecolors="none",
        edgecolors="k",
        linewidths=1.8,
        zorder=3,
        label="corrected sample",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small")
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    names = [str(label) for label in clf.classes_]

    def rivals(index):
        """The classes that lost in the correction ending at row ``index``."""
        first = index
        while first > 0 and continues(rows, first):
            first -= 1
        found = [names[r] for r in rows[first : index + 1]["rival"] if r >= 0]
        return ", ".join(found) if found else "the rest"

    def draw(frame):
        (epoch, index), W = frames[frame], weights[frame]
        image.set_data(decide(W, Z).reshape(grid_x.shape))
        if index >= 0:
            row = rows[index]
            ring.set_offsets(X[[row["sample"]]])
            title = (
                f"epoch {epoch}: sample {row['sample']} "
                f"({names[row['target']]}) against {rivals(index)}"
            )
        else:
            ring.set_offsets(np.empty((0, 2)))
            title = "initial weights" if epoch == 0 else f"after epoch {epoch}"
        ax.set_title(f"{type(clf).__name__}, {title}", fontsize="medium")
        return image, ring

    draw(len(frames) - 1)
    animation = FuncAnimation(
        fig, draw, frames=len(frames), interval=interval, blit=False, repeat_delay=1500
    )
    animation.frames_ = frames
    animation.weights_ = weights
    return animation

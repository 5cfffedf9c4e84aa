"""Pictures of classifiers on two-dimensional data (matplotlib, imported lazily).

`plot_decision_regions` colours the plane by the class a fitted classifier predicts,
draws the training samples on top, and can mark prototypes (subclass means, condensed
samples, ...).  Points a classifier refuses to classify (a k-NN reject option) get a
colour of their own, and for a one-versus-all classifier the points that no binary
model, or several, claim can be shown.  matplotlib is imported only when a function
here is called.
"""
import numbers

import numpy as np

from ._validation import check_labels, check_scalar, check_X, feature_names_of
from .exceptions import NotFittedError

__all__ = ["plot_decision_regions"]

# The colour of the reject region, and the hatching of the one-vs-all claims.
REJECT_COLOUR = "0.25"
_NO_CLAIM_HATCH = "...."
_SEVERAL_CLAIMS_HATCH = "xxxx"


def plot_decision_regions(clf, X, y=None, ax=None, *, resolution=200, prototypes=None,
                          margin=0.1, alpha=0.3, cmap="tab10", legend=True,
                          feature_names=None, class_names=None, claims=False):
    """Draw the decision regions of a fitted classifier over 2-D data.

    The plane around ``X`` is sampled on a ``resolution`` x ``resolution`` grid,
    ``clf.predict`` labels every grid point, and the regions are filled with one colour
    per class (``clf.classes_`` order).  Grid points that ``predict`` labels with no
    class (a rejected point: the ``reject_label`` of a `KNeighborsClassifier` with a
    ``reject_threshold``) form the reject region, filled dark grey.  The samples are
    drawn on top in their class colours.

    Parameters
    ----------
    clf : fitted classifier
        Anything with ``predict`` trained on two features: a patrec or scikit-learn
        classifier, a pipeline.  The classes are ``clf.classes_`` when it has them,
        else the labels seen in ``y`` and in the predictions.
    X : array-like of shape (n_samples, 2)
        The samples to draw; they also set the plotted area.
    y : array-like of shape (n_samples,), default=None
        Their labels; ``None`` draws the samples in grey.
    ax : matplotlib Axes, default=None
        Where to draw; the current axes when None.
    resolution : int, default=200
        Grid points along each axis (at least 2).
    prototypes : None, True or array-like of shape (n_prototypes, 2), default=None
        Points to mark with large symbols.  ``True`` takes ``clf.prototypes_`` coloured
        by ``clf.prototype_labels_``.
    margin : float, default=0.1
        Extra room around the data, as a fraction of its range.
    alpha : float, default=0.3
        Opacity of the filled regions.
    cmap : str, default="tab10"
        A qualitative matplotlib colour map; class i gets its colour i.
    legend : bool, default=True
        Add a legend naming the classes (and the reject region, the prototypes and
        the one-vs-all claims when drawn).
    feature_names : sequence of two str, default=None
        The axis labels.  None takes ``clf.feature_names_in_`` (a classifier fitted
        on a data frame), then the column names of ``X``; else ``"x1"`` and ``"x2"``.
    class_names : sequence or dict, default=None
        The names shown in the legend: one per class in ``clf.classes_`` order, or a
        dict from class label to name.  None shows the labels themselves.
    claims : bool, default=False
        For a `OneVsAll` classifier: hatch the points where no binary model claims
        the point (every score negative, dotted) and where several do (crossed).
        The fusion rule still assigns those points a class; the hatching shows where
        it had to arbitrate.

    Returns
    -------
    ax : matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from patrec import MinimumDistanceClassifier
    >>> from patrec.plotting import plot_decision_regions
    >>> X = [[0, 0], [0, 1], [3, 3], [3, 4]]
    >>> clf = MinimumDistanceClassifier().fit(X, [0, 0, 1, 1])
    >>> ax = plot_decision_regions(clf, X, [0, 0, 1, 1], prototypes=True,
    ...                            class_names=["small", "large"],
    ...                            feature_names=["width", "height"])
    >>> ax.get_xlabel(), [t.get_text() for t in ax.get_legend().get_texts()]
    ('width', ['small', 'large', 'prototypes'])
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    names = _axis_names(clf, X, feature_names)
    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(
            f"plot_decision_regions draws 2-D data; X has {X.shape[1]} features. "
            "Project the data to two features first (for example with FisherLDA)."
        )
    check_scalar(resolution, "resolution", numbers.Integral, low=2)
    if claims:
        _check_one_vs_all(clf)
    if y is not None:
        y = check_labels(y, X.shape[0])
    if ax is None:
        ax = plt.gca()

    grid_x, grid_y, grid = _grid(X, resolution, margin)
    grid = _as_fitted_input(clf, grid)
    predicted = _predict(clf, grid)
    classes = _classes(clf, y, predicted)
    labels = _label_names(classes, class_names)
    colours = _class_colours(plt.get_cmap(cmap), len(classes))

    # Code n_classes marks the grid points given no class: the reject region.
    codes = _class_codes(classes, predicted, unknown=len(classes)).reshape(grid_x.shape)
    rejected = bool((codes == len(classes)).any())
    ax.contourf(grid_x, grid_y, codes, levels=np.arange(len(classes) + 2) - 0.5,
                cmap=ListedColormap(colours + [REJECT_COLOUR]), alpha=alpha,
                vmin=-0.5, vmax=len(classes) + 0.5)
    handles = [Patch(facecolor=colours[code], alpha=max(alpha, 0.5), edgecolor="k",
                     linewidth=0.3, label=labels[code]) for code in range(len(classes))]
    if rejected:
        handles.append(Patch(facecolor=REJECT_COLOUR, alpha=max(alpha, 0.5),
                             label="rejected"))
    if claims:
        handles += _draw_claims(ax, clf, grid, grid_x, grid_y)

    if y is None:
        ax.scatter(X[:, 0], X[:, 1], c="0.4", s=15, edgecolors="k", linewidths=0.3)
    else:
        sample_codes = _class_codes(classes, y)
        for code in range(len(classes)):
            inside = sample_codes == code
            handles[code] = ax.scatter(X[inside, 0], X[inside, 1], color=colours[code],
                                       s=15, edgecolors="k", linewidths=0.3,
                                       label=labels[code])
    marked = _draw_prototypes(ax, clf, classes, colours, prototypes)
    if marked is not None:
        handles.append(marked)
    ax.set_xlim(grid_x[0, 0], grid_x[0, -1])
    ax.set_ylim(grid_y[0, 0], grid_y[-1, 0])
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    if legend:
        ax.legend(handles=handles, loc="best", fontsize="small", framealpha=0.8)
    return ax


def _grid(X, resolution, margin):
    """A ``resolution`` x ``resolution`` grid over the data, padded by ``margin``."""
    low, high = X.min(axis=0), X.max(axis=0)
    pad = margin * np.where(high > low, high - low, 1.0)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], resolution)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], resolution)
    grid_x, grid_y = np.meshgrid(xs, ys)
    return grid_x, grid_y, np.column_stack([grid_x.ravel(), grid_y.ravel()])


def _axis_names(clf, X, feature_names):
    if feature_names is None:
        feature_names = getattr(clf, "feature_names_in_", None)
    if feature_names is None:
        feature_names = feature_names_of(X)
    if feature_names is None:
        return ["x1", "x2"]
    if isinstance(feature_names, str) or len(feature_names) != 2:
        raise ValueError(
            f"feature_names must name the two plotted features, got {feature_names!r}."
        )
    return [str(name) for name in feature_names]


def _as_fitted_input(clf, grid):
    """The grid as the classifier was fitted: a data frame when it saw column names."""
    names = getattr(clf, "feature_names_in_", None)
    if names is None:
        return grid
    import pandas  # the classifier was fitted on a data frame, so pandas is there

    return pandas.DataFrame(grid, columns=list(names))


def _predict(clf, grid):
    if not hasattr(clf, "predict"):
        raise TypeError(f"clf must be a classifier with predict; got {type(clf).__name__}.")
    try:
        return np.asarray(clf.predict(grid))
    except (NotFittedError, ValueError, AttributeError) as exc:
        # ours, or scikit-learn's NotFittedError (a ValueError and AttributeError)
        if type(exc).__name__ == "NotFittedError":
            raise ValueError(f"clf must be a fitted classifier: {exc}") from None
        raise


def _classes(clf, y, predicted):
    """The classes in the classifier's order, or those seen in y and the predictions."""
    classes = getattr(clf, "classes_", None)
    if classes is not None:
        return np.asarray(classes)
    seen = predicted if y is None else np.concatenate([np.asarray(y, dtype=object),
                                                        predicted.astype(object)])
    try:
        return np.unique(seen)
    except TypeError:
        return np.array(sorted(set(seen.tolist()), key=str), dtype=object)


def _label_names(classes, class_names):
    if class_names is None:
        return [str(label) for label in classes.tolist()]
    if isinstance(class_names, dict):
        return [str(class_names.get(label, label)) for label in classes.tolist()]
    if isinstance(class_names, str) or len(class_names) != len(classes):
        raise ValueError(
            f"class_names must hold one name per class ({len(classes)}) or map labels "
            f"to names, got {class_names!r}."
        )
    return [str(name) for name in class_names]


def _class_colours(base, n_classes):
    colours = list(getattr(base, "colors", []))[:n_classes]
    if len(colours) < n_classes:
        colours = [base(i / max(n_classes - 1, 1)) for i in range(n_classes)]
    return colours


def _class_codes(classes, labels, unknown=None):
    """Positions of ``labels`` in ``classes``.

    A label that is no class becomes ``unknown``; with ``unknown=None`` it is an error
    (the labels ``y`` of the samples must be classes).
    """
    position = {_key(label): code for code, label in enumerate(np.asarray(classes).tolist())}
    codes = []
    for label in np.asarray(labels).tolist():
        code = position.get(_key(label), unknown)
        if code is None:
            raise ValueError(
                f"y holds labels the classifier was not trained on, such as {label!r}."
            )
        codes.append(code)
    return np.array(codes, dtype=np.intp)


def _key(label):
    """A dictionary key under which 1 and 1.0 meet but -1 and "-1" do not."""
    return (isinstance(label, str), label)


def _check_one_vs_all(clf):
    from .linear import OneVsAll

    if not isinstance(clf, OneVsAll):
        raise ValueError(
            f"claims=True shows the binary models of a OneVsAll classifier; "
            f"{type(clf).__name__} is not one."
        )


def _draw_claims(ax, clf, grid, grid_x, grid_y):
    """Hatch where no binary model of a one-vs-all classifier claims the point, or
    several do; return the legend handles."""
    from matplotlib.patches import Patch

    from .linear._reduction import binary_scores

    claimed = (binary_scores(clf.estimators_, np.asarray(grid, dtype=float)) > 0).sum(axis=1)
    handles = []
    for mask, hatch, text in ((claimed == 0, _NO_CLAIM_HATCH, "no class claims"),
                              (claimed > 1, _SEVERAL_CLAIMS_HATCH, "several classes claim")):
        mask = mask.reshape(grid_x.shape)
        if mask.any():
            ax.contourf(grid_x, grid_y, mask.astype(float), levels=[0.5, 1.5],
                        colors="none", hatches=[hatch])
            handles.append(Patch(facecolor="white", edgecolor="k", hatch=hatch,
                                 label=text))
    return handles


def _draw_prototypes(ax, clf, classes, colours, prototypes):
    if prototypes is None or prototypes is False:
        return None
    if prototypes is True:
        if not hasattr(clf, "prototypes_"):
            raise ValueError(
                f"prototypes=True needs a classifier with prototypes_; "
                f"{type(clf).__name__} has none."
            )
        points = np.asarray(clf.prototypes_, dtype=float)
        point_colours = [colours[code] for code in
                         _class_codes(classes, clf.prototype_labels_)]
    else:
        points = check_X(prototypes, name="prototypes")
        if points.shape[1] != 2:
            raise ValueError("prototypes must have two columns.")
        point_colours = "k"
    return ax.scatter(points[:, 0], points[:, 1], c=point_colours, marker="*", s=250,
                      edgecolors="k", linewidths=1.0, zorder=3, label="prototypes")


# -- Watching the algorithms: training histories, animations, search pictures ----------
# (the ``history_`` of the error-correcting learners, `BranchBoundTree.explain`)

__all__ += ["plot_history", "animate_training", "plot_search"]


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
            raise ValueError("The training error per epoch needs the weights of every "
                             "epoch: fit with record_history=True or 'weights'.")
        X = check_X(X)
        if X.shape[1] != history.weights.shape[2] - 1:
            raise ValueError(
                f"X has {X.shape[1]} features; {type(clf).__name__} was trained on "
                f"{history.weights.shape[2] - 1}."
            )
        codes = _class_codes(clf.classes_, check_labels(y, X.shape[0]))
        decide = _weights_decider(clf)
        Z = np.hstack([X.astype(np.float64), np.ones((X.shape[0], 1))])
        errors = [np.mean(decide(W, Z) != codes) for W in history.weights]
        right = ax.twinx()
        right.plot(np.arange(len(errors)), errors, "o-", color="C3", markersize=3,
                   label="training error")
        right.set_ylabel("training error of the epoch's weights")
        right.set_ylim(0, max(max(errors) * 1.1, 0.05))
        ax.right_ax = right
        more = right.get_legend_handles_labels()
        handles = (handles[0] + more[0], handles[1] + more[1])
    ax.legend(*handles, loc="upper right", fontsize="small")
    ax.set_xlim(-0.5 if X is not None else 0.5, len(counts) + 0.5)
    return ax


def animate_training(clf, X, y, *, by="auto", max_frames=150, resolution=120,
                     interval=150, margin=0.1, cmap="tab10", fig=None):
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

    from ._training import continues, replay
    from ._validation import check_option

    history = getattr(clf, "history_", None)
    if history is None:
        raise ValueError(
            f"animate_training replays the history of the training: fit "
            f"{type(clf).__name__} with record_history=True first."
        )
    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(f"animate_training draws 2-D data; X has {X.shape[1]} features.")
    codes = _class_codes(clf.classes_, check_labels(y, X.shape[0]))
    check_option(by, "by", ("auto", "correction", "epoch"))
    check_scalar(max_frames, "max_frames", numbers.Integral, low=2)
    check_scalar(resolution, "resolution", numbers.Integral, low=2)
    rows = history.corrections
    if by == "auto":
        by = "correction" if 0 < len(rows) < max_frames else "epoch"
    if by == "correction" and len(rows) == 0 and history.corrections_per_epoch.sum():
        raise ValueError("by='correction' needs the corrections: fit with "
                         "record_history=True (not 'weights').")

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
        keep = np.unique(np.linspace(0, len(frames) - 1, max_frames).round().astype(int))
        frames = [frames[i] for i in keep]
        weights = [weights[i] for i in keep]

    colours = _class_colours(plt.get_cmap(cmap), len(clf.classes_))
    grid_x, grid_y, grid = _grid(X, resolution, margin)
    Z = np.hstack([grid, np.ones((len(grid), 1))])
    decide = _weights_decider(clf)
    if fig is None:
        fig = plt.figure(figsize=(6.5, 4.8))
    ax = fig.gca()
    fig.subplots_adjust(right=0.75)  # room for the legend, outside the data
    extent = (grid_x[0, 0], grid_x[0, -1], grid_y[0, 0], grid_y[-1, 0])
    image = ax.imshow(decide(weights[0], Z).reshape(grid_x.shape), origin="lower",
                      extent=extent, cmap=ListedColormap(colours), alpha=0.3,
                      vmin=-0.5, vmax=len(colours) - 0.5, aspect="auto",
                      interpolation="nearest")
    for code, label in enumerate(clf.classes_):
        inside = codes == code
        ax.scatter(X[inside, 0], X[inside, 1], color=colours[code], s=18,
                   edgecolors="k", linewidths=0.3, label=str(label), zorder=2)
    ring = ax.scatter([], [], s=160, facecolors="none", edgecolors="k",
                      linewidths=1.8, zorder=3, label="corrected sample")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small")
    names = [str(label) for label in clf.classes_]

    def rivals(index):
        """The classes that lost in the correction ending at row ``index``."""
        first = index
        while first > 0 and continues(rows, first):
            first -= 1
        found = [names[r] for r in rows[first:index + 1]["rival"] if r >= 0]
        return ", ".join(found) if found else "the rest"

    def draw(frame):
        (epoch, index), W = frames[frame], weights[frame]
        image.set_data(decide(W, Z).reshape(grid_x.shape))
        if index >= 0:
            row = rows[index]
            ring.set_offsets(X[[row["sample"]]])
            title = (f"epoch {epoch}: sample {row['sample']} "
                     f"({names[row['target']]}) against {rivals(index)}")
        else:
            ring.set_offsets(np.empty((0, 2)))
            title = "initial weights" if epoch == 0 else f"after epoch {epoch}"
        ax.set_title(f"{type(clf).__name__}, {title}", fontsize="medium")
        return image, ring

    draw(len(frames) - 1)
    animation = FuncAnimation(fig, draw, frames=len(frames), interval=interval,
                              blit=False, repeat_delay=1500)
    animation.frames_ = frames
    animation.weights_ = weights
    return animation


def _box_corners(tree, node):
    """The four corners of a 2-D tree node's bounding box."""
    low, high = tree._low[node].astype(np.float64), tree._high[node].astype(np.float64)
    return np.array([low, [high[0], low[1]], high, [low[0], high[1]]])


def plot_search(tree, x, k=1, ax=None, *, explanation=None, samples=True,
                node_labels=True):
    """Draw the branch-and-bound search of one query on a 2-D tree (the course's figure).

    Every node the search looked at is drawn as its ball: centre M_p, radius r_p
    (a circle for the euclidean metric, a diamond for cityblock, a square for
    chebyshev); the inner nodes of the k-d partition, tested by their boxes, as
    their bounding boxes.  Nodes the search entered are drawn in green, nodes pruned by
    rule 1 in red (dashed), and for the k-d partition the bounding boxes of the
    nodes pruned by the box rule in purple (dotted); the samples whose distance was
    computed in blue, those skipped by rule 2 as orange crosses, the k nearest as
    stars, and the query with the final bound B around it.

    Parameters
    ----------
    tree : BranchBoundTree
        Built on two features, with a euclidean, sqeuclidean, cityblock, chebyshev
        or minkowski metric.
    x : array-like of shape (2,)
        The query.
    k : int, default=1
        Neighbours searched for.
    ax : matplotlib Axes, default=None
        Where to draw; the current axes when None.
    explanation : SearchExplanation, default=None
        ``tree.explain(x, k)``, computed when None; one given must be for this
        ``x`` and ``k``.
    samples : bool, default=True
        Draw the training samples the search never reached, in light grey.
    node_labels : bool, default=True
        Write each drawn node's number at its mean M_p (the numbers of
        ``explanation.entered``, ``explanation.pruned`` and
        ``explanation.pruned_by_box``).

    Returns
    -------
    ax : matplotlib Axes
        The axes drawn on; ``ax.explanation`` holds the explanation drawn.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from patrec.neighbors import BranchBoundTree
    >>> from patrec.plotting import plot_search
    >>> X = np.random.default_rng(0).uniform(size=(300, 2))
    >>> tree = BranchBoundTree(X, leaf_size=10, random_state=0)
    >>> ax = plot_search(tree, [0.5, 0.5])
    >>> len(ax.explanation.entered) > 0
    True
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon

    if tree.n_features != 2:
        raise ValueError(f"plot_search draws 2-D trees; this one has {tree.n_features} "
                         "features.")
    metric = tree._metric
    if metric.transform is not None:
        raise ValueError("plot_search draws the balls of the euclidean, cityblock, "
                         "chebyshev and minkowski metrics; the mahalanobis tree "
                         "lives in a mapped space.")
    if explanation is None:
        explanation = tree.explain(x, k)
    elif explanation.k != k or not np.array_equal(
            np.asarray(x, dtype=explanation.query.dtype).ravel(), explanation.query):
        raise ValueError(
            "explanation must be tree.explain(x, k) for the x and k given here "
            f"(it searched for the {explanation.k} nearest of "
            f"{explanation.query.tolist()})."
        )
    if ax is None:
        ax = plt.gca()
    ball = _ball_outline(metric.name, metric.p)
    centers, radius = tree._centers.astype(np.float64), tree._radius
    data = tree._training_rows().astype(np.float64)

    entered = explanation.entered["node"]
    for node in entered[1:] if len(entered) > 1 else entered:
        if tree._use_boxes and tree._node_nchild[node] > 0:
            # the k-d partition tests its inner nodes by their boxes alone
            ax.add_patch(Polygon(_box_corners(tree, node), closed=True, fill=False,
                                 edgecolor="tab:green", linewidth=1.0))
            continue
        ax.add_patch(Polygon(centers[node] + radius[node] * ball, closed=True,
                             fill=False, edgecolor="tab:green", linewidth=1.2))
    for node in explanation.pruned["node"]:
        ax.add_patch(Polygon(centers[node] + radius[node] * ball, closed=True,
                             fill=True, facecolor=(0.84, 0.15, 0.16, 0.06),
                             edgecolor="tab:red", linestyle="--", linewidth=1.0))
    boxed = explanation.pruned_by_box["node"]
    for node in boxed:  # the k-d partition's box rule
        ax.add_patch(Polygon(_box_corners(tree, node), closed=True, fill=True,
                             facecolor=(0.58, 0.40, 0.74, 0.08),
                             edgecolor="tab:purple", linestyle=":", linewidth=1.0))
    if node_labels:
        for node, colour in [(n, "tab:green") for n in entered[1:]] + \
                [(n, "tab:red") for n in explanation.pruned["node"]] + \
                [(n, "tab:purple") for n in boxed]:
            ax.annotate(str(node), centers[node], color=colour, fontsize=7,
                        ha="center", va="center", zorder=3)
    seen = explanation.distance_evaluations["sample"]
    seen = seen[seen >= 0]
    if samples:
        ax.scatter(data[:, 0], data[:, 1], s=6, color="0.8", zorder=1)
    ax.scatter(data[seen, 0], data[seen, 1], s=14, color="tab:blue", zorder=2)
    skipped = explanation.skipped["sample"]
    ax.scatter(data[skipped, 0], data[skipped, 1], s=22, marker="x",
               color="tab:orange", zorder=2)
    near = explanation.indices
    ax.scatter(data[near, 0], data[near, 1], s=160, marker="*", color="gold",
               edgecolors="k", linewidths=0.8, zorder=4)
    query = explanation.query.astype(np.float64)
    ax.scatter([query[0]], [query[1]], s=70, marker="P", color="k", zorder=5)
    bound = explanation.bound_updates["bound"][-1]
    ax.add_patch(Polygon(query + bound * ball, closed=True, fill=False,
                         edgecolor="k", linestyle=":", linewidth=1.2))
    ax.set_aspect("equal")
    ax.autoscale_view()
    low, high = data.min(axis=0), data.max(axis=0)
    pad = 0.05 * (high - low)
    ax.set_xlim(low[0] - pad[0], high[0] + pad[0])
    ax.set_ylim(low[1] - pad[1], high[1] + pad[1])
    legend = [
        Line2D([], [], color="tab:green", label=f"node entered ({len(entered)})"),
        Line2D([], [], color="tab:red", linestyle="--",
               label=f"node pruned by rule 1 ({len(explanation.pruned)})"),
        *([Line2D([], [], color="tab:purple", linestyle=":",
                  label=f"box pruned by the box rule ({len(boxed)})")] if len(boxed)
          else []),
        Line2D([], [], marker="o", linestyle="", color="tab:blue",
               label=f"distance computed ({len(seen)})"),
        Line2D([], [], marker="x", linestyle="", color="tab:orange",
               label=f"skipped by rule 2 ({len(skipped)})"),
        Line2D([], [], marker="*", linestyle="", color="gold", markeredgecolor="k",
               markersize=12, label=f"nearest neighbour{'s' if k > 1 else ''}"),
        Line2D([], [], marker="P", linestyle="", color="k", linewidth=1,
               label="query x, and B around it"),
    ]
    ax.legend(handles=legend, loc="upper right", fontsize="small", framealpha=0.9)
    n_total = len(explanation.distance_evaluations)
    kinds = explanation.distance_evaluations["sample"]
    n_boxes = int(np.sum(kinds == -2))
    boxes = f", {n_boxes} to boxes" if n_boxes else ""
    ax.set_title(f"Branch and bound: {n_total} distances for {tree.n_samples} samples\n"
                 f"({len(seen)} to samples, {int(np.sum(kinds == -1))} to node means"
                 f"{boxes})")
    ax.explanation = explanation
    return ax


def _weights_decider(clf):
    """A function (W, Z) -> class codes of the augmented rows Z, for the weights W
    of a learner's history (the rows of W as its ``history_`` describes them)."""
    n_classes = len(clf.classes_)
    if hasattr(clf, "n_subclasses_"):  # piecewise: the class of the best subclass
        owner = np.repeat(np.arange(n_classes), clf.n_subclasses_)
        return lambda W, Z: owner[np.argmax(Z @ W.T, axis=1)]
    if n_classes == 2 and clf.coef_.shape[0] == 1:  # one vector: its sign
        return lambda W, Z: (Z @ W[0] > 0).astype(np.intp)
    return lambda W, Z: np.argmax(Z @ W.T, axis=1)


def _ball_outline(metric, p):
    """The unit ball's outline (closed polygon, shape (m, 2)) of a metric."""
    angles = np.linspace(0, 2 * np.pi, 121)
    if metric == "cityblock":
        p = 1.0
    elif metric == "chebyshev":
        return np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=float)
    elif metric in ("euclidean", "sqeuclidean"):
        p = 2.0
    cos, sin = np.cos(angles), np.sin(angles)
    # |u|^p + |v|^p = 1: u = sign(cos) |cos|^(2/p), v = sign(sin) |sin|^(2/p)
    return np.column_stack([np.sign(cos) * np.abs(cos) ** (2 / p),
                            np.sign(sin) * np.abs(sin) ** (2 / p)])


def __dir__():
    """``dir(patrec.plotting)``: the public functions only, not the helpers."""
    return list(__all__)

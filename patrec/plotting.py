"""Pictures of classifiers on two-dimensional data (matplotlib, imported lazily).

`plot_decision_regions` colours the plane by the class a fitted classifier predicts,
draws the training samples on top, and can mark prototypes (subclass means, condensed
samples, ...).  matplotlib is imported only when a function here is called.
"""
import numbers

import numpy as np

from ._validation import check_labels, check_scalar, check_X

__all__ = ["plot_decision_regions"]


def plot_decision_regions(clf, X, y=None, ax=None, *, resolution=200, prototypes=None,
                          margin=0.1, alpha=0.3, cmap="tab10", legend=True):
    """Draw the decision regions of a fitted classifier over 2-D data.

    The plane around ``X`` is sampled on a ``resolution`` x ``resolution`` grid,
    ``clf.predict`` labels every grid point, and the regions are filled with one colour
    per class (``clf.classes_`` order).  The samples are drawn on top in their class
    colours.

    Parameters
    ----------
    clf : fitted classifier
        Anything with ``predict`` and ``classes_`` trained on two features.
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
        Add a legend naming the classes.

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
    >>> ax = plot_decision_regions(clf, X, [0, 0, 1, 1], prototypes=True)
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(
            f"plot_decision_regions draws 2-D data; X has {X.shape[1]} features. "
            "Project the data to two features first (for example with FisherLDA)."
        )
    check_scalar(resolution, "resolution", numbers.Integral, low=2)
    classes = getattr(clf, "classes_", None)
    if classes is None:
        raise ValueError("clf must be a fitted classifier (it has no classes_).")
    if ax is None:
        ax = plt.gca()
    base = plt.get_cmap(cmap)
    colours = list(getattr(base, "colors", []))[: len(classes)]
    if len(colours) < len(classes):
        colours = [base(i / max(len(classes) - 1, 1)) for i in range(len(classes))]
    region_cmap = ListedColormap(colours)

    low, high = X.min(axis=0), X.max(axis=0)
    pad = margin * np.where(high > low, high - low, 1.0)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], resolution)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], resolution)
    grid_x, grid_y = np.meshgrid(xs, ys)
    grid = np.column_stack([grid_x.ravel(), grid_y.ravel()])
    codes = _class_codes(classes, clf.predict(grid)).reshape(grid_x.shape)
    ax.contourf(grid_x, grid_y, codes, levels=np.arange(len(classes) + 1) - 0.5,
                cmap=region_cmap, alpha=alpha, vmin=-0.5, vmax=len(classes) - 0.5)

    if y is None:
        ax.scatter(X[:, 0], X[:, 1], c="0.4", s=15, edgecolors="k", linewidths=0.3)
    else:
        y = check_labels(y, X.shape[0])
        sample_codes = _class_codes(classes, y)
        for code, label in enumerate(classes):
            inside = sample_codes == code
            ax.scatter(X[inside, 0], X[inside, 1], color=colours[code], s=15,
                       edgecolors="k", linewidths=0.3, label=str(label))
    _draw_prototypes(ax, clf, classes, colours, prototypes)
    ax.set_xlim(xs[0], xs[-1])
    ax.set_ylim(ys[0], ys[-1])
    if legend and y is not None:
        ax.legend(loc="best", fontsize="small", framealpha=0.8)
    return ax


def _class_codes(classes, labels):
    """Positions of ``labels`` in ``classes``; labels not in ``classes`` are an error."""
    position = {label: code for code, label in enumerate(np.asarray(classes).tolist())}
    try:
        return np.array([position[label] for label in np.asarray(labels).tolist()],
                        dtype=np.intp)
    except KeyError as exc:
        raise ValueError(
            f"y holds labels the classifier was not trained on, such as {exc.args[0]!r}."
        ) from None


def _draw_prototypes(ax, clf, classes, colours, prototypes):
    if prototypes is None or prototypes is False:
        return
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
    ax.scatter(points[:, 0], points[:, 1], c=point_colours, marker="*", s=250,
               edgecolors="k", linewidths=1.0, zorder=3, label="prototypes")

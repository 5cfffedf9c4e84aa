"""Decision regions of a classifier on two-dimensional data (matplotlib, imported lazily).

`plot_decision_regions` colours the plane by the class a fitted classifier predicts,
draws the training samples on top, and can mark prototypes (subclass means, condensed
samples, ...).  Points a classifier refuses to classify (a k-NN reject option) get a
colour of their own, and for a one-versus-all classifier the points that no binary
model, or several, claim can be shown.  matplotlib is imported only when a function
here is called.
"""

import inspect
import numbers

import numpy as np

from .._validation import (
    check_flag,
    check_labels,
    check_scalar,
    check_X,
)
from ..exceptions import NotFittedError
from ._common import axis_names, class_codes, class_colours, grid_over

__all__ = ["plot_decision_regions"]

# The colour of the reject region, and the hatching of the one-vs-all claims.
REJECT_COLOUR = "0.25"
_NO_CLAIM_HATCH = "...."
_SEVERAL_CLAIMS_HATCH = "xxxx"


def plot_decision_regions(*args, **kwargs):
    """Draw the decision regions of a fitted classifier over 2-D data.

    The plane around ``X`` is sampled on a ``resolution`` x ``resolution`` grid,
    ``clf.predict`` labels every grid point, and the regions are filled with one colour
    per class (``clf.classes_`` order).  Grid points that ``predict`` labels with no
    class (a rejected point: the ``reject_label`` of a `KNeighborsClassifier` with a
    ``reject_threshold``) form the reject region, filled dark grey.  The samples are
    drawn on top in their class colours.

    A script written for mlxtend may keep its order of arguments,
    ``plot_decision_regions(X, y, clf)`` or ``(X, y, clf=clf)``: when the first
    argument has no ``predict`` method they are read that way.  mlxtend's integer
    ``legend`` (a location) is refused with a message: here the legend is placed
    where it hides the least.

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
    args = _classifier_first(args, kwargs)
    try:
        bound = inspect.signature(_plot_decision_regions).bind(*args, **kwargs)
    except TypeError as error:  # (named after the public function)
        raise TypeError(f"plot_decision_regions: {error}") from None
    return _plot_decision_regions(*bound.args, **bound.kwargs)


def _classifier_first(args, kwargs):
    """The positional arguments in patrec's order, ``(clf, X, y, ax)``.  Given in
    mlxtend's order, ``(X, y, clf)`` (the classifier by position or as ``clf=``),
    they become keywords: the classifier is the argument with ``predict``."""
    mlxtend_clf = args[2] if len(args) > 2 else kwargs.get("clf")
    if not args or hasattr(args[0], "predict") or not hasattr(mlxtend_clf, "predict"):
        return args
    if len(args) > 3:
        raise TypeError(
            "plot_decision_regions takes (clf, X, y=None, ax=None), or mlxtend's "
            f"(X, y, clf); got {len(args)} positional arguments."
        )
    for name, value in zip(("X", "y", "clf"), args):
        if name in kwargs:
            raise TypeError(
                f"plot_decision_regions got two values for {name!r}: the positional "
                "arguments were read in mlxtend's order (X, y, clf), since the first "
                "has no predict method; patrec's order is (clf, X, y)."
            )
        kwargs[name] = value
    return ()


def _plot_decision_regions(
    clf,
    X,
    y=None,
    ax=None,
    *,
    resolution=200,
    prototypes=None,
    margin=0.1,
    alpha=0.3,
    cmap="tab10",
    legend=True,
    feature_names=None,
    class_names=None,
    claims=False,
):
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    if not hasattr(clf, "predict"):
        raise TypeError(
            "plot_decision_regions takes the classifier first, (clf, X, y), or in "
            "mlxtend's order (X, y, clf): clf must be a classifier with predict; got "
            f"{type(clf).__name__}."
        )
    legend = _check_legend(legend)
    claims = check_flag(claims, "claims")
    names = axis_names(clf, X, feature_names)
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

    grid_x, grid_y, grid = grid_over(X, resolution, margin)
    grid = _as_fitted_input(clf, grid)
    predicted = _predict(clf, grid)
    classes = _classes(clf, y, predicted)
    labels = _label_names(classes, class_names)
    colours = class_colours(plt.get_cmap(cmap), len(classes))

    # Code n_classes marks the grid points given no class: the reject region.
    codes = class_codes(classes, predicted, unknown=len(classes)).reshape(grid_x.shape)
    rejected = bool((codes == len(classes)).any())
    ax.contourf(
        grid_x,
        grid_y,
        codes,
        levels=np.arange(len(classes) + 2) - 0.5,
        cmap=ListedColormap(colours + [REJECT_COLOUR]),
        alpha=alpha,
        vmin=-0.5,
        vmax=len(classes) + 0.5,
    )
    handles = [
        Patch(
            facecolor=colours[code],
            alpha=max(alpha, 0.5),
            edgecolor="k",
            linewidth=0.3,
            label=labels[code],
        )
        for code in range(len(classes))
    ]
    if rejected:
        handles.append(
            Patch(facecolor=REJECT_COLOUR, alpha=max(alpha, 0.5), label="rejected")
        )
    if claims:
        handles += _draw_claims(ax, clf, grid, grid_x, grid_y)

    if y is None:
        ax.scatter(X[:, 0], X[:, 1], c="0.4", s=15, edgecolors="k", linewidths=0.3)
    else:
        sample_codes = class_codes(classes, y)
        for code in range(len(classes)):
            inside = sample_codes == code
            handles[code] = ax.scatter(
                X[inside, 0],
                X[inside, 1],
                color=colours[code],
                s=15,
                edgecolors="k",
                linewidths=0.3,
                label=labels[code],
            )
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


plot_decision_regions.__signature__ = inspect.signature(_plot_decision_regions)


def _check_legend(legend):
    if isinstance(legend, numbers.Integral) and not isinstance(
        legend, (bool, np.bool_)
    ):
        raise TypeError(
            f"legend must be True or False, got {legend!r}: an integer legend is "
            "mlxtend's legend location; patrec places the legend itself (legend=True "
            "draws it, legend=False leaves it out)."
        )
    return check_flag(legend, "legend")


def _as_fitted_input(clf, grid):
    """The grid as the classifier was fitted: a data frame when it saw column names."""
    names = getattr(clf, "feature_names_in_", None)
    if names is None:
        return grid
    import pandas  # the classifier was fitted on a data frame, so pandas is there

    return pandas.DataFrame(grid, columns=list(names))


def _predict(clf, grid):
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
    seen = (
        predicted
        if y is None
        else np.concatenate([np.asarray(y, dtype=object), predicted.astype(object)])
    )
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


def _check_one_vs_all(clf):
    from ..linear import OneVsAll

    if not isinstance(clf, OneVsAll):
        raise ValueError(
            f"claims=True shows the binary models of a OneVsAll classifier; "
            f"{type(clf).__name__} is not one."
        )


def _draw_claims(ax, clf, grid, grid_x, grid_y):
    """Hatch where no binary model of a one-vs-all classifier claims the point, or
    several do; return the legend handles."""
    from matplotlib.patches import Patch

    grid = np.asarray(grid, dtype=float)
    claimed = sum(
        np.ravel(model.decision_function(grid)) > 0 for model in clf.estimators_
    )
    handles = []
    for mask, hatch, text in (
        (claimed == 0, _NO_CLAIM_HATCH, "no class claims"),
        (claimed > 1, _SEVERAL_CLAIMS_HATCH, "several classes claim"),
    ):
        mask = mask.reshape(grid_x.shape)
        if mask.any():
            ax.contourf(
                grid_x,
                grid_y,
                mask.astype(float),
                levels=[0.5, 1.5],
                colors="none",
                hatches=[hatch],
            )
            handles.append(
                Patch(facecolor="white", edgecolor="k", hatch=hatch, label=text)
            )
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
        point_colours = [
            colours[code] for code in class_codes(classes, clf.prototype_labels_)
        ]
    else:
        points = check_X(prototypes, name="prototypes")
        if points.shape[1] != 2:
            raise ValueError("prototypes must have two columns.")
        point_colours = "k"
    return ax.scatter(
        points[:, 0],
        points[:, 1],
        c=point_colours,
        marker="*",
        s=250,
        edgecolors="k",
        linewidths=1.0,
        zorder=3,
        label="prototypes",
    )

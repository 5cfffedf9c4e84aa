"""What the pictures share: the grid over the data, class colours and codes, and the
rule that turns a learner's recorded weights into decisions."""

import numpy as np

from .._validation import feature_names_of

__all__ = ["grid_over", "class_colours", "class_codes", "weights_decider", "axis_names"]


def grid_over(X, resolution, margin):
    """A ``resolution`` x ``resolution`` grid over the data, padded by ``margin``."""
    low, high = X.min(axis=0), X.max(axis=0)
    pad = margin * np.where(high > low, high - low, 1.0)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], resolution)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], resolution)
    grid_x, grid_y = np.meshgrid(xs, ys)
    return grid_x, grid_y, np.column_stack([grid_x.ravel(), grid_y.ravel()])


def class_colours(base, n_classes):
    colours = list(getattr(base, "colors", []))[:n_classes]
    if len(colours) < n_classes:
        colours = [base(i / max(n_classes - 1, 1)) for i in range(n_classes)]
    return colours


def class_codes(classes, labels, unknown=None):
    """Positions of ``labels`` in ``classes``.

    A label that is no class becomes ``unknown``; with ``unknown=None`` it is an error
    (the labels ``y`` of the samples must be classes).
    """
    position = {
        _key(label): code for code, label in enumerate(np.asarray(classes).tolist())
    }
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


def weights_decider(clf):
    """A function (W, Z) -> class codes of the augmented rows Z, for the weights W
    of a learner's history (the rows of W as its ``history_`` describes them)."""
    n_classes = len(clf.classes_)
    if hasattr(clf, "n_subclasses_"):  # piecewise: the class of the best subclass
        owner = np.repeat(np.arange(n_classes), clf.n_subclasses_)
        return lambda W, Z: owner[np.argmax(Z @ W.T, axis=1)]
    if n_classes == 2 and clf.coef_.shape[0] == 1:  # one vector: its sign
        return lambda W, Z: (Z @ W[0] > 0).astype(np.intp)
    return lambda W, Z: np.argmax(Z @ W.T, axis=1)


def axis_names(clf, X, feature_names=None):
    """The two axis labels: ``feature_names``, else the classifier's
    ``feature_names_in_`` (fitted on a data frame), else the columns of ``X``, else
    ``x1`` and ``x2``."""
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

"""Pictures of how a classifier does: its confusion matrix, and Chow's error-reject
curve (matplotlib, imported when a function is called).  The numbers come from
`patrec.model_selection`."""

from .._validation import check_flag
from ..model_selection import confusion_matrix, error_rates, error_reject_curve

__all__ = ["plot_confusion_matrix", "plot_error_reject_curve"]


def plot_confusion_matrix(
    y_true, y_pred, *, labels=None, reject_label=None, normalize=False, ax=None
):
    """Draw the confusion matrix of predictions, one count (or share) per cell.

    Rows are the true classes, columns the predicted ones (`confusion_matrix`);
    with ``reject_label`` a last column, "rejected", counts each class's rejected
    samples.  The diagonal holds the correct decisions.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        The true and predicted classes.
    labels : array-like, default=None
        The classes in the order of the rows and columns; None: sorted.
    reject_label : object, default=None
        The label of a rejected prediction, as in `confusion_matrix`.
    normalize : bool, default=False
        Show each row as shares of its class (each row sums to 1) instead of counts.
    ax : matplotlib Axes, default=None
        Where to draw; the current axes when None.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from patrec.plotting import plot_confusion_matrix
    >>> ax = plot_confusion_matrix(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    >>> [text.get_text() for text in ax.texts]
    ['1', '1', '0', '2']
    """
    import matplotlib.pyplot as plt
    import numpy as np

    normalize = check_flag(normalize, "normalize")
    C = confusion_matrix(y_true, y_pred, labels=labels, reject_label=reject_label)
    classes = error_rates(y_true, y_pred, labels=labels, reject_label=reject_label)
    names = [str(label) for label in classes["labels"].tolist()]
    values = C.astype(np.float64)
    if normalize:
        totals = values.sum(axis=1, keepdims=True)
        values = np.divide(values, totals, out=np.zeros_like(values), where=totals > 0)
    if ax is None:
        ax = plt.gca()
    ax.imshow(values, cmap="Blues", vmin=0, vmax=max(values.max(), 1e-12))
    top = values.max()
    for (row, column), value in np.ndenumerate(values):
        text = f"{value:.2f}" if normalize else f"{int(value)}"
        colour = "white" if top > 0 and value > 0.6 * top else "black"
        ax.text(column, row, text, ha="center", va="center", color=colour)
    columns = names + (["rejected"] if reject_label is not None else [])
    ax.set_xticks(range(len(columns)), columns)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    return ax


def plot_error_reject_curve(estimator, X, y, *, ax=None, label=None):
    """Draw Chow's error-reject curve of a fitted classifier with probabilities.

    Each point is one reject threshold t (`error_reject_curve`): the share of
    samples rejected (x) against the share accepted and misclassified (y).  The
    curve starts at the plain error rate (nothing rejected) and falls to 0 (all
    rejected); the steeper it falls at first, the better the classifier's
    probabilities tell its errors apart.

    Parameters
    ----------
    estimator : fitted classifier
        Anything with ``predict_proba`` and ``classes_``.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        The true classes.
    ax : matplotlib Axes, default=None
        Where to draw; the current axes when None.
    label : str, default=None
        The curve's name in a legend; None: the estimator's class name.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from patrec import KNeighborsClassifier
    >>> from patrec.plotting import plot_error_reject_curve
    >>> X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]
    >>> clf = KNeighborsClassifier(n_neighbors=3).fit(X, y)
    >>> ax = plot_error_reject_curve(clf, X, y)
    >>> ax.get_xlabel()
    'reject rate R'
    """
    import matplotlib.pyplot as plt

    curve = error_reject_curve(estimator, X, y)
    if ax is None:
        ax = plt.gca()
    ax.step(
        curve["reject_rate"],
        curve["error"],
        where="post",
        marker=".",
        label=type(estimator).__name__ if label is None else label,
    )
    ax.set_xlim(0, 1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("reject rate R")
    ax.set_ylabel("error E (accepted and wrong)")
    return ax

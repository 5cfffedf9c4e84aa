"""Stratified K-fold cross-validation, as `patrec compare` uses it, and the
evaluation of a classifier's predictions.

- `stratified_kfold`, `cross_validate`, `standardize`: the folds and the error rate
  over them;
- `confusion_matrix`, `error_rates`, `sensitivity_specificity`: what went wrong
  where, class by class (with a reject option: how much was rejected, and the error
  among the samples accepted);
- `error_reject_curve`: Chow's trade-off between rejecting and erring, for any
  classifier with probabilities.

patrec estimators also work with scikit-learn's `cross_val_score`, `GridSearchCV` and
`sklearn.metrics`; this module exists so that patrec needs no scikit-learn at run
time.
"""

import numbers
import time

import numpy as np

from ._validation import (
    check_flag,
    check_labels,
    check_random_state,
    check_scalar,
    check_X,
    plain,
)
from .base import clone

__all__ = [
    "stratified_kfold",
    "cross_validate",
    "standardize",
    "confusion_matrix",
    "error_rates",
    "sensitivity_specificity",
    "error_reject_curve",
]


def stratified_kfold(y, n_splits=5, *, shuffle=True, random_state=None):
    """Split sample indices into ``n_splits`` folds with the class proportions of ``y``.

    Each class's samples (shuffled when ``shuffle``) are dealt round-robin over the
    folds, continuing where the previous class stopped, so fold sizes differ by at most
    one and every class appears in every fold.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.
    n_splits : int, default=5
        Number of folds, at least 2 and at most the size of the smallest class.
    shuffle : bool, default=True
        Shuffle each class before dealing.
    random_state : int, numpy Generator or None, default=None
        Seeds the shuffle.

    Yields
    ------
    train, test : ndarray of int
        Indices of the training and test samples of one fold.

    Examples
    --------
    >>> from patrec.model_selection import stratified_kfold
    >>> [test.tolist() for _, test in stratified_kfold([0, 0, 1, 1], 2, shuffle=False)]
    [[0, 2], [1, 3]]
    """
    y = check_labels(y)
    check_scalar(n_splits, "n_splits", numbers.Integral, low=2)
    classes, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    if counts.min() < n_splits:
        smallest = classes[np.argmin(counts)].item()
        raise ValueError(
            f"n_splits={n_splits} folds need at least {n_splits} samples of every class; "
            f"class {smallest!r} has {counts.min()}."
        )
    rng = check_random_state(random_state)
    fold_of = np.empty(len(y), dtype=np.intp)
    offset = 0
    for code in range(len(classes)):
        members = np.flatnonzero(codes == code)
        if shuffle:
            members = rng.permutation(members)
        fold_of[members] = (offset + np.arange(len(members))) % n_splits
        offset += len(members)
    for fold in range(n_splits):
        yield np.flatnonzero(fold_of != fold), np.flatnonzero(fold_of == fold)


def standardize(X_train, X_test):
    """Centre and scale both arrays with the training mean and standard deviation.

    Constant training features are centred only (to exactly 0 on the training
    data).  The statistics of each feature are computed on it divided by a power
    of two near its largest magnitude (an exact division), so that no square
    overflows or underflows: any finite data work.  Returns new arrays (float32
    stays float32).

    Examples
    --------
    >>> from patrec.model_selection import standardize
    >>> train, test = standardize([[1.0, 5.0], [3.0, 5.0]], [[2.0, 6.0]])
    >>> train.tolist(), test.tolist()
    ([[-1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0]])
    """
    X_train = check_X(X_train, name="X_train")
    X_test = check_X(X_test, name="X_test", min_samples=0)
    if X_test.shape[1] != X_train.shape[1]:
        raise ValueError(
            f"X_test has {X_test.shape[1]} features, but X_train has "
            f"{X_train.shape[1]}."
        )
    # a power of two near each feature's largest magnitude: dividing by it is exact
    top = np.ldexp(1.0, np.frexp(np.max(np.abs(X_train), axis=0))[1] - 1)
    top = top.astype(X_train.dtype)
    unit = X_train / top
    mean = unit.mean(axis=0)
    scale = unit.std(axis=0)
    # a constant feature is only centred (in its own units: scale 1 / top, exact)
    constant = (X_train == X_train[0]).all(axis=0)
    mean[constant] = unit[0, constant]
    scale[constant] = 1 / top[constant]
    return (unit - mean) / scale, (X_test / top - mean) / scale


def cross_validate(
    estimator, X, y, *, cv=5, random_state=None, scale=True, return_predictions=False
):
    """Error rate and timings of ``estimator`` over stratified folds.

    Parameters
    ----------
    estimator : classifier
        Cloned (unfitted copy with the same parameters) for every fold.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    cv : int, default=5
        Number of stratified folds.
    random_state : int or None, default=None
        Seeds the fold assignment.
    scale : bool, default=True
        Standardize the features with each training fold's statistics.
    return_predictions : bool, default=False
        Also return every sample's prediction by the model that did not train on it
        (for `confusion_matrix`, `error_rates` ... over all the folds).

    Returns
    -------
    result : dict
        ``"error"``, ``"fit_time"`` and ``"predict_time"``: arrays of shape (cv,);
        with ``return_predictions``, ``"predictions"``: an array of shape
        (n_samples,).
    """
    X = check_X(X)
    y = check_labels(y, X.shape[0])
    return_predictions = check_flag(return_predictions, "return_predictions")
    errors, fit_times, predict_times = [], [], []
    predictions = np.empty(len(y), dtype=object) if return_predictions else None
    for train, test in stratified_kfold(y, cv, random_state=random_state):
        X_train, X_test = X[train], X[test]
        if scale:
            X_train, X_test = standardize(X_train, X_test)
        model = clone(estimator)
        start = time.perf_counter()
        model.fit(X_train, y[train])
        fitted = time.perf_counter()
        predicted = model.predict(X_test)
        done = time.perf_counter()
        errors.append(np.mean(predicted != y[test]))
        fit_times.append(fitted - start)
        predict_times.append(done - fitted)
        if return_predictions:
            predictions[test] = list(predicted)
    result = {
        "error": np.asarray(errors),
        "fit_time": np.asarray(fit_times),
        "predict_time": np.asarray(predict_times),
    }
    if return_predictions:
        # the labels' own dtype, unless a reject label does not fit in it (a
        # number among strings): then an object array, never numbers made text
        values = predictions.tolist()
        text = [isinstance(value, (str, bytes)) for value in values]
        result["predictions"] = (
            np.array(values) if all(text) or not any(text) else predictions
        )
    return result


# -- evaluation -------------------------------------------------------------------


def _same(values, label):
    """Which of ``values`` equal ``label`` (a label of another type equals none)."""
    same = []
    for value in values.tolist():
        try:
            same.append(bool(value == label))
        except (TypeError, ValueError):
            same.append(False)
    return np.array(same, dtype=bool)


def _coded(y_true, y_pred, labels, reject_label):
    """Validated predictions as codes: ``(labels, true codes, predicted codes)``,
    a rejected prediction coded ``len(labels)``."""
    y_true = check_labels(y_true)
    y_pred = check_labels(y_pred, y_true.shape[0])
    rejected = (
        np.zeros(len(y_pred), bool)
        if reject_label is None
        else _same(y_pred, reject_label)
    )
    if reject_label is not None and _same(y_true, reject_label).any():
        raise ValueError(
            f"reject_label={plain(reject_label)!r} is among the true labels y_true; it "
            "must be a label that no class uses."
        )
    if labels is None:
        labels = np.unique(y_true)
        extra = [p for p in np.unique(y_pred[~rejected]).tolist() if p not in labels]
        if extra:
            labels = np.unique(np.r_[labels, np.array(extra, dtype=labels.dtype)])
    else:
        labels = check_labels(labels)
        if len(set(labels.tolist())) != len(labels):
            raise ValueError("labels must not repeat a label.")
    code_of = {label: code for code, label in enumerate(labels.tolist())}
    for name, values in (("y_true", y_true), ("y_pred", y_pred[~rejected])):
        unknown = set(values.tolist()) - code_of.keys()
        if unknown:
            raise ValueError(
                f"{name} holds labels that are not in labels: {sorted(unknown, key=str)}"
                + (
                    "; set reject_label to the label of the rejected samples."
                    if name == "y_pred" and reject_label is None
                    else "."
                )
            )
    true = np.array([code_of[label] for label in y_true.tolist()], dtype=np.intp)
    predicted = np.full(len(y_pred), len(labels), dtype=np.intp)
    predicted[~rejected] = [code_of[label] for label in y_pred[~rejected].tolist()]
    return labels, true, predicted


def confusion_matrix(y_true, y_pred, *, labels=None, reject_label=None):
    """Count each true class (rows) predicted as each class (columns).

    ``C[i, j]`` is the number of samples of class ``labels[i]`` predicted as
    ``labels[j]``: the diagonal holds the correct decisions, row i's other entries
    the errors on class i.  This is scikit-learn's ``confusion_matrix`` layout.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true classes.
    y_pred : array-like of shape (n_samples,)
        The predicted ones.
    labels : array-like, default=None
        The classes, in the order of the rows and columns; None: every label of
        ``y_true`` and ``y_pred``, sorted.
    reject_label : object, default=None
        The label a classifier with a reject option gives a rejected sample (a
        `KNeighborsClassifier` with ``reject_threshold``: its ``reject_label_``);
        a last column then counts each class's rejected samples.

    Returns
    -------
    C : ndarray of shape (n_classes, n_classes), or (n_classes, n_classes + 1) with
        ``reject_label``, dtype intp

    Examples
    --------
    >>> from patrec.model_selection import confusion_matrix
    >>> confusion_matrix(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    array([[1, 1],
           [0, 2]])
    >>> confusion_matrix([0, 0, 1, 1], [0, -1, 1, 0], reject_label=-1)
    array([[1, 0, 1],
           [1, 1, 0]])
    """
    labels, true, predicted = _coded(y_true, y_pred, labels, reject_label)
    return _counts(len(labels), true, predicted, reject_label is not None)


def _counts(n, true, predicted, rejects):
    """The confusion matrix of coded predictions (a last column for the rejected)."""
    columns = n + 1 if rejects else n
    counts = np.bincount(true * columns + predicted, minlength=n * columns)
    return counts.reshape(n, columns).astype(np.intp)


def error_rates(y_true, y_pred, *, labels=None, reject_label=None):
    """The error rate overall and per class, and with a reject option how much was
    rejected and the error among the samples accepted.

    Parameters
    ----------
    y_true, y_pred, labels, reject_label
        As in `confusion_matrix`.

    Returns
    -------
    rates : dict
        - ``"labels"``: the classes, in the order of the per-class arrays;
        - ``"error"``: the share of all samples misclassified (a rejected sample is
          not an error);
        - ``"class_error"``: per class, the share of its samples misclassified
          (NaN for a class that only occurs among the predictions);
        - ``"reject_rate"`` and ``"class_reject_rate"``: the share rejected, of all
          samples and per class (0 without ``reject_label``);
        - ``"accepted_error"`` and ``"class_accepted_error"``: the error among the
          accepted samples, overall and per class (NaN where none was accepted).

    Notes
    -----
    Without a reject option, ``error`` is ``1 - accuracy`` and ``accepted_error``
    equals it.  With one, Chow's error E is ``error`` and his reject rate R is
    ``reject_rate``; ``accepted_error`` is E / (1 - R).

    Examples
    --------
    >>> from patrec.model_selection import error_rates
    >>> rates = error_rates([0, 0, 1, 1], [0, -1, 1, 0], reject_label=-1)
    >>> float(rates["error"]), float(rates["reject_rate"])
    (0.25, 0.25)
    >>> round(float(rates["accepted_error"]), 3), rates["class_error"].tolist()
    (0.333, [0.0, 0.5])
    """
    labels, true, predicted = _coded(y_true, y_pred, labels, reject_label)
    n = len(labels)
    C = _counts(n, true, predicted, reject_label is not None)
    per_class = C.sum(axis=1)
    correct = np.diag(C[:, :n])
    rejected = C[:, n] if C.shape[1] > n else np.zeros(n, dtype=np.intp)
    accepted = per_class - rejected
    wrong = accepted - correct
    total = per_class.sum()
    return {
        "labels": labels,
        "error": wrong.sum() / total,
        "class_error": _share(wrong, per_class),
        "reject_rate": rejected.sum() / total,
        "class_reject_rate": _share(rejected, per_class),
        "accepted_error": _share(wrong.sum(), accepted.sum()),
        "class_accepted_error": _share(wrong, accepted),
    }


def _share(part, whole):
    """part / whole, NaN where whole is 0 (a class with no sample: no rate)."""
    part, whole = np.asarray(part, dtype=np.float64), np.asarray(whole)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(whole > 0, part / whole, np.nan)[()]


def sensitivity_specificity(y_true, y_pred, *, positive, reject_label=None):
    """Sensitivity and specificity of a two-class decision (a diagnosis).

    Sensitivity is the share of the positive class (the disease) predicted
    positive, TP / (TP + FN); specificity the share of the other class predicted
    negative, TN / (TN + FP).  With a reject option they are computed among the
    accepted samples (a rejected sample is neither found nor missed).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        The true and predicted classes: two classes in all.
    positive : object
        The positive class (``"malignant"`` for the breast-cancer data, say).
    reject_label : object, default=None
        As in `confusion_matrix`.

    Returns
    -------
    sensitivity, specificity : float
        NaN for a class with no accepted sample.

    Examples
    --------
    >>> from patrec.model_selection import sensitivity_specificity
    >>> y_true = ["ill", "ill", "ill", "well", "well"]
    >>> y_pred = ["ill", "ill", "well", "well", "ill"]
    >>> sensitivity_specificity(y_true, y_pred, positive="ill")
    (0.6666666666666666, 0.5)
    """
    labels, true, predicted = _coded(y_true, y_pred, None, reject_label)
    if len(labels) != 2:
        raise ValueError(
            "sensitivity and specificity are for two classes; the labels are "
            f"{labels.tolist()}.  For more classes use error_rates (per class)."
        )
    if positive not in labels.tolist():
        raise ValueError(
            f"positive={plain(positive)!r} is not one of the classes {labels.tolist()}."
        )
    pos = labels.tolist().index(positive)
    accepted = predicted < 2

    def share(mask, outcome):
        return float(np.mean(outcome[mask])) if mask.any() else float("nan")

    return (
        share((true == pos) & accepted, predicted == pos),
        share((true != pos) & accepted, predicted == 1 - pos),
    )


def error_reject_curve(estimator, X, y):
    """Chow's error-reject trade-off of a fitted classifier with probabilities.

    The reject rule: refuse a sample whose largest class probability is below a
    threshold t.  As t grows from 0 more samples are rejected and fewer of the
    accepted ones are wrong; the curve gives both for every threshold at which
    something changes (each distinct largest probability, and one just above the
    largest, where every sample is rejected).  A sample is predicted
    as the class of its largest probability (the first of ``classes_`` on ties),
    as ``predict`` does.

    Parameters
    ----------
    estimator : fitted classifier
        Anything with ``predict_proba`` and ``classes_``.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        The true classes.

    Returns
    -------
    curve : dict of ndarray, one value per threshold, ascending
        ``"threshold"`` (t, from 0), ``"reject_rate"`` (R(t), the share of samples
        rejected), ``"error"`` (E(t), the share of all samples accepted and
        misclassified: Chow's error) and ``"accepted_error"`` (E / (1 - R)).

    Notes
    -----
    O(n log n) after ``predict_proba``.  A `KNeighborsClassifier` with
    ``reject_threshold=t`` rejects exactly the samples this rule rejects at t.

    References
    ----------
    .. [1] C. K. Chow, "On optimum recognition error and reject tradeoff", IEEE
       Transactions on Information Theory, 16(1), 41-46, 1970.

    Examples
    --------
    >>> from patrec import KNeighborsClassifier
    >>> from patrec.model_selection import error_reject_curve
    >>> X, y = [[float(i)] for i in range(10)], [0, 0, 0, 0, 1, 0, 1, 1, 1, 1]
    >>> clf = KNeighborsClassifier(n_neighbors=5).fit(X, y)
    >>> clf.predict_proba([[0.2], [3.6], [5.4], [9.0]]).max(axis=1).tolist()
    [0.8, 0.6, 0.6, 0.8]
    >>> curve = error_reject_curve(clf, [[0.2], [3.6], [5.4], [9.0]], [0, 1, 0, 1])
    >>> curve["threshold"].round(2).tolist()  # the last: just above 0.8
    [0.0, 0.6, 0.8, 0.8]
    >>> curve["reject_rate"].tolist(), curve["error"].tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.5, 0.5, 0.0, 0.0])
    """
    if not hasattr(estimator, "predict_proba") or not hasattr(estimator, "classes_"):
        raise TypeError(
            "error_reject_curve needs a fitted classifier with predict_proba and "
            f"classes_; got {type(estimator).__name__}."
        )
    proba = np.asarray(estimator.predict_proba(X), dtype=np.float64)
    y = check_labels(y, proba.shape[0])
    predicted = np.asarray(estimator.classes_)[np.argmax(proba, axis=1)]
    wrong = predicted != y
    confidence = proba.max(axis=1)
    order = np.argsort(confidence, kind="stable")
    confidence, wrong = confidence[order], wrong[order]
    # t = 0 rejects nothing, each distinct confidence c rejects what lies below c,
    # and the last threshold, just above the largest, rejects every sample
    top = confidence[-1] if len(confidence) else 0.0
    thresholds = np.unique(np.r_[0.0, confidence, np.nextafter(top, np.inf)])
    n = len(confidence)
    # rejected at t: the samples with confidence < t, a prefix of the sorted order
    n_rejected = np.searchsorted(confidence, thresholds, side="left")
    wrong_before = np.r_[0, np.cumsum(wrong)]
    errors = wrong_before[-1] - wrong_before[n_rejected]
    return {
        "threshold": thresholds,
        "reject_rate": n_rejected / n,
        "error": errors / n,
        "accepted_error": _share(errors, n - n_rejected),
    }

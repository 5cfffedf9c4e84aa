"""Stratified K-fold cross-validation, as `patrec compare` uses it.

patrec estimators also work with scikit-learn's `cross_val_score` and `GridSearchCV`;
this module exists so that patrec needs no scikit-learn at run time.
"""

import numbers
import time

import numpy as np

from ._validation import check_labels, check_random_state, check_scalar, check_X
from .base import clone

__all__ = ["stratified_kfold", "cross_validate", "standardize"]


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


def cross_validate(estimator, X, y, *, cv=5, random_state=None, scale=True):
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

    Returns
    -------
    result : dict
        ``"error"``, ``"fit_time"`` and ``"predict_time"``: arrays of shape (cv,).
    """
    X = check_X(X)
    y = check_labels(y, X.shape[0])
    errors, fit_times, predict_times = [], [], []
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
    return {
        "error": np.asarray(errors),
        "fit_time": np.asarray(fit_times),
        "predict_time": np.asarray(predict_times),
    }

"""The checks that editing and condensing share: the data, ``target_classes``, and
the warning when a whole class is removed."""

import warnings

import numpy as np

from ..._validation import check_labels, check_X, encode_labels

__all__ = ["check_data", "warn_lost_classes"]


def check_data(X, y, target_classes):
    """Validated ``X`` (finite floats, at least two rows), label codes, and the mask
    over codes of the classes that may lose samples."""
    X = check_X(X, min_samples=2)
    y = check_labels(y, X.shape[0])
    classes, codes = encode_labels(y)
    return X, codes, _target_mask(classes, target_classes), classes


def _target_mask(classes, target_classes):
    if target_classes is None:
        return np.ones(len(classes), dtype=bool)
    if isinstance(target_classes, str) or not np.iterable(target_classes):
        raise TypeError(
            f"target_classes must be None or a list of class labels, got "
            f"{target_classes!r}."
        )
    mask = np.zeros(len(classes), dtype=bool)
    for label in target_classes:
        hits = np.flatnonzero(classes == label)
        if hits.shape[0] == 0:
            raise ValueError(
                f"target_classes names {label!r}, which is not a class of y "
                f"(classes: {list(classes)})."
            )
        mask[hits[0]] = True
    return mask


def warn_lost_classes(codes, kept, classes, name):
    """Warn when whole classes were removed."""
    lost = np.setdiff1d(np.arange(len(classes)), codes[kept])
    if lost.shape[0]:
        warnings.warn(
            f"{name} removed every sample of {lost.shape[0]} class(es) "
            f"({', '.join(repr(label) for label in classes[lost].tolist())}): a "
            "nearest-neighbour rule trained on the result never predicts them.",
            UserWarning,
            stacklevel=3,
        )

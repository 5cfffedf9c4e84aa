"""The vote of the k nearest neighbours, shared by the k-NN classifier and editing."""

import numpy as np

__all__ = ["count_votes"]


def count_votes(neighbour_codes, n_classes, weights=None):
    """Per row, the (weighted) number of neighbours of each class.

    Parameters
    ----------
    neighbour_codes : ndarray of shape (n_rows, k), dtype intp
        Class codes ``0 .. n_classes - 1`` of each row's neighbours.
    n_classes : int
    weights : ndarray of shape (n_rows, k), default=None
        One vote per neighbour when None.

    Returns
    -------
    votes : ndarray of shape (n_rows, n_classes), float64
        ``np.argmax`` of a row is the winning class, the first one on ties.

    Examples
    --------
    >>> import numpy as np
    >>> count_votes(np.array([[0, 1, 1], [2, 0, 2]]), 3)
    array([[1., 2., 0.],
           [1., 0., 2.]])
    """
    n_rows = neighbour_codes.shape[0]
    slots = (np.arange(n_rows)[:, None] * n_classes + neighbour_codes).ravel()
    votes = np.bincount(
        slots,
        weights=None if weights is None else weights.ravel(),
        minlength=n_rows * n_classes,
    )
    return votes.reshape(n_rows, n_classes).astype(np.float64, copy=False)

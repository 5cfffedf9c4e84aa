"""Training samples equal to a query, found by hashing instead of by search.

A query equal to a training sample has that sample as its nearest neighbour, at
distance 0.  That is the case of the resubstitution error (a 1-NN rule applied to
its own training set) and of any query set drawn from the training set.  Brute force
would still compare such a query with every sample, O(n d) each; `EqualRows` answers
it in O(d + log n) after O(n d + n log n) once: each row gets a 64-bit key computed
from its bits, the training keys are sorted, and a query's key is looked up by binary
search and the row found compared with the query value by value.

The answer is brute force's, tie-breaking included: of several equal training
samples brute force returns the lowest index, and so does the lookup (the sort is
stable, so equal rows sit in index order).  Distance 0 means equality only while the
squared differences of distinct values cannot underflow to 0, that is, while no
nonzero value is tiny; with tiny values `find` finds nothing and leaves every query
to the search.  The loops are in ``_row_match.pyx``.
"""

import numpy as np

from ._row_match import keep_equal, no_tiny_values, row_keys

__all__ = ["EqualRows"]

# Distinct values a, b no smaller in magnitude than this (or zero) differ by at least
# ulp(this): 2**-532 in float64, 2**-73 in float32, whose squares are still above the
# smallest subnormal (2**-1074, 2**-149), so a distance of 0 means equal rows.
_SMALLEST_SAFE = {np.dtype(np.float64): 2.0**-480, np.dtype(np.float32): 2.0**-50}


def _keys(rows):
    keys = np.empty(len(rows), dtype=np.uint64)
    row_keys(rows, keys)
    return keys


class EqualRows:
    """The lowest-index training sample equal to each query, by hash lookup.

    Parameters
    ----------
    data : ndarray of shape (n_samples, n_features), float32 or float64
        The training samples, finite and C-contiguous, as the distance kernels see
        them (not copied: the caller keeps them unchanged).

    Examples
    --------
    >>> import numpy as np
    >>> table = EqualRows(np.array([[0.0, 1.0], [2.0, 3.0], [0.0, 1.0]]))
    >>> table.find(np.array([[0.0, 1.0], [2.0, 3.0], [5.0, 5.0]]))
    array([ 0,  1, -1])
    """

    def __init__(self, data):
        self._data = data
        self._safe = no_tiny_values(data, _SMALLEST_SAFE[data.dtype])
        keys = _keys(data)
        self._order = np.argsort(keys, kind="stable")
        self._keys = keys[self._order]

    def find(self, X):
        """Index of the lowest training sample equal to each row of ``X`` (same
        dtype, C-contiguous), -1 where there is none (and everywhere when tiny
        values make a distance of 0 ambiguous)."""
        found = np.full(len(X), -1, dtype=np.intp)
        if (
            not len(X)
            or not len(self._keys)
            or not (self._safe and no_tiny_values(X, _SMALLEST_SAFE[X.dtype]))
        ):
            return found
        keys = _keys(X)
        place = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
        candidate = self._order[place]
        # the first training row of a key is the lowest index of the rows equal to
        # the query, if any is (another row of the same key is a rare collision: the
        # query is then not found, and searched)
        equal = (self._keys[place] == keys).view(np.uint8)
        keep_equal(self._data, X, candidate, equal)
        equal = equal.view(bool)
        found[equal] = candidate[equal]
        return found

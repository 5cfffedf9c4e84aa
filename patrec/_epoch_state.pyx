# The epoch state: one validated object for the epoch kernels of two chapters.
#
# The learner of `patrec.linear` or `patrec.piecewise` (`patrec._training.EpochLearner`)
# builds one `EpochState` per fit over the arrays it owns: the training rows, the
# codes, the weights and their averaging sums, the step counters and the sample
# weights; the epoch driver binds the correction log to it once, before the first
# epoch, when the history is recorded.  Every epoch kernel then takes the state, the
# epoch's order and its own few scalars (rate, margin, ...), never these arrays
# loose.  The state keeps views of the learner's arrays, not copies: what a kernel
# writes to the weights the learner reads at once.
#
# Nothing is validated here: `fit` validated the data, and the learner made the
# arrays with the shapes and dtypes below.

cimport cython

import numpy as np
import scipy.sparse as sp

_NO_INDEX = np.empty(0, dtype=np.intp)
_NO_FLOAT32 = np.empty(0, dtype=np.float32)
_NO_FLOAT64 = np.empty(0, dtype=np.float64)  # also the kernels' "no sample_weight"
_NO_LOG = np.empty((0, 4), dtype=np.intp)


def row_storage(X):
    """``(values, columns, row_starts)`` for the loops.

    A CSR matrix gives its data and its index arrays as ``intp``; a dense
    C-contiguous matrix gives its flattened values (a view) and two empty arrays.
    """
    if sp.issparse(X):
        return (
            X.data,
            np.asarray(X.indices, dtype=np.intp),
            np.asarray(X.indptr, dtype=np.intp),
        )
    return X.reshape(-1), _NO_INDEX, _NO_INDEX


@cython.auto_pickle(False)  # bound for one fit, never kept
cdef class EpochState:
    """What the epoch kernels read and write, bound once per fit.

    Parameters
    ----------
    X : ndarray or CSR matrix of shape (n_samples, n_features), float32 or float64
        The validated training rows (C-contiguous when dense); not copied.
    codes : ndarray of intp, shape (n_samples,)
        The encoded labels.
    W, U : ndarray of float64, 2-D, C-contiguous
        The weights and the averaging sums, in the layout of the learner's kernel.
    counter : ndarray of float64, 1-D
        The step counters the kernels carry from epoch to epoch.
    sample_weight : ndarray of float64, shape (n_samples,) or (0,)
        The weights of the rows; empty for none.
    """

    def __init__(self, X, codes, W, U, counter, sample_weight=_NO_FLOAT64):
        values, self.columns, self.row_starts = row_storage(X)
        self.single = values.dtype == np.float32
        self.values32 = values if self.single else _NO_FLOAT32
        self.values64 = _NO_FLOAT64 if self.single else values
        self.n_features = X.shape[1]
        self.codes = codes
        self.W = W
        self.U = U
        self.counter = counter
        self.scores = np.empty(W.shape[1])
        self.sample_weight = sample_weight
        self.record_into(_NO_LOG, np.zeros(1, dtype=np.intp))

    def record_into(self, log, n_logged):
        """Let the kernels write their corrections to ``log`` (shape (rows, 4),
        intp), counting the rows of each epoch in ``n_logged[0]``."""
        self.log = log
        self.n_logged = n_logged

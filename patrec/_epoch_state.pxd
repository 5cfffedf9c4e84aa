# The epoch state of the error-correcting learners (patrec/_epoch_state.pyx): what an
# epoch kernel of `patrec.linear` or `patrec.piecewise` reads and writes, bound once
# per fit by the learner that owns it.  An epoch kernel takes the state, the epoch's
# order and its own few scalars; it unpacks the fields it needs into locals before
# it releases the GIL, so its loop reads them as it read loose arguments before.

from patrec._typedefs cimport intp_t


cdef class EpochState:
    # the training rows in row storage (patrec/_training.pxd): the values in their
    # own precision (the other view empty), the CSR index arrays (empty when dense)
    cdef const float[::1] values32
    cdef const double[::1] values64
    cdef readonly bint single       # the values are float32
    cdef const intp_t[::1] columns
    cdef const intp_t[::1] row_starts
    cdef readonly intp_t n_features
    cdef const intp_t[::1] codes    # the encoded labels, 0 .. n_classes - 1
    # the weights and the averaging sums, in the kernel's layout (one row per binary
    # perceptron, or one column per class or subclass); the step counters
    cdef double[:, ::1] W
    cdef double[:, ::1] U
    cdef double[::1] counter
    cdef double[::1] scores         # scratch: one score per column of W
    cdef const double[::1] sample_weight  # empty: no weights
    cdef intp_t[:, ::1] log         # the correction log (empty: record nothing)
    cdef intp_t[::1] n_logged       # its rows written this epoch

# The loops of patrec/neighbors/search/_equal_rows.py: a 64-bit key per row, computed from
# the bits of its values, and the value-by-value comparison of rows whose keys
# matched.  One pass over the values each, GIL released; the Python side validates
# shapes and dtypes.

from libc.math cimport fabs
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy

from patrec._typedefs cimport float32_t, floating, intp_t

cdef uint64_t _GOLDEN = 0x9E3779B97F4A7C15ULL


cdef inline uint64_t _mix(uint64_t z) noexcept nogil:
    """splitmix64's finaliser (Steele, Lea and Flood, OOPSLA 2014)."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t _bits(floating value) noexcept nogil:
    """The bits of a value, -0.0 taken as 0.0 (equal values, equal bits)."""
    cdef uint64_t wide = 0
    cdef uint32_t narrow
    if value == 0:
        value = 0
    if floating is float32_t:
        memcpy(&narrow, &value, 4)
        wide = narrow
    else:
        memcpy(&wide, &value, 8)
    return wide


def row_keys(const floating[:, ::1] rows, uint64_t[::1] out):
    """out[i] = sum over j of mix(bits(rows[i, j]) + (j + 1) * golden), modulo 2**64.

    Each value is mixed on its own (the mixes overlap in the pipeline; a running
    hash would wait for each one), its column entering through the added constant.
    """
    cdef intp_t i, j, n_features = rows.shape[1]
    cdef uint64_t key
    with nogil:
        for i in range(rows.shape[0]):
            key = 0
            for j in range(n_features):
                key += _mix(_bits(rows[i, j]) + <uint64_t> (j + 1) * _GOLDEN)
            out[i] = key


def keep_equal(const floating[:, ::1] data, const floating[:, ::1] X,
               const intp_t[::1] candidate, unsigned char[::1] equal):
    """Clear equal[i] unless row candidate[i] of data equals row i of X value by
    value (rows already marked unequal are skipped)."""
    cdef intp_t i, j, row, n_features = X.shape[1]
    with nogil:
        for i in range(X.shape[0]):
            if not equal[i]:
                continue
            row = candidate[i]
            for j in range(n_features):
                if data[row, j] != X[i, j]:
                    equal[i] = 0
                    break


def no_tiny_values(const floating[:, ::1] rows, double smallest):
    """True when every nonzero value of rows is at least ``smallest`` in magnitude."""
    cdef intp_t i, j
    cdef double magnitude
    cdef bint ok = True
    with nogil:
        for i in range(rows.shape[0]):
            for j in range(rows.shape[1]):
                magnitude = fabs(rows[i, j])
                if magnitude != 0 and magnitude < smallest:
                    ok = False
                    break
            if not ok:
                break
    return ok

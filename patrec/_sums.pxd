# Sums over one vector, shared by the chapters' compiled loops.
#
# Each keeps four partial sums: four independent chains of additions that the CPU
# overlaps, about three times faster than one running total (which must wait for
# every addition before the next).  The sums accumulate in double precision, for
# float32 input too.  Inline, `noexcept nogil`, allocation free.

from patrec._typedefs cimport floating, intp_t


cdef inline double sum_of_squares(const floating* v, intp_t n) noexcept nogil:
    """sum_j v[j]^2."""
    cdef double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
    cdef intp_t j = 0
    while j + 4 <= n:
        s0 += <double> v[j] * v[j]
        s1 += <double> v[j + 1] * v[j + 1]
        s2 += <double> v[j + 2] * v[j + 2]
        s3 += <double> v[j + 3] * v[j + 3]
        j += 4
    while j < n:
        s0 += <double> v[j] * v[j]
        j += 1
    return (s0 + s1) + (s2 + s3)


cdef inline double dot(const double* w, const floating* v, intp_t n) noexcept nogil:
    """sum_j w[j] v[j]."""
    cdef double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
    cdef intp_t j = 0
    while j + 4 <= n:
        s0 += w[j] * v[j]
        s1 += w[j + 1] * v[j + 1]
        s2 += w[j + 2] * v[j + 2]
        s3 += w[j + 3] * v[j + 3]
        j += 4
    while j < n:
        s0 += w[j] * v[j]
        j += 1
    return (s0 + s1) + (s2 + s3)

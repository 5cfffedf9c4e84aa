# Ctrl-C inside compiled loops: see _signals.pyx.

from patrec._typedefs cimport intp_t

# a loop looks for signals after about this much work (multiply-adds, distance
# evaluations times features): a few milliseconds on one core
cdef enum:
    SIGNAL_CHECK_WORK = 1 << 23


cdef struct SignalWatch:
    intp_t work  # work done since the last look


cdef bint interrupted() noexcept nogil
cdef int raise_interrupt() except -1


cdef inline bint stop_after(SignalWatch* watch, intp_t work) noexcept nogil:
    """Count ``work``; once enough has piled up, look for signals (`interrupted`)."""
    watch.work += work
    if watch.work < SIGNAL_CHECK_WORK:
        return False
    watch.work = 0
    return interrupted()

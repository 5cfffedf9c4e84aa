# Ctrl-C inside compiled loops.
#
# Design
# ------
# Python runs a signal handler (SIGINT -> KeyboardInterrupt) only between bytecodes,
# never while a compiled loop runs, so a long loop must look for signals itself.
# Every few milliseconds of work (`stop_after` in _signals.pxd counts it) a loop calls
# `interrupted()`:
#
# * in the main thread it takes the GIL and calls PyErr_CheckSignals, which runs the
#   pending handlers; when one raised (KeyboardInterrupt) the error is now set and
#   `interrupted()` returns True;
# * in any other thread (signals are handled only in the main thread) it reads the
#   flag `request_stop()` sets: the main thread, interrupted while it waits for
#   worker threads (patrec._parallel), asks them all to stop.
#
# A loop that sees True breaks out, frees its buffers, and after its `with nogil:`
# block calls `raise_interrupt()`, which propagates the pending KeyboardInterrupt (or
# raises a new one in a worker thread).

from cpython.exc cimport PyErr_Occurred

cdef extern from "Python.h":
    # PyErr_CheckSignals without Cython's exception check: the caller decides
    int _check_signals "PyErr_CheckSignals" () noexcept
    # safe to call without the GIL
    unsigned long PyThread_get_thread_ident() noexcept nogil

# patrec is imported in the main thread (where Python handles signals) in practice
cdef unsigned long _main_thread = PyThread_get_thread_ident()
cdef volatile int _stop_requested = 0


cdef bint interrupted() noexcept nogil:
    """True when the calling loop must stop: a signal handler raised (in the main
    thread; the error is then set) or `request_stop` was called."""
    cdef int status
    if _stop_requested:
        return True
    if PyThread_get_thread_ident() != _main_thread:
        return False
    with gil:
        status = _check_signals()
    return status != 0


cdef int raise_interrupt() except -1:
    """Propagate the error a signal handler set, else raise KeyboardInterrupt."""
    if PyErr_Occurred() != NULL:
        return -1
    raise KeyboardInterrupt("stopped: the main thread was interrupted")


def request_stop(bint stop):
    """Ask every compiled loop of patrec to stop (``True``), or allow them again."""
    global _stop_requested
    _stop_requested = stop

"""Threads over row ranges: how patrec runs a GIL-free kernel on several cores.

A kernel that releases the GIL is called once per contiguous range of query rows,
each call in its own thread (SciPy's ``workers`` approach).  No OpenMP is involved.

While several threads run, BLAS is asked to run one thread in each (through
threadpoolctl, when it is installed): a multi-threaded BLAS called from every worker
would put more threads than cores to work, and OpenBLAS's waiting threads spin, so
such a run can end several times slower than one thread.  Without threadpoolctl,
set ``OPENBLAS_NUM_THREADS=1`` (or ``OMP_NUM_THREADS``/``MKL_NUM_THREADS``) for the
same effect.
"""

import contextlib
import numbers
import os
import threading
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

from ._signals import request_stop
from ._validation import check_scalar

__all__ = ["effective_n_jobs", "run_row_ranges", "single_thread_blas"]


def effective_n_jobs(n_jobs):
    """The number of threads for ``n_jobs``: None means 1, -1 all cores, -2 all but one."""
    if n_jobs is None:
        return 1
    check_scalar(n_jobs, "n_jobs", numbers.Integral)
    if n_jobs == 0:
        raise ValueError("n_jobs must be a non-zero integer or None, got 0.")
    n_cpus = os.cpu_count() or 1
    return max(1, n_jobs if n_jobs > 0 else n_cpus + 1 + n_jobs)


_blas_lock = threading.Lock()
_blas_controller = None
_blas_limiter = None  # the limit in force, set by the first of the runs under way
_blas_runs = 0


@contextlib.contextmanager
def single_thread_blas():
    """A context in which BLAS libraries run one thread (a no-op without threadpoolctl).

    The limit is process-wide while it lasts, like scikit-learn's
    ``threadpool_limits``; when several calling threads overlap, the first to enter
    sets it and the last to leave restores the original setting.
    """
    global _blas_controller, _blas_limiter, _blas_runs
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        yield
        return
    with _blas_lock:
        if _blas_runs == 0:
            if _blas_controller is None:
                # SciPy's BLAS (the one patrec's kernels call) must be loaded before
                # the controller looks for libraries
                import scipy.linalg.cython_blas  # noqa: F401

                _blas_controller = ThreadpoolController()
            _blas_limiter = _blas_controller.limit(limits=1, user_api="blas")
        _blas_runs += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_runs -= 1
            if _blas_runs == 0:
                _blas_limiter.restore_original_limits()
                _blas_limiter = None


# The rows are cut into several ranges per thread, handed out as threads come free,
# so a thread slowed down (by costlier rows, or by another process on its core)
# takes fewer of them.  Every thread gets as many ranges: with one range more for
# some, the others would sit idle while it runs (3 ranges on 2 threads take 2/3 of
# one thread's time, not 1/2).  When the last ranges end, one thread may wait for
# about half a range, a share 1 / (2 * ranges per thread) of the time; a range keeps
# at least _MIN_RANGE_ROWS rows, enough for brute force's blocks of queries
# (patrec/neighbors/search/_brute.pyx) to stay efficient.  Brute force at d = 8 on
# two threads measured 1.49-1.76 times one thread with 2 ranges a thread (ranges of
# at least 1 024 rows, 5 000 queries) and 1.62-1.83 with 8 (ranges of 312),
# interleaved in one run.
_RANGES_PER_THREAD = 8
_MIN_RANGE_ROWS = 256


def run_row_ranges(function, n_rows, n_jobs):
    """Call ``function(start, stop)`` over ranges that cover ``0 .. n_rows``.

    With one thread this is a single call ``function(0, n_rows)``.  Otherwise the rows
    are cut into nearly equal ranges -- as many as threads, or up to eight times as
    many while each keeps at least 256 rows -- that the threads take in
    turn as they come free, with BLAS limited to one thread each (`single_thread_blas`);
    ``function`` must release the GIL to gain from it and must write only its own
    rows.  On Ctrl-C (which only the calling thread sees) the ranges not started are
    dropped, the workers' compiled loops are asked to stop (`patrec._signals`) and
    waited for; the KeyboardInterrupt goes on.  An error in one range drops the
    ranges not started and is raised.
    """
    n_threads = min(effective_n_jobs(n_jobs), max(n_rows, 1))
    if n_threads == 1:
        function(0, n_rows)
        return
    ranges_per_thread = min(
        _RANGES_PER_THREAD, max(1, n_rows // (_MIN_RANGE_ROWS * n_threads))
    )
    n_ranges = ranges_per_thread * n_threads
    bounds = np.linspace(0, n_rows, n_ranges + 1).astype(np.intp)
    with single_thread_blas(), ThreadPoolExecutor(max_workers=n_threads) as pool:
        futures = [
            pool.submit(function, int(start), int(stop))
            for start, stop in zip(bounds[:-1], bounds[1:])
        ]
        try:
            for future in futures:
                future.result()
        except KeyboardInterrupt:
            # Ctrl-C reaches only this thread: ask the compiled loops of the workers
            # to stop too, and wait for them before the interrupt goes on
            for future in futures:
                future.cancel()
            request_stop(True)
            try:
                wait(futures)
            finally:
                request_stop(False)
            raise
        except BaseException:
            for future in futures:
                future.cancel()
            raise

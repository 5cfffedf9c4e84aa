"""Threads over row ranges: how patrec runs a GIL-free kernel on several cores.

A kernel that releases the GIL is called once per contiguous range of query rows,
each call in its own thread (SciPy's ``workers`` approach).  No OpenMP is involved.
"""
import numbers
import os
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

from ._signals import request_stop
from ._validation import check_scalar

__all__ = ["effective_n_jobs", "run_row_ranges"]


def effective_n_jobs(n_jobs):
    """The number of threads for ``n_jobs``: None means 1, -1 all cores, -2 all but one."""
    if n_jobs is None:
        return 1
    check_scalar(n_jobs, "n_jobs", numbers.Integral)
    if n_jobs == 0:
        raise ValueError("n_jobs must be a non-zero integer or None, got 0.")
    n_cpus = os.cpu_count() or 1
    return max(1, n_jobs if n_jobs > 0 else n_cpus + 1 + n_jobs)


def run_row_ranges(function, n_rows, n_jobs):
    """Call ``function(start, stop)`` over ranges that cover ``0 .. n_rows``.

    With one thread this is a single call ``function(0, n_rows)``.  Otherwise the rows
    are cut into as many nearly equal ranges as threads and the calls run concurrently;
    ``function`` must release the GIL to gain from it and must write only its own rows.
    On Ctrl-C (which only the calling thread sees) the workers' compiled loops are
    asked to stop (`patrec._signals`) and waited for; the KeyboardInterrupt goes on.
    """
    n_threads = min(effective_n_jobs(n_jobs), max(n_rows, 1))
    if n_threads == 1:
        function(0, n_rows)
        return
    bounds = np.linspace(0, n_rows, n_threads + 1).astype(np.intp)
    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        futures = [pool.submit(function, int(start), int(stop))
                   for start, stop in zip(bounds[:-1], bounds[1:])]
        try:
            for future in futures:
                future.result()
        except KeyboardInterrupt:
            # Ctrl-C reaches only this thread: ask the compiled loops of the workers
            # to stop too, and wait for them before the interrupt goes on
            request_stop(True)
            try:
                wait(futures)
            finally:
                request_stop(False)
            raise

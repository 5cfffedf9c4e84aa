"""Shared helpers of the benchmark scripts.

Every measurement is made side by side in one run: patrec and the reference library
are timed alternately (interleaved repeats), and the median of each is compared, so a
busy machine slows both alike.  Each result is printed as one JSON line:

    {"benchmark": ..., "params": {...}, "patrec_s": ..., "reference": ...,
     "reference_s": ..., "ratio": reference_s / patrec_s}

A ratio above 1 means patrec is faster.  Import this module before numpy/scipy so the
single-thread limits below take effect for BLAS as well.
"""

import json
import os
import sys
import time

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402

__all__ = ["compare", "report", "median_time", "quick"]


def median_time(function, repeats=5):
    """Median wall time of ``function()`` over ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def compare(patrec_call, reference_call, repeats=5, warmup=1):
    """Interleaved timing of two callables; returns (patrec median, reference median)."""
    for _ in range(warmup):
        patrec_call()
        reference_call()
    ours, theirs = [], []
    for _ in range(repeats):
        for call, times in ((patrec_call, ours), (reference_call, theirs)):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
    return float(np.median(ours)), float(np.median(theirs))


def report(benchmark, params, patrec_s, reference, reference_s, **extra):
    """Print one JSON line for a measurement and return the record."""
    record = {
        "benchmark": benchmark,
        "params": params,
        "patrec_s": round(patrec_s, 6),
        "reference": reference,
        "reference_s": round(reference_s, 6),
        "ratio": round(reference_s / patrec_s, 3) if patrec_s > 0 else None,
        **extra,
    }
    print(json.dumps(record), flush=True)
    return record


def quick():
    """True when ``--quick`` was given: smaller sizes for a smoke run."""
    return "--quick" in sys.argv[1:]

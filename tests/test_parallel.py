"""patrec._parallel: the row ranges cover every row once, errors come back."""

import threading
import time

import numpy as np
import pytest

from patrec._parallel import effective_n_jobs, run_row_ranges


@pytest.mark.parametrize("n_rows", [0, 1, 3, 255, 1023, 3500, 5000, 6000, 20_000])
@pytest.mark.parametrize("n_jobs", [None, 1, 2, 3, -1])
def test_ranges_cover_every_row_once(n_rows, n_jobs):
    seen = np.zeros(n_rows, dtype=int)
    ranges = []
    lock = threading.Lock()

    def rows(start, stop):
        with lock:
            ranges.append((start, stop))
        seen[start:stop] += 1

    run_row_ranges(rows, n_rows, n_jobs)
    np.testing.assert_array_equal(seen, 1)
    sizes = [stop - start for start, stop in ranges]
    assert max(sizes) - min(sizes) <= 1  # nearly equal ranges
    # a range keeps at least 256 rows unless there are fewer ranges than threads
    assert len(ranges) <= max(3, n_rows // 256) or n_rows < 256 * 3
    # up to eight a thread, and every thread gets as many (none left to run alone
    # at the end)
    n_threads = min(effective_n_jobs(n_jobs), max(n_rows, 1))
    assert len(ranges) <= 8 * n_threads
    # more ranges than threads only while every range keeps 256 rows
    assert len(ranges) == n_threads or min(sizes) >= 256
    assert len(ranges) % n_threads == 0


def test_an_error_in_one_range_is_raised_and_later_ranges_are_dropped():
    calls = []

    def rows(start, stop):
        calls.append(start)
        if start == 0:
            raise ValueError("row range 0 failed")
        time.sleep(0.2)

    with pytest.raises(ValueError, match="row range 0 failed"):
        run_row_ranges(rows, 20_000, 2)  # 16 ranges
    assert len(calls) < 16

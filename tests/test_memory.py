"""Repeated fit and predict leave no memory behind (compiled buffers freed, no
reference cycles that keep arrays alive)."""

import gc
import tracemalloc

import numpy as np
import pytest

from patrec.registry import classifier_names, get_classifier

psutil = pytest.importorskip("psutil")

# the learners' own convergence notes are not what these tests look at
pytestmark = pytest.mark.filterwarnings("ignore::patrec.exceptions.ConvergenceWarning")


def _data():
    rng = np.random.default_rng(0)
    centers = np.array([[0, 0, 0], [4, 0, 1], [0, 4, 2]], dtype=float)
    X = np.vstack([c + rng.normal(size=(40, 3)) for c in centers])
    return X, np.repeat(["a", "b", "c"], 40)


def _cycle(name, X, y):
    clf = get_classifier(name)()
    if "random_state" in clf.get_params():
        clf.set_params(random_state=0)
    clf.fit(X, y)
    clf.predict(X)
    if hasattr(clf, "predict_proba"):
        clf.predict_proba(X)


@pytest.mark.parametrize("name", classifier_names())
def test_a_thousand_fits_and_predicts_do_not_grow_memory(name):
    """Python-level allocations (tracemalloc) and the process's resident memory
    (which also sees C buffers of the compiled kernels) stay flat over 1000 rounds
    after a warm-up."""
    X, y = _data()
    for _ in range(20):  # warm-up: caches, lazily imported modules, BLAS buffers
        _cycle(name, X, y)
    gc.collect()
    process = psutil.Process()
    rss_before = process.memory_info().rss
    tracemalloc.start()
    traced_before = tracemalloc.get_traced_memory()[0]
    for _ in range(1000):
        _cycle(name, X, y)
    gc.collect()
    traced_growth = tracemalloc.get_traced_memory()[0] - traced_before
    tracemalloc.stop()
    rss_growth = process.memory_info().rss - rss_before
    # a leak of even one small array per round (120 x 3 float64 = 2.9 kB) would
    # show as 2.9 MB; allow well under that
    assert traced_growth < 256 * 1024, traced_growth
    assert rss_growth < 2 * 2**20, rss_growth

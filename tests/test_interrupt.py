"""Ctrl-C inside compiled loops: KeyboardInterrupt within about a second, and the
estimator left as it was before the call.

Each case runs in a subprocess that prints ``ready`` just before a long call; the test
then sends SIGINT and times how long the child takes to report the interrupt.
"""

import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# shared preamble: a fitted model to compare with after the interrupted call
PREAMBLE = """
import sys, time
import numpy as np
rng = np.random.default_rng(0)
small_X = rng.normal(size=(200, 8)); small_y = (small_X[:, 0] > 0).astype(int)
big_X = rng.normal(size=({n_train}, 8)); big_y = (big_X[:, 0] > 0).astype(int)
queries = rng.normal(size=({n_queries}, 8))
"""

CASES = {
    # brute force over every query: knn_gemm
    "brute-query": (
        """
from patrec import KNeighborsClassifier
clf = KNeighborsClassifier(algorithm="brute").fit(big_X, big_y)
call = lambda: clf.kneighbors(queries)
""",
        200_000,
        2_000_000,
    ),
    # the direct (non-GEMM) brute-force loop, on two threads
    "brute-direct-threads": (
        """
from patrec import KNeighborsClassifier
clf = KNeighborsClassifier(algorithm="brute", metric="cityblock", n_jobs=2)
clf.fit(big_X, big_y)
call = lambda: clf.kneighbors(queries)
""",
        200_000,
        2_000_000,
    ),
    # a tree query in high dimension (where it prunes little)
    "tree-query": (
        """
from patrec.neighbors import BranchBoundTree
big_X = rng.normal(size=(big_X.shape[0], 64)); queries = rng.normal(size=(len(queries), 64))
clf = BranchBoundTree(big_X)
call = lambda: clf.query(queries, k=5)
""",
        100_000,
        200_000,
    ),
    # a refit that builds a tree: the earlier model must survive it
    "tree-refit": (
        """
from patrec import KNeighborsClassifier
clf = KNeighborsClassifier(algorithm="bnb").fit(small_X, small_y)
call = lambda: clf.fit(big_X, big_y)
""",
        4_000_000,
        1,
    ),
    # QDA's discriminant kernel
    "qda-predict": (
        """
from patrec import QDA
queries = rng.normal(size=(500_000, 100)); small_X = rng.normal(size=(2000, 100))
clf = QDA().fit(small_X, (small_X[:, 0] > 0).astype(int))
# a few calls in a row: one takes about a second on an idle machine
call = lambda: [clf.predict_proba(queries) for _ in range(20)]
""",
        10,
        10,
    ),
    # editing: Wilson's k-NN votes of a million samples in a k-d tree (knn_batch)
    "edit": (
        """
from patrec.neighbors import Editing
big_X = big_X[:, :2]; small_X = small_X[:, :2]
clf = Editing(sampling_strategy="all")
clf.fit_resample(small_X, small_y)
probe = lambda: clf.sample_indices_
call = lambda: clf.fit_resample(big_X, big_y)
""",
        1_000_000,
        1,
    ),
    # editing in high dimension: the votes come from the brute-force search
    "edit-brute": (
        """
from patrec.neighbors import Editing
big_X = rng.normal(size=(len(big_X), 64)); small_X = rng.normal(size=(200, 64))
clf = Editing(sampling_strategy="all")
clf.fit_resample(small_X, small_y)
probe = lambda: clf.sample_indices_
call = lambda: clf.fit_resample(big_X, big_y)
""",
        60_000,
        1,
    ),
    # multi-edit: a third of the samples searched against another (query_batch)
    "multiedit": (
        """
from patrec.neighbors import MultiEditing
big_X = big_X[:, :2]; small_X = small_X[:, :2]
clf = MultiEditing(sampling_strategy="all", random_state=0)
clf.fit_resample(small_X, small_y)
probe = lambda: clf.sample_indices_
call = lambda: clf.fit_resample(big_X, big_y)
""",
        1_000_000,
        1,
    ),
    # Hart's condensing of noisy classes: the tree build, then batches of searches
    "condense": (
        """
from patrec.neighbors import Condensing
big_X = big_X[:, :2]; small_X = small_X[:, :2]
big_y = (big_X[:, 0] + 0.5 * rng.normal(size=len(big_X)) > 0).astype(int)
clf = Condensing(sampling_strategy="all")
clf.fit_resample(small_X, small_y)
probe = lambda: clf.sample_indices_
call = lambda: clf.fit_resample(big_X, big_y)
""",
        1_000_000,
        1,
    ),
    # condensing in high dimension, without a tree (catch_up_batch), on two threads
    "condense-direct-threads": (
        """
from patrec.neighbors import Condensing
big_X = rng.normal(size=(len(big_X), 64)); small_X = rng.normal(size=(200, 64))
big_y = rng.integers(2, size=len(big_X))
clf = Condensing(sampling_strategy="all", n_jobs=2)
clf.fit_resample(small_X, small_y)
probe = lambda: clf.sample_indices_
call = lambda: clf.fit_resample(big_X, big_y)
""",
        100_000,
        1,
    ),
    # an epoch learner refit (its epoch loop is Python)
    "perceptron-refit": (
        """
from patrec import LinearMachine
clf = LinearMachine().fit(small_X, small_y)
clf.set_params(max_epochs=100000)
big_X[:, 0] += rng.normal(size=len(big_X))  # not separable: all epochs run
call = lambda: clf.fit(big_X, big_y)
""",
        200_000,
        1,
    ),
}

BODY = """
if "probe" not in globals():  # what the fitted model answers, before and after
    probe = (lambda: clf.predict(small_X[:, :clf.n_features_in_])) \\
        if hasattr(clf, "predict") else \\
        (lambda: clf.query(queries[:5, :clf.n_features], k=5)[1])
before = {k: v for k, v in vars(clf).items() if k.endswith("_")}
expected = probe()
inputs = (big_X.copy(), big_y.copy())
print("ready", flush=True)
start = time.perf_counter()
try:
    call()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    after = {k: v for k, v in vars(clf).items() if k.endswith("_")}
    assert after.keys() == before.keys(), (after.keys(), before.keys())
    assert all(after[k] is before[k] for k in before)
    assert np.array_equal(probe(), expected)
    # the caller's arrays are untouched
    assert np.array_equal(big_X, inputs[0]) and np.array_equal(big_y, inputs[1])
    print("unchanged", flush=True)
    sys.exit(0)
print("finished before the interrupt", time.perf_counter() - start, flush=True)
sys.exit(1)
"""


WAIT = 60  # seconds: a child that does not answer fails the test instead of hanging


def _lines_of(stream):
    """A queue that receives the lines of ``stream`` (stripped) as they come."""
    lines = queue.Queue()

    def read():
        for line in stream:
            lines.put(line.strip())

    threading.Thread(target=read, daemon=True).start()
    return lines


@pytest.mark.parametrize("case", CASES)
def test_ctrl_c_stops_a_long_call_and_leaves_the_estimator_unchanged(case):
    setup, n_train, n_queries = CASES[case]
    script = PREAMBLE.format(n_train=n_train, n_queries=n_queries) + setup + BODY
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines = _lines_of(child.stdout)
    try:
        assert lines.get(timeout=WAIT) == "ready", child.stderr.read()
        time.sleep(1.0)  # well inside the long call
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        line = lines.get(timeout=WAIT)
        delay = time.perf_counter() - sent
        rest = lines.get(timeout=WAIT)
        child.wait(timeout=WAIT)
    except queue.Empty:
        pytest.fail(f"{case}: no answer from the child within {WAIT} s of SIGINT")
    finally:
        if child.poll() is None:
            child.kill()
    assert line == "interrupted", (line, rest, child.stderr.read())
    assert rest == "unchanged" and child.returncode == 0, child.stderr.read()
    # "within a second" on an idle machine; this 2-core machine is shared and busy
    assert delay < 3.0, delay
    print(f"{case}: KeyboardInterrupt {delay:.3f} s after SIGINT")

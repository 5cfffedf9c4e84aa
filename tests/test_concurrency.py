"""Threads and persistence: every registered classifier predicts the same from several
threads at once, round-trips through pickle and joblib, and the long compiled loops
release the GIL."""

import io
import pickle
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from patrec.registry import classifier_names, get_classifier

# the learners' own convergence notes are not what these tests look at
pytestmark = pytest.mark.filterwarnings("ignore::patrec.exceptions.ConvergenceWarning")

METHODS = ("predict", "predict_proba", "decision_function")


def _data(n_per_class=60, seed=0):
    rng = np.random.default_rng(seed)
    centers = np.array([[0, 0, 0, 0], [4, 0, 1, 0], [0, 4, 2, 1]], dtype=float)
    X = np.vstack([c + rng.normal(size=(n_per_class, 4)) for c in centers])
    return X, np.repeat(["a", "b", "c"], n_per_class)


def _fitted(name):
    clf = get_classifier(name)()
    if "random_state" in clf.get_params():
        clf.set_params(random_state=0)
    X, y = _data()
    return clf.fit(X, y)


def _outputs(clf, X):
    return {m: getattr(clf, m)(X) for m in METHODS if hasattr(clf, m)}


def _assert_same(got, expected):
    assert got.keys() == expected.keys()
    for method in expected:
        np.testing.assert_array_equal(got[method], expected[method], err_msg=method)


@pytest.mark.parametrize("name", classifier_names())
def test_threads_on_one_fitted_model_agree_with_one_thread(name):
    clf = _fitted(name)
    queries = [_data(200, seed)[0] for seed in range(1, 9)]
    expected = [_outputs(clf, Q) for Q in queries]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            got = list(pool.map(lambda Q: _outputs(clf, Q), queries))
            for g, e in zip(got, expected):
                _assert_same(g, e)


@pytest.mark.parametrize("name", classifier_names())
def test_pickle_and_joblib_round_trips_predict_the_same(name):
    joblib = pytest.importorskip("joblib")
    clf = _fitted(name)
    X, _ = _data(50, seed=3)
    expected = _outputs(clf, X)
    _assert_same(_outputs(pickle.loads(pickle.dumps(clf)), X), expected)
    buffer = io.BytesIO()
    joblib.dump(clf, buffer)
    buffer.seek(0)
    _assert_same(_outputs(joblib.load(buffer), X), expected)


@pytest.mark.parametrize("algorithm", ["bnb", "brute"])
def test_pickled_knn_is_no_larger_than_its_data_and_tree(algorithm):
    """The pickle holds the training set once, plus the tree's node arrays."""
    from patrec import KNeighborsClassifier
    from patrec.neighbors import BranchBoundTree

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20_000, 8))
    y = rng.integers(0, 3, size=len(X))
    clf = KNeighborsClassifier(algorithm=algorithm).fit(X, y)
    index = clf._index if hasattr(clf, "_index") else None
    tree_bytes = 0
    if isinstance(index, BranchBoundTree):
        from patrec.neighbors.search._bnb_tree import FIELDS

        arrays = [getattr(index._tree, name) for name in FIELDS]
        tree_bytes = sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))
        size = len(pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL))
        assert size <= X.nbytes + tree_bytes + 4096, (size, X.nbytes, tree_bytes)
    size = len(pickle.dumps(clf, protocol=pickle.HIGHEST_PROTOCOL))
    assert size <= X.nbytes + y.nbytes + tree_bytes + 4096, (size, X.nbytes, tree_bytes)


def _gil_free_share(call, at_least=0.25):
    """How much a Python loop in this thread gets done while ``call`` runs in another
    thread (repeated until ``at_least`` seconds have passed, however fast the
    machine), relative to the same loop alone: near 0 when ``call`` holds the GIL."""

    def spin(seconds):
        count, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            count += 1
        return count / seconds

    alone = spin(0.2)
    started, done = threading.Event(), threading.Event()

    def worker():
        started.set()
        end = time.perf_counter() + at_least
        call()
        while time.perf_counter() < end:
            call()
        done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    started.wait()
    count, start = 0, time.perf_counter()
    while not done.is_set():
        count += 1
    elapsed = time.perf_counter() - start
    thread.join()
    return count / elapsed / alone, elapsed


def _long_calls():
    from patrec import QDA
    from patrec.neighbors import BranchBoundTree, BruteForce, pairwise_distances

    rng = np.random.default_rng(0)
    train = rng.normal(size=(40_000, 8))
    queries = rng.normal(size=(20_000, 8))
    brute = BruteForce(train)
    direct = BruteForce(train, metric="cityblock")
    tree = BranchBoundTree(rng.normal(size=(40_000, 24)))
    tree_queries = rng.normal(size=(500, 24))
    X = rng.normal(size=(4000, 60))
    qda = QDA().fit(X, (X[:, 0] > 0).astype(int))
    big = rng.normal(size=(20_000, 60))
    return {
        "brute (GEMM)": lambda: brute.query(queries[:500], k=5),
        "brute (direct)": lambda: direct.query(queries[:2000], k=5),
        "tree": lambda: tree.query(tree_queries, k=5),
        "pairwise": lambda: pairwise_distances(
            queries[:1000], train[:20_000], metric="cityblock"
        ),
        "qda": lambda: qda.predict_proba(big),
    }


@pytest.mark.parametrize(
    "kernel", ["brute (GEMM)", "brute (direct)", "tree", "pairwise", "qda"]
)
def test_long_compiled_loops_release_the_gil(kernel):
    """While a long kernel runs in one thread, a Python loop in another keeps going.

    Holding the GIL, the kernel would stop the loop for its whole run (a share near
    0); released, the loop runs on the other core, or shares one core with the
    kernel on a busy machine (about 1/2 of its solo speed)."""
    call = _long_calls()[kernel]
    share, elapsed = _gil_free_share(call)
    print(
        f"{kernel}: {elapsed:.2f} s, Python loop alongside at {share:.0%} of its solo speed"
    )
    assert share > 0.15, (share, elapsed)


def _two_models(name):
    """Two training sets whose models answer differently, their queries, and what
    each model answers (`_outputs`)."""
    X_a, y_a = _data(60, seed=10)
    X_b, _ = _data(45, seed=11)
    # other data, other labels, the classes in another order: a mixture of the two
    # fitted states (one's index, the other's classes) answers like neither
    y_b = np.repeat(["z", "y", "x"], 45)
    queries = _data(80, seed=12)[0]
    answers = []
    for X, y in ((X_a, y_a), (X_b, y_b)):
        clf = get_classifier(name)()
        if "random_state" in clf.get_params():
            clf.set_params(random_state=0)
        answers.append(_outputs(clf.fit(X, y), queries))
    assert any(not np.array_equal(answers[0][m], answers[1][m]) for m in answers[0]), (
        "the two models must be told apart"
    )
    return (X_a, y_a), (X_b, y_b), queries, answers


def _matches(got, answers):
    """Each method's answer is one model's (each call reads one model; two calls
    may read two)."""
    return all(
        any(np.array_equal(got[m], answer[m]) for answer in answers) for m in got
    )


def race_fit_and_predict(name, rounds=12):
    """Fit the two models in turn in one thread while another thread predicts;
    return the number of answers and the mixed ones (those of neither model)."""
    first, second, queries, answers = _two_models(name)
    clf = get_classifier(name)()
    if "random_state" in clf.get_params():
        clf.set_params(random_state=0)
    clf.fit(*first)
    done = threading.Event()
    mixed, count = [], 0

    def fitting():
        try:
            for round_ in range(rounds):
                clf.fit(*(second if round_ % 2 == 0 else first))
        finally:
            done.set()

    thread = threading.Thread(target=fitting)
    thread.start()
    while not done.is_set() or count == 0:
        got = _outputs(clf, queries)
        count += 1
        if not _matches(got, answers):
            mixed.append(got)
    thread.join()
    return count, mixed


@pytest.mark.parametrize("name", classifier_names())
def test_a_predict_racing_a_fit_answers_with_one_whole_model(name):
    """Issue 37: a predict while another thread refits answered with neither model
    (a half-updated one).  `fit` now replaces the state whole and each reading
    method reads one state, so every answer is the old model's or the new one's."""
    count, mixed = race_fit_and_predict(name)
    assert count >= 1
    assert not mixed, f"{len(mixed)} of {count} answers came from neither model"


def test_nearest_neighbors_racing_a_fit_answers_with_one_whole_index():
    """The unsupervised index too: each kneighbors call answers from one fit."""
    from patrec import NearestNeighbors

    rng = np.random.default_rng(20)
    first, second = rng.normal(size=(300, 3)), rng.normal(size=(250, 3)) + 1
    queries = rng.normal(size=(60, 3))
    answers = [
        NearestNeighbors(n_neighbors=3).fit(X).kneighbors(queries)
        for X in (first, second)
    ]
    nn = NearestNeighbors(n_neighbors=3).fit(first)
    done, mixed, count = threading.Event(), 0, 0

    def fitting():
        try:
            for round_ in range(20):
                nn.fit(second if round_ % 2 == 0 else first)
        finally:
            done.set()

    thread = threading.Thread(target=fitting)
    thread.start()
    while not done.is_set() or count == 0:
        distances, indices = nn.kneighbors(queries)
        count += 1
        mixed += not any(
            np.array_equal(distances, d) and np.array_equal(indices, i)
            for d, i in answers
        )
    thread.join()
    assert mixed == 0, f"{mixed} of {count} answers came from neither index"

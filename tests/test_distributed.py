"""Past one process: prediction over dask.array blocks, dask-ml's ParallelPostFit, and
exact k-NN over a training set sharded on the workers of a LocalCluster."""

import pickle

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

from patrec import KNeighborsClassifier  # noqa: E402
from patrec.distributed import ShardedKNeighborsClassifier  # noqa: E402
from patrec.registry import classifier_names, get_classifier  # noqa: E402

# the learners' own convergence notes are not what these tests look at
pytestmark = pytest.mark.filterwarnings("ignore::patrec.exceptions.ConvergenceWarning")


@pytest.fixture(scope="module")
def client():
    # two worker processes, one thread each: small, and a real process boundary; no
    # dashboard, and the scheduler's web pages on any free port (8787 may be taken)
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def _tied_data(n=6000, n_features=3, seed=0, dtype=np.float64):
    """Integer grid points: many equal distances, so the tie rule matters."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, n_features)).astype(dtype)
    y = rng.choice(np.array(["ant", "bee", "cat"]), size=n)
    queries = rng.integers(0, 4, size=(400, n_features)).astype(dtype)
    return X, y, queries


@pytest.mark.parametrize(
    "params, chunk, dtype",
    [
        ({"n_neighbors": 7}, 1500, np.float64),
        ({"n_neighbors": 1}, 1000, np.float32),
        ({"n_neighbors": 12, "weights": "distance"}, 2500, np.float64),
        (
            {"n_neighbors": 5, "metric": "cityblock", "algorithm": "bnb"},
            3000,
            np.float64,
        ),
        ({"n_neighbors": 5, "algorithm": "brute"}, 3000, np.float64),
    ],
)
def test_sharded_knn_equals_one_process(client, params, chunk, dtype):
    X, y, queries = _tied_data(dtype=dtype)
    reference = KNeighborsClassifier(**params).fit(X, y)
    sharded = ShardedKNeighborsClassifier(**params).fit(
        da.from_array(X, chunks=(chunk, -1)), da.from_array(y, chunks=chunk)
    )
    assert sharded.n_shards_ == -(-len(X) // chunk)
    np.testing.assert_array_equal(sharded.shard_offsets_[-1], len(X))
    expected = reference.kneighbors(queries)
    got = sharded.kneighbors(queries)
    np.testing.assert_array_equal(got[1], expected[1])
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(
        sharded.predict_proba(queries), reference.predict_proba(queries)
    )
    np.testing.assert_array_equal(sharded.predict(queries), reference.predict(queries))
    np.testing.assert_array_equal(sharded.classes_, reference.classes_)


def test_each_shard_builds_what_auto_chooses_for_its_size(client):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(10_000, 4))
    y = (X[:, 0] > 0).astype(int)
    # shards of 4500 rows in 4-D: the tree; shards of 500 rows: brute force (at
    # 1000 rows the k-d tree and brute force cost about the same)
    sharded = ShardedKNeighborsClassifier().fit(
        da.from_array(X[:9000], chunks=(4500, 4)), y[:9000]
    )
    assert sharded.shard_algorithms_ == ["bnb", "bnb"]
    small = ShardedKNeighborsClassifier().fit(
        da.from_array(X[:1500], chunks=(500, 4)), y[:1500]
    )
    assert small.shard_algorithms_ == ["brute"] * 3
    queries = rng.normal(size=(200, 4))
    np.testing.assert_array_equal(
        sharded.kneighbors(queries)[1],
        KNeighborsClassifier().fit(X[:9000], y[:9000]).kneighbors(queries)[1],
    )


def test_sharded_knn_refuses_what_it_cannot_do(client):
    X, y, queries = _tied_data(n=600)
    sharded = ShardedKNeighborsClassifier().fit(da.from_array(X, chunks=(200, -1)), y)
    with pytest.raises(ValueError, match="k must be <= 600"):
        sharded.kneighbors(queries, n_neighbors=601)
    with pytest.raises(ValueError, match="needs the queries X"):
        sharded.kneighbors()
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(sharded)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        ShardedKNeighborsClassifier().fit(da.from_array(X, chunks=(200, -1)), y[:-1])
    with pytest.raises(ValueError, match="n_neighbors"):
        ShardedKNeighborsClassifier(n_neighbors=0).fit(da.from_array(X, chunks=200), y)
    bad = X.copy()
    bad[450, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ShardedKNeighborsClassifier().fit(da.from_array(bad, chunks=(200, -1)), y)
    # a failed refit leaves the fitted model in place
    np.testing.assert_array_equal(
        sharded.kneighbors(queries)[1],
        KNeighborsClassifier().fit(X, y).kneighbors(queries)[1],
    )


def _fitted(name):
    rng = np.random.default_rng(0)
    centers = np.array([[0, 0, 0], [4, 0, 1], [0, 4, 2]], dtype=float)
    X = np.vstack([c + rng.normal(size=(60, 3)) for c in centers])
    clf = get_classifier(name)()
    if "random_state" in clf.get_params():
        clf.set_params(random_state=0)
    return clf.fit(X, np.repeat([3, 7, 100], 60))


@pytest.mark.parametrize("name", classifier_names())
def test_predict_over_dask_blocks_equals_one_process(client, name):
    """Any fitted model predicts block by block on the workers (map_blocks)."""
    clf = _fitted(name)
    queries = np.random.default_rng(5).normal(scale=3, size=(1000, 3))
    X = da.from_array(queries, chunks=(250, 3))
    labels = X.map_blocks(clf.predict, dtype=clf.classes_.dtype, drop_axis=1)
    np.testing.assert_array_equal(labels.compute(), clf.predict(queries))
    for method in ("predict_proba", "decision_function"):
        if hasattr(clf, method):
            expected = getattr(clf, method)(queries)
            chunks = (X.chunks[0],) + expected.shape[1:]
            got = X.map_blocks(
                getattr(clf, method),
                dtype=expected.dtype,
                chunks=chunks,
                drop_axis=None if expected.ndim == 2 else 1,
            )
            np.testing.assert_array_equal(got.compute(), expected)


@pytest.mark.parametrize("name", ["fisher-lda", "knn", "perceptron"])
def test_dask_ml_parallel_post_fit(client, name):
    wrappers = pytest.importorskip("dask_ml.wrappers")
    clf = _fitted(name)
    queries = np.random.default_rng(6).normal(scale=3, size=(1000, 3))
    X = da.from_array(queries, chunks=(250, 3))
    wrapped = wrappers.ParallelPostFit(estimator=clf)
    np.testing.assert_array_equal(wrapped.predict(X).compute(), clf.predict(queries))
    if hasattr(clf, "predict_proba"):
        np.testing.assert_array_equal(
            wrapped.predict_proba(X).compute(), clf.predict_proba(queries)
        )


def test_without_a_cluster_the_input_is_checked_first_then_the_cluster_named():
    """In a fresh process (no client can linger from another test): bad input gets
    KNeighborsClassifier's errors, good input a message that says what to start."""
    import subprocess
    import sys

    script = """
import numpy as np
from patrec.distributed import ShardedKNeighborsClassifier
cases = [
    ([[np.nan, 1.0], [1.0, 2.0]], [0, 1], {}),
    ([[0.0, 1.0], [1.0, 2.0]], [0], {}),
    ([[0.0, 1.0], [1.0, 2.0]], [0, 1], {"n_neighbors": 0}),
    ([[0.0, 1.0], [1.0, 2.0], [3.0, 4.0]], [0, 1, 1], {}),
]
for X, y, params in cases:
    try:
        ShardedKNeighborsClassifier(**params).fit(X, y)
    except ValueError as error:
        print(str(error).splitlines()[0])
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 4, result.stdout
    assert "NaN" in lines[0]
    assert "inconsistent numbers of samples" in lines[1]
    assert "n_neighbors must be in [1, inf]" in lines[2]
    assert lines[3].startswith("ShardedKNeighborsClassifier runs on a Dask cluster")
    assert "client = Client()" in lines[3]


def test_the_sharded_index_refuses_what_it_cannot_do():
    from patrec.distributed import _ShardedIndex

    index = _ShardedIndex(None, [], [], 10, None)
    for flags in ({"count": True}, {"training": True}):
        with pytest.raises(NotImplementedError):
            index._query(np.zeros((1, 2)), 1, None, **flags)

"""
==============================================
Exact k-NN over a training set on Dask workers
==============================================

`patrec.distributed.ShardedKNeighborsClassifier` keeps each row block of a
`dask.array` training set on a worker, with that block's own search index.  A query
goes to every shard, each shard returns its :math:`k` best, and the client merges
them by distance: the :math:`k` nearest of the whole set are among the :math:`k`
nearest of the shards, so the answer is exactly that of one process.

This page starts a small `distributed.LocalCluster` in this process (two workers,
``processes=False``), shards a 2-D training set of two overlapping classes into four
blocks, and shows one query's candidates from every shard and the merged five.
Dask is optional (``pip install ".[dask]"`` in a checkout of patrec; the ``docs``
extra, which builds this page, includes it); without it the page says so.
"""

# %%
import importlib.util
import logging

import matplotlib.pyplot as plt
import numpy as np

from patrec import KNeighborsClassifier

HAVE_DASK = all(
    importlib.util.find_spec(name) is not None for name in ("dask", "distributed")
)
if not HAVE_DASK:
    message = (
        "Dask is not installed where this page was built, so this example did not "
        'run.\nInstall it with  pip install ".[dask]"  (in a checkout of patrec) and '
        "run this script."
    )
    print(message)
    fig, ax = plt.subplots(figsize=(7, 1.6))
    ax.text(0.5, 0.5, message, ha="center", va="center", wrap=True)
    ax.set_title("Sharded k-NN: Dask is not installed")
    ax.axis("off")
    plt.show()

# %%
# The training set lives on the workers as a dask array of four row blocks (four
# shards); each worker builds the index of its shards.
if HAVE_DASK:
    import dask.array as da
    from distributed import Client, LocalCluster

    from patrec.distributed import ShardedKNeighborsClassifier

    rng = np.random.default_rng(0)
    n_per_class = 2_000
    X_local = np.vstack(
        [rng.normal(mean, 1.0, size=(n_per_class, 2)) for mean in ([0, 0], [2, 1])]
    )
    y_local = np.repeat([0, 1], n_per_class)
    order = rng.permutation(len(X_local))  # every shard holds both classes
    X_local, y_local = X_local[order], y_local[order]

    # the cluster's own log: only errors (an in-process cluster may log, at INFO, a
    # traceback of the connections it closes on shutdown)
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        # No dashboard.  The scheduler still serves a few web pages (its health,
        # its metrics), by default on port 8787: on any free port of this machine
        # instead, so that a program already using 8787 changes nothing here.
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,
    )
    client = Client(cluster)
    X = da.from_array(X_local, chunks=(len(X_local) // 4, 2))
    clf = ShardedKNeighborsClassifier(n_neighbors=5).fit(X, y_local)
    print(f"{len(X_local)} samples in {clf.n_shards_} shards: {clf.shard_offsets_}")
    print("index of each shard:", ", ".join(clf.shard_algorithms_))

    # One query: the five nearest of each shard (rings: the candidates sent back) and
    # the five the client keeps (stars, each inside the ring of its shard).  They
    # equal the five nearest of the whole set.
    query = np.array([[1.0, 0.5]])
    distances, merged = clf.kneighbors(query)
    local = KNeighborsClassifier(n_neighbors=5).fit(X_local, y_local)
    same = np.array_equal(local.kneighbors(query)[1], merged)
    print("merged neighbours:", merged[0], "- same as one process:", same)

    queries = np.random.default_rng(1).normal(1.0, 1.5, size=(2_000, 2))
    agree = np.array_equal(clf.predict(queries), local.predict(queries))
    print(f"predictions of {len(queries)} queries equal one process's: {agree}")

    shard_colours = ["tab:blue", "tab:orange", "tab:green", "tab:purple"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.5))
    starts = clf.shard_offsets_
    for shard in range(clf.n_shards_):
        rows = slice(starts[shard], starts[shard + 1])
        left.scatter(*X_local[rows].T, s=3, color=shard_colours[shard], alpha=0.25)
        # this shard's own k nearest: what it sends back to the client
        block = X_local[rows]
        nearest = np.argsort(np.linalg.norm(block - query, axis=1))[: clf.n_neighbors]
        right.scatter(
            *block[nearest].T,
            s=170,
            facecolor="none",
            edgecolor=shard_colours[shard],
            linewidth=1.5,
            label=f"{clf.n_neighbors} best of shard {shard + 1}",
        )
    for ax in (left, right):
        ax.scatter(*query.T, marker="P", s=120, color="k", label="query", zorder=3)
        ax.set_xlabel("feature 1")
        ax.set_ylabel("feature 2")
    right.scatter(
        *X_local[merged[0]].T,
        marker="*",
        s=70,
        color="gold",
        edgecolor="k",
        label=f"{clf.n_neighbors} nearest after merging",
        zorder=4,
    )
    radius = distances[0, -1]
    right.set_xlim(query[0, 0] - 3 * radius, query[0, 0] + 3 * radius)
    right.set_ylim(query[0, 1] - 3 * radius, query[0, 1] + 3 * radius)
    right.set_aspect("equal")
    left.set_title(f"{len(X_local)} training samples in {clf.n_shards_} shards")
    right.set_title(
        f"one query: {clf.n_shards_ * clf.n_neighbors} candidates, {clf.n_neighbors} "
        f"kept\nsame neighbours as one process: {same}"
    )
    left.legend(
        handles=[
            plt.Line2D([], [], marker="o", linestyle="", color=colour, label=label)
            for colour, label in zip(
                shard_colours, [f"shard {i + 1}" for i in range(clf.n_shards_)]
            )
        ]
        + [plt.Line2D([], [], marker="P", linestyle="", color="k", label="query")],
        loc="upper left",
    )
    right.legend(loc="upper left", fontsize="small", bbox_to_anchor=(1.02, 1.0))
    fig.tight_layout()
    plt.show()

    client.close()
    cluster.close()

# %%
# At scale
# --------
# The same path on a real cluster: ``measure`` below generates the training set on
# the workers (it never passes through the client), fits, and prints the time, the
# workers' memory and the throughput; the user guide (:ref:`distributed`) reports
# its figures.  Run it with
# ``python examples/neighbors/plot_sharded_knn.py 400000 8`` (samples, features).


def measure(n_samples=400_000, n_features=8, n_queries=20_000, n_workers=2):
    """Fit and predict at scale on worker processes; print time, memory, rate."""
    import time

    import dask.array as da
    import psutil
    from distributed import Client, LocalCluster

    from patrec.distributed import ShardedKNeighborsClassifier

    with (
        LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # (as above)
            memory_limit=0,
        ) as cluster,
        Client(cluster) as client,
    ):
        # two shards per worker, generated on the workers
        chunk = -(-n_samples // (2 * n_workers))
        X = da.random.default_rng(0).standard_normal(
            (n_samples, n_features), chunks=(chunk, n_features)
        )
        y = (X[:, 0] + X[:, 1] > 0).astype(np.int8)

        def rss():
            return psutil.Process().memory_info().rss

        before = client.run(rss)
        start = time.perf_counter()
        sharded = ShardedKNeighborsClassifier(n_neighbors=5).fit(X, y)
        fit_seconds = time.perf_counter() - start
        grown = sum(client.run(rss).values()) - sum(before.values())
        print(
            f"{n_samples:,} training samples x {n_features} features "
            f"({X.nbytes / 2**30:.2f} GiB) in {sharded.n_shards_} shards "
            f"({', '.join(sharded.shard_algorithms_)}) on {n_workers} workers"
        )
        print(
            f"fit: {fit_seconds:.1f} s; worker memory grew by {grown / 2**30:.2f} GiB "
            f"({grown / X.nbytes:.2f} x the training data)"
        )
        queries = np.random.default_rng(1).standard_normal((n_queries, n_features))
        start = time.perf_counter()
        predicted = sharded.predict(queries)
        seconds = time.perf_counter() - start
        print(
            f"predict: {n_queries:,} queries in {seconds:.1f} s "
            f"({n_queries / seconds:,.0f} queries/s)"
        )
        # the same answers as one process, checked on a training set that fits here
        if n_samples <= 2_000_000:
            one = KNeighborsClassifier(n_neighbors=5).fit(X.compute(), y.compute())
            same = np.array_equal(
                one.kneighbors(queries[:1000])[1], sharded.kneighbors(queries[:1000])[1]
            )
            print("same neighbours as KNeighborsClassifier:", same)
            assert same and np.array_equal(one.predict(queries), predicted)


if __name__ == "__main__":
    import sys

    # sizes on the command line: measure at scale (the gallery passes none)
    sizes = [int(arg) for arg in sys.argv[1:] if arg.isdigit()]
    if sizes:
        measure(*sizes)

"""
==============================================
Exact k-NN over a training set on Dask workers
==============================================

`patrec.distributed.ShardedKNeighborsClassifier` keeps each row block of a
`dask.array` training set on a worker, with that block's own search index; queries go
to every shard and the k best are merged exactly.  This script starts a small
`distributed.LocalCluster` (two worker processes), fits on a training set generated
on the workers themselves (it never passes through this process), checks the answers
against `KNeighborsClassifier` on a sample, and prints memory and throughput.

Run it with ``python examples/neighbors/sharded_knn.py [n_samples] [n_features]``
(defaults: 400 000 samples, 8 features; needs ``pip install "patrec[dask]"``).
"""

import sys
import time

import numpy as np


def main(n_samples=400_000, n_features=8, n_queries=20_000, n_workers=2):
    import dask.array as da
    from distributed import Client, LocalCluster

    from patrec import KNeighborsClassifier
    from patrec.distributed import ShardedKNeighborsClassifier

    with (
        LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
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
            import psutil

            return psutil.Process().memory_info().rss

        before = client.run(rss)
        start = time.perf_counter()
        clf = ShardedKNeighborsClassifier(n_neighbors=5).fit(X, y)
        fit_seconds = time.perf_counter() - start
        after = client.run(rss)
        grown = sum(after.values()) - sum(before.values())
        print(
            f"{n_samples:,} training samples x {n_features} features "
            f"({X.nbytes / 2**30:.2f} GiB) in {clf.n_shards_} shards "
            f"({', '.join(clf.shard_algorithms_)}) on {n_workers} workers"
        )
        print(
            f"fit: {fit_seconds:.1f} s; worker memory grew by {grown / 2**30:.2f} GiB "
            f"({grown / X.nbytes:.2f} x the training data)"
        )

        queries = np.random.default_rng(1).standard_normal((n_queries, n_features))
        start = time.perf_counter()
        predicted = clf.predict(queries)
        seconds = time.perf_counter() - start
        print(
            f"predict: {n_queries:,} queries in {seconds:.1f} s "
            f"({n_queries / seconds:,.0f} queries/s)"
        )

        # the same answers as one process, checked on a training set that fits here
        if n_samples <= 2_000_000:
            local = KNeighborsClassifier(n_neighbors=5).fit(X.compute(), y.compute())
            same = np.array_equal(
                local.kneighbors(queries[:1000])[1], clf.kneighbors(queries[:1000])[1]
            )
            print("same neighbours as KNeighborsClassifier:", same)
            assert same and np.array_equal(local.predict(queries), predicted)


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))

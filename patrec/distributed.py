"""Exact k-nearest neighbours over a training set sharded on Dask workers.

A training set too large for one process is held as a `dask.array` whose row blocks
live on the workers of a `distributed` cluster.  `ShardedKNeighborsClassifier` builds
one search index per block, on the worker that holds it, and leaves it there: the
client keeps only the labels and a handle (a future) per shard.  A query batch is
sent to every shard; each returns its k best candidates, ordered by (distance,
training index), and the client merges them.  Since the k best of the whole set are
among the k best of the shards, and the order is by distance and then by *global*
training index, the merge returns exactly what `KNeighborsClassifier` returns on the
same data in one process: the same neighbours, in the same order, hence the same
votes.

Cost.  Building: each worker builds the index of its shards (brute force or the
branch-and-bound tree, as ``algorithm="auto"`` chooses for the shard's size); the
training data never pass through the client.  A query batch of m rows costs one
k-NN search per shard on the workers, m * k * n_shards candidates sent back, and a
merge of O(m k n_shards log(k n_shards)) on the client.

Only the nearest-neighbour search scales out this way.  Every other patrec estimator
trains in one process (its training set must fit in memory); fitted, any of them
predicts over the blocks of a dask array with ``X.map_blocks(model.predict, ...)``
(see the user guide).

Dask is an optional dependency (``pip install "patrec[dask]"``); this module imports
it only when a sharded classifier is fitted.
"""

import numbers

import numpy as np

from ._validation import check_labels, check_scalar, check_X, encode_labels
from .neighbors.classifier import KNeighborsClassifier
from .neighbors.search import build_index
from .neighbors.search.metrics import as_metric
from .neighbors.search.tree import BranchBoundTree

__all__ = ["ShardedKNeighborsClassifier"]


def _import_distributed():
    try:
        import dask.array as da
        import distributed
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            'ShardedKNeighborsClassifier needs Dask: pip install "patrec[dask]" '
            "(dask[array] and distributed)."
        ) from exc
    return da, distributed


class ShardedKNeighborsClassifier(KNeighborsClassifier):
    """k-NN classifier whose training set stays sharded over Dask workers.

    ``fit`` takes a `dask.array` (one shard per block of rows) and builds each
    shard's index on the worker that holds it; ``kneighbors``, ``predict`` and
    ``predict_proba`` send the queries to every shard and merge the k best exactly.
    The results equal `KNeighborsClassifier`'s on the same data, ties included.

    Parameters
    ----------
    n_neighbors, weights, algorithm, metric, p, metric_params, reject_threshold, \
reject_label
        As in `KNeighborsClassifier`; ``algorithm`` is applied per shard
        (``"auto"`` chooses for each shard's size).
    n_jobs : int, default=None
        Threads of each shard's search on its worker.
    client : distributed.Client, default=None
        The cluster to use; None means the current client (`distributed.get_client`).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    n_samples_fit_ : int
        Number of training samples (over all shards).
    n_features_in_ : int
        Number of features.
    n_shards_ : int
        Number of shards (row blocks of the training array).
    shard_offsets_ : ndarray of shape (``n_shards_`` + 1,)
        Shard s holds the training rows ``shard_offsets_[s]:shard_offsets_[s + 1]``.
    shard_algorithms_ : list of str
        The search method each shard uses, ``"brute"`` or ``"bnb"``.

    Notes
    -----
    The training array is rechunked so that each block holds whole rows; the row
    blocks become the shards (rechunk it beforehand to choose their number, e.g. one
    or two per worker).  The labels ``y`` (a NumPy or Dask array) are gathered on
    the client, the only per-sample data kept there.  ``kneighbors(None)`` (the
    neighbours of the training samples themselves) is not offered; the fitted
    estimator cannot be pickled (its shards are futures of a running cluster).

    Examples
    --------
    >>> import numpy as np
    >>> import dask.array as da
    >>> from distributed import Client
    >>> from patrec.distributed import ShardedKNeighborsClassifier
    >>> # no dashboard, and the scheduler's web pages on any free port, not on 8787
    >>> client = Client(processes=False, n_workers=1, threads_per_worker=2,
    ...                 dashboard_address=None,
    ...                 scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
    >>> X = da.from_array(np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]]),
    ...                   chunks=(3, 1))
    >>> clf = ShardedKNeighborsClassifier(n_neighbors=3).fit(X, list("aaabbb"))
    >>> clf.n_shards_, clf.shard_offsets_.tolist()
    (2, [0, 3, 6])
    >>> clf.predict([[1.5], [9.0]])
    array(['a', 'b'], dtype='<U1')
    >>> clf.kneighbors([[2.4]])[1]
    array([[2, 1, 0]])
    >>> client.close()
    """

    def __init__(
        self,
        n_neighbors=5,
        weights="uniform",
        algorithm="auto",
        metric="euclidean",
        p=2,
        metric_params=None,
        reject_threshold=None,
        reject_label=-1,
        n_jobs=None,
        client=None,
    ):
        super().__init__(
            n_neighbors=n_neighbors,
            weights=weights,
            algorithm=algorithm,
            metric=metric,
            p=p,
            metric_params=metric_params,
            reject_threshold=reject_threshold,
            reject_label=reject_label,
            n_jobs=n_jobs,
        )
        self.client = client

    def fit(self, X, y):
        """Build one index per row block of ``X`` on the workers.

        Parameters
        ----------
        X : dask.array.Array or array-like of shape (n_samples, n_features)
            Training samples; a NumPy array is first split into blocks of about
            100 000 rows and scattered to the workers.
        y : array-like or dask.array.Array of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : object
        """
        self._validate_params()
        da, distributed = _import_distributed()
        if not isinstance(X, da.Array):
            X = da.from_array(check_X(X), chunks=(100_000, -1))
        if X.ndim != 2:
            raise ValueError(f"X must be a 2-D array, got {X.ndim} dimension(s).")
        if X.dtype.kind not in "fiub":
            raise TypeError(f"X must hold numbers, got dtype {X.dtype}.")
        if any(np.isnan(size) for size in X.chunks[0]):
            X = X.compute_chunk_sizes()
        X = X.rechunk({1: -1})
        labels = y.compute() if isinstance(y, da.Array) else y
        with self._fit_transaction() as model:
            model._fit_shards(X, labels, distributed)
        return self

    def _fit_shards(self, X, labels, distributed):
        """`fit`'s work, on the copy that `fit` publishes when it succeeds."""
        classes, codes = encode_labels(check_labels(labels, X.shape[0]), compact=True)
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        if self.reject_threshold is not None:
            self.reject_label_ = self._reject_option()[1]
        # (VI checked against the features; the other parameters were checked
        # before the data, by _validate_params)
        metric = as_metric(self.metric, self.p, self.metric_params, X.shape[1])
        self._codes = codes
        client = self._cluster(distributed)
        offsets = np.concatenate([[0], np.cumsum(X.chunks[0])]).astype(np.intp)
        offsets_kept = [int(o) for o in offsets[:-1]]
        blocks = X.to_delayed().ravel()
        shards = client.compute(
            [_delayed(_build_shard)(block, self.algorithm, metric) for block in blocks]
        )
        distributed.wait(shards)
        algorithms = client.gather(
            [client.submit(_shard_algorithm, shard) for shard in shards]
        )
        self._index = _ShardedIndex(client, shards, offsets_kept, X.shape[0], metric)
        self.fit_algorithm_ = "sharded"
        self.n_samples_fit_ = int(X.shape[0])
        self.n_shards_ = len(shards)
        self.shard_offsets_ = offsets
        self.shard_algorithms_ = algorithms

    def _cluster(self, distributed):
        """The client given, or the running one; a clear error when there is none
        (checked after the data and the parameters)."""
        if self.client is not None:
            return self.client
        try:
            return distributed.get_client()
        except ValueError:  # distributed: "No global client found ..."
            raise ValueError(
                "ShardedKNeighborsClassifier runs on a Dask cluster, and none is "
                "running: start one first (`from distributed import Client; client "
                "= Client()` starts a local cluster on this machine), or pass "
                "client=.  On one machine without Dask, KNeighborsClassifier gives "
                "the same answers."
            ) from None

    def __getstate__(self):
        if hasattr(self, "_index"):
            raise TypeError(
                "A fitted ShardedKNeighborsClassifier cannot be pickled: its shards "
                "live on the workers of a running cluster. Pickle a "
                "KNeighborsClassifier instead."
            )
        return super().__getstate__()


def _delayed(function):
    from dask import delayed

    return delayed(function, pure=True)


def _build_shard(block, algorithm, metric):
    """On a worker: the search index of one block of training rows, for the
    client's `Metric` ``metric`` (resolved once, for every shard)."""
    return build_index(check_X(block), metric, algorithm=algorithm)[0]


def _shard_algorithm(index):
    return "bnb" if isinstance(index, BranchBoundTree) else "brute"


def _query_shard(index, queries, k, offset, n_jobs, checked=False):
    """On a worker: one shard's k best (reduced distance, global training index).

    The distances stay reduced (squared for euclidean): the client orders the
    candidates of all shards exactly as one search over the whole set would, by
    (reduced distance, training index), before finishing them.
    """
    queries = index._check_query(queries, checked)
    k = min(k, index.n_samples)
    reduced = np.empty((queries.shape[0], k), dtype=index.dtype)
    indices = np.empty((queries.shape[0], k), dtype=np.intp)
    index._search_rows(queries, reduced, indices, None, n_jobs)
    index._metric.check_finite(reduced)
    return reduced, indices + offset


class _ShardedIndex:
    """The client's handle on the shards: `NeighborIndex._query` over all of them."""

    def __init__(self, client, shards, offsets, n_samples, metric):
        self._client = client
        self._shards = shards
        self._offsets = offsets
        self.n_samples = n_samples
        self._metric = metric

    def query_others(self, k, n_jobs=None):
        raise ValueError(
            "ShardedKNeighborsClassifier.kneighbors needs the queries X: the "
            "neighbours of the training samples themselves (X=None) are not offered."
        )

    def _query(self, X, k, n_jobs, count=False, training=False, checked=False):
        if count or training:  # (the sharded classifier asks for neither)
            raise NotImplementedError(
                "a sharded index counts no distance evaluations and does not search "
                "its own training samples"
            )
        check_scalar(k, "k", numbers.Integral, low=1)
        if k > self.n_samples:
            raise ValueError(
                f"k={k} neighbours were asked for, but the index holds only "
                f"{self.n_samples} training sample(s); k must be <= {self.n_samples}."
            )
        [queries] = self._client.scatter([X], hash=False)
        futures = [
            self._client.submit(
                _query_shard, shard, queries, k, offset, n_jobs, checked, pure=False
            )
            for shard, offset in zip(self._shards, self._offsets)
        ]
        parts = self._client.gather(futures)
        reduced = np.concatenate([part[0] for part in parts], axis=1)
        indices = np.concatenate([part[1] for part in parts], axis=1)
        # the k best of all candidates: by reduced distance, ties by global index
        order = np.lexsort((indices, reduced), axis=1)[:, :k]
        reduced = np.take_along_axis(reduced, order, axis=1)
        indices = np.take_along_axis(indices, order, axis=1)
        return self._metric.finish(reduced), indices, None

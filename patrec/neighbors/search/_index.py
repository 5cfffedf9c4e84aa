"""What every nearest-neighbour index shares.

`NeighborIndex` keeps the training samples (mapped once into the space where the
distance kernels apply, see `Metric.prepare`), validates queries and ``k`` and turns
the kernels' reduced distances into true distances.  `BruteForce` and
`BranchBoundTree` derive from it and only implement ``_kneighbors``; which of them
a search uses is chosen in `patrec.neighbors.search._auto`.

Dtype rule: the training set keeps its dtype (float32 or float64) and queries are
cast to it, so float32 training data is searched with float32 kernels throughout.
"""

import numbers

import numpy as np

from ..._parallel import run_row_ranges
from ..._pickling import stamped, unstamped
from ..._validation import check_flag, check_scalar, check_X
from ...exceptions import warn_caller
from .metrics import as_metric

__all__ = ["MAX_RADIUS_MATCHES", "NeighborIndex", "prepare_rows", "without_self"]

#: The most matches one `NeighborIndex.query_radius` call returns, all queries
#: together (about 1 GiB of indices and distances); a larger answer is refused.
MAX_RADIUS_MATCHES = 1 << 26


class NeighborIndex:
    """Base class of the search structures (not an estimator: it has no ``fit``)."""

    def __init__(self, X, metric="euclidean", p=2, metric_params=None):
        X = check_X(X)
        self._metric = as_metric(metric, p, metric_params, n_features=X.shape[1])
        self.metric = self._metric.name
        self.p = self._metric.given_p
        self.metric_params = self._metric.metric_params
        # Own a private copy: the caller may change X afterwards.
        prepared = self._prepare(X)
        if prepared is X:
            prepared = prepared.copy()
        self._data = np.ascontiguousarray(prepared)

    @property
    def n_samples(self):
        """Number of training samples."""
        return self._data.shape[0]

    @property
    def n_features(self):
        """Number of features of the training samples."""
        return self._data.shape[1]

    @property
    def dtype(self):
        """The training data's dtype: float32 or float64."""
        return self._data.dtype

    def _check_query(self, X, checked=False):
        """``X`` validated (unless ``checked``: `check_X` passed already), cast to
        the index's dtype and prepared for its metric."""
        X = X if checked else check_X(X, min_samples=0)
        if X.shape[1] != self.n_features:
            raise ValueError(
                f"X has {X.shape[1]} features, but the index was built on "
                f"{self.n_features} features."
            )
        return np.ascontiguousarray(self._prepare(X.astype(self.dtype, copy=False)))

    def _prepare(self, X):
        return prepare_rows(self._metric, X)

    def _check_k(self, k):
        check_scalar(k, "k", numbers.Integral, low=1)
        if k > self.n_samples:
            raise ValueError(
                f"k={k} neighbours were asked for, but the index holds only "
                f"{self.n_samples} training sample(s); k must be <= {self.n_samples}."
            )
        return int(k)

    def query(
        self,
        X,
        k=1,
        return_distance=True,
        return_counts=False,
        n_jobs=None,
        **scipy_options,
    ):
        """Find the ``k`` nearest training samples of each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features) or (n_features,)
            Query points (zero rows allowed).  Cast to the training data's dtype.
            One point as a 1-D array is answered as SciPy's ``cKDTree.query``
            answers it: with ``k=1`` a distance and an index, else 1-D arrays.
        k : int, default=1
            Number of neighbours, ``1 <= k <= n_samples``.
        return_distance : bool, default=True
            Also return the distances.
        return_counts : bool, default=False
            Also return, per query, the number of distance evaluations made (to
            samples and, in a tree, to node means); brute force makes ``n_samples``
            (1 for a query it looks up, see `BruteForce`).
        n_jobs : int, default=None
            Threads over ranges of query rows; ``-1`` uses every core.

        Returns
        -------
        distances : ndarray of shape (n_queries, k)
            Distances to the neighbours, ascending (only when ``return_distance``).
        indices : ndarray of shape (n_queries, k), dtype intp
            Training-set indices of the neighbours.  Equal distances are ordered by
            the lower training index first, whatever the search method.
        counts : ndarray of shape (n_queries,), dtype intp
            Distance evaluations per query (only when ``return_counts``).

        Other Parameters
        ----------------
        **scipy_options
            ``cKDTree.query``'s ``workers``, ``p``, ``eps`` and
            ``distance_upper_bound`` raise a TypeError naming patrec's equivalent.
        """
        _refuse_scipy_options("query", scipy_options)
        X, single = self._one_point(X)
        if not single and k == 1:
            self._warn_of_the_shape()
        distances, indices, counts = self._query(X, k, n_jobs, count=return_counts)
        if single:
            pick = 0 if k == 1 else slice(None)  # (cKDTree: scalars when k == 1)
            distances, indices = distances[0, pick], indices[0, pick]
            counts = None if counts is None else counts[0]
        result = (distances, indices) if return_distance else (indices,)
        if return_counts:
            result += (counts,)
        return result[0] if len(result) == 1 else result

    def _used_as_ckdtree(self):
        """Note that a name only SciPy's ``cKDTree`` has was used: this index's
        caller may expect cKDTree's shapes from `query`."""
        self.__dict__.setdefault("_ckdtree_user", True)

    def _warn_of_the_shape(self):
        """Warn, once per index, a caller who used cKDTree's names that `query`
        answers 2-D queries with ``k=1`` in scikit-learn's shape, not in cKDTree's
        (for ``k > 1`` the two agree)."""
        if self.__dict__.get("_ckdtree_user") is not True:
            return
        self._ckdtree_user = "warned"
        warn_caller(
            f"{type(self).__name__}.query answers 2-D queries with arrays of shape "
            "(n_queries, k), k=1 included, as scikit-learn's KDTree does; SciPy's "
            "cKDTree.query returns shape (n_queries,) for k=1. Take "
            "distances[:, 0] and indices[:, 0] for cKDTree's shape (this index was "
            "used with cKDTree's names, so this is said once).",
            UserWarning,
        )

    def _one_point(self, X):
        """``(X, single)``: a 1-D ``X`` is one point (as in SciPy), made a row."""
        if np.ndim(X) != 1:
            return X, False
        if len(X) != self.n_features:
            raise ValueError(
                f"A 1-D query is one point, but it has {len(X)} coordinates and the "
                f"index has {self.n_features} features; for {len(X)} points of one "
                "feature pass X.reshape(-1, 1)."
            )
        return np.asarray(X)[None, :], True

    def _query(self, X, k, n_jobs, count=False, training=False, checked=False):
        """Validated k-NN search: (distances, indices, evaluations or None).

        With ``training=True`` (and ``X=None``) the queries are the training samples
        themselves, each of which finds itself among its neighbours; ``checked``:
        ``X`` passed `check_X` already (an estimator's own validation).
        """
        X = self._training_rows() if training else self._check_query(X, checked)
        return self._search_all(X, self._check_k(k), n_jobs, count)

    def _search_all(self, X, k, n_jobs, count):
        """Search prepared queries ``X`` on ``n_jobs`` threads: (distances, indices,
        evaluations or None)."""
        distances = np.empty((X.shape[0], k), dtype=self.dtype)
        indices = np.empty((X.shape[0], k), dtype=np.intp)
        evaluations = np.zeros(X.shape[0], dtype=np.intp) if count else None
        self._search_rows(X, distances, indices, evaluations, n_jobs)
        # overflow or underflow: a clear error, not ties (rows ascend: their last
        # entries will do for the one, their first for the other)
        self._metric.check_finite(distances[:, -1])
        self._metric.check_resolved(
            distances,
            lambda rows, columns: (
                X[rows] == self._rows_of(indices[rows, columns])
            ).all(axis=1),
            ascending=True,
        )
        return self._metric.finish(distances), indices, evaluations

    def query_others(self, k, n_jobs=None):
        """The ``k`` nearest *other* training samples of every training sample.

        Each sample is searched among all training samples and then dropped from its
        own neighbours; should ``k + 1`` duplicates of it with lower indices hide it,
        the farthest of the ``k + 1`` is dropped instead, so exactly ``k`` remain.

        Returns
        -------
        distances : ndarray of shape (n_samples, k)
        indices : ndarray of shape (n_samples, k), dtype intp
        """
        check_scalar(k, "k", numbers.Integral, low=1)
        if k >= self.n_samples:
            raise ValueError(
                f"{k} neighbours of each training sample were asked for, but only "
                f"{self.n_samples - 1} other training samples exist."
            )
        distances, indices, _ = self._query(None, k + 1, n_jobs, training=True)
        return without_self(distances, indices)

    def query_radius(
        self, X, r, return_distance=False, return_counts=False, n_jobs=None
    ):
        """Find every training sample within distance ``r`` of each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features) or (n_features,)
            Query points; one point as a 1-D array gets its arrays, not arrays of
            them.
        r : float
            The radius, ``r >= 0``, in the metric's own units (a squared distance
            for ``sqeuclidean``); the samples whose reported distance is ``<= r``
            are returned.
        return_distance : bool, default=False
            Also return the distances.
        return_counts : bool, default=False
            Also return the number of distance evaluations per query.
        n_jobs : int, default=None
            Threads over ranges of query rows.

        Returns
        -------
        indices : ndarray of shape (n_queries,), dtype object
            Per query, an intp array of training indices sorted by distance, then
            index.  A call whose queries hold more than ``MAX_RADIUS_MATCHES``
            (67 108 864) matches together raises a ValueError as soon as the search
            meets the one past it, before it fills the memory: query fewer points
            per call.
        distances : ndarray of shape (n_queries,), dtype object
            Per query, the matching distances (only when ``return_distance``).
        counts : ndarray of shape (n_queries,), dtype intp
            Distance evaluations per query (only when ``return_counts``).
        """
        X, single = self._one_point(X)
        X = self._check_query(X)
        r = float(check_scalar(r, "r", numbers.Real, low=0))
        indices, distances, evaluations = self._radius(X, r, n_jobs, return_distance)
        result = (indices,)
        if return_distance:
            result += (distances,)
        if return_counts:
            result += (evaluations,)
        if single:
            result = tuple(part[0] for part in result)
        return result[0] if len(result) == 1 else result

    def query_radius_others(self, r, n_jobs=None):
        """Every *other* training sample within distance ``r`` of each training
        sample (a duplicate of it included): `query_radius` of the training set,
        each sample left out of its own answer.

        Returns
        -------
        indices, distances : ndarray of shape (n_samples,), dtype object
            As `query_radius` returns them.
        """
        r = float(check_scalar(r, "r", numbers.Real, low=0))
        indices, distances, _ = self._radius(self._training_rows(), r, n_jobs, True)
        for row in range(len(indices)):
            keep = indices[row] != row
            indices[row], distances[row] = indices[row][keep], distances[row][keep]
        return indices, distances

    def _radius(self, X, r, n_jobs, return_distance):
        """`query_radius` of prepared queries ``X``: (indices, distances or None
        unless ``return_distance``, evaluations)."""
        n_queries = X.shape[0]
        found = np.zeros(n_queries, dtype=np.intp)
        evaluations = np.zeros(n_queries, dtype=np.intp)
        pieces = {}

        def rows(start, stop):
            pieces[start] = self._within(
                X[start:stop],
                r,
                found[start:stop],
                evaluations[start:stop],
                MAX_RADIUS_MATCHES,
            )

        run_row_ranges(rows, n_queries, n_jobs)
        if any(piece is None for piece in pieces.values()) or (
            found.sum() > MAX_RADIUS_MATCHES
        ):
            raise ValueError(
                f"The radius r={r!r} holds more than {MAX_RADIUS_MATCHES:,} "
                f"training samples for these {n_queries} queries together: an "
                "answer that large (over a gigabyte) is refused before it fills the "
                "memory. Use a smaller radius, or query fewer points per call."
            )
        all_indices = np.concatenate([pieces[s][0] for s in sorted(pieces)] or [[]])
        all_reduced = np.concatenate([pieces[s][1] for s in sorted(pieces)] or [[]])
        self._metric.check_finite(all_reduced, dtype=self.dtype)
        self._metric.check_resolved(
            all_reduced[:, None],
            lambda matches, _: (
                X[np.repeat(np.arange(n_queries), found)[matches]]
                == self._rows_of(all_indices[matches].astype(np.intp))
            ).all(axis=1),
            dtype=self.dtype,
        )
        splits = np.cumsum(found)[:-1]
        distances = None
        if return_distance:
            finished = self._metric.finish(all_reduced.astype(self.dtype)[None, :])[0]
            distances = _object_array(np.split(finished, splits), n_queries)
        return (
            _object_array(np.split(all_indices.astype(np.intp), splits), n_queries),
            distances,
            evaluations,
        )

    def query_ball_point(
        self, x, r, p=None, eps=0, workers=None, return_sorted=None, return_length=False
    ):
        """SciPy's ``cKDTree.query_ball_point``: the indices of the training samples
        within distance ``r`` of each point, in increasing order.

        Parameters
        ----------
        x : array-like of shape (n_queries, n_features) or (n_features,)
            The points; one point as a 1-D array gets one list.
        r : float
            The radius, ``r >= 0`` (one radius for all points).
        p : float, default=None
            Must be None or the index's own Minkowski order: the metric is chosen
            when the index is built (``metric="minkowski", p=...``).
        eps : float, default=0
            Must be 0: patrec's searches are exact.
        workers : int, default=None
            Threads over ranges of points (``n_jobs`` elsewhere in patrec).
        return_sorted : bool, default=None
            The indices are always returned in increasing order, whatever it says.
        return_length : bool, default=False
            Return the number of samples within the radius instead of the indices.

        Returns
        -------
        result : list of int, ndarray of lists, int or ndarray of int
            As ``cKDTree.query_ball_point`` returns it.  `query_radius` gives the
            same samples sorted by distance, with the distances.
        """
        self._used_as_ckdtree()
        if p is not None and float(p) != self._metric.p:
            raise ValueError(
                f"p={p!r}: the metric is fixed when the index is built; build it with "
                f"metric='minkowski', p={p!r} (this one uses {self._metric!r})."
            )
        if eps != 0:
            raise ValueError(
                f"eps={eps!r}: patrec's searches are exact; eps must be 0."
            )
        if return_sorted is not None:
            check_flag(return_sorted, "return_sorted")
        return_length = check_flag(return_length, "return_length")
        found = self.query_radius(x, r, n_jobs=workers)
        if np.ndim(x) == 1:
            return len(found) if return_length else sorted(found.tolist())
        if return_length:
            return np.array([len(row) for row in found], dtype=np.intp)
        return _object_array([sorted(row.tolist()) for row in found], len(found))

    # -- scipy cKDTree's names ---------------------------------------------------

    @property
    def n(self):
        """The number of training samples (``cKDTree.n``; `n_samples`)."""
        self._used_as_ckdtree()
        return self.n_samples

    @property
    def m(self):
        """The number of features (``cKDTree.m``; `n_features`)."""
        self._used_as_ckdtree()
        return self.n_features

    @property
    def data(self):
        """The training samples in their order, read-only (``cKDTree.data``), in the
        training dtype.  Not kept for ``metric="mahalanobis"``, whose index holds the
        samples mapped by the metric."""
        if self._metric.transform is not None:
            raise AttributeError(
                "data: a mahalanobis index holds the samples mapped by the metric, "
                "not the samples themselves; keep your own copy of X."
            )
        if getattr(self, "_data_view", None) is None:
            self._data_view = self._training_rows().view()
            self._data_view.flags.writeable = False
        return self._data_view

    def _within(self, X, r, found, evaluations, max_found):
        """The training samples within distance ``r`` of prepared queries ``X``:
        ``(indices, reduced)``, the matches of all queries concatenated, each
        query's sorted by (distance, index); fills ``found`` (matches per query) and
        ``evaluations`` (distance evaluations per query).  None, as soon as it is
        known, when there are more than ``max_found`` matches."""
        raise NotImplementedError

    def _training_rows(self):
        """The prepared training samples in their original order."""
        return self._data

    def _rows_of(self, indices):
        """The prepared training samples of the (original) ``indices``."""
        return self._data[indices]

    def _search_rows(self, X, distances, indices, evaluations, n_jobs):
        """Fill the outputs of `_kneighbors` for prepared queries ``X`` on ``n_jobs``
        threads, each taking ranges of consecutive queries.

        An index that searches a batch in an order of its own (`_search_order`) gets
        the whole batch in that order first, so that each range is as compact a
        region as the whole batch is on one thread (ordered range by range, the
        ranges of scattered queries overlap: sixteen such ranges searched one after
        the other measured 3-12% slower than the whole batch, in 3 to 16
        dimensions, and two threads gained 1.70 on the tree in 8 dimensions, where
        they gain 1.88-2.00 now).
        """
        order = self._search_order(X)
        if order is None:

            def rows(start, stop):
                self._kneighbors(
                    X[start:stop],
                    distances[start:stop],
                    indices[start:stop],
                    None if evaluations is None else evaluations[start:stop],
                )

        else:
            ordered = X.take(order, axis=0)

            def rows(start, stop):
                self._kneighbors(
                    ordered[start:stop],
                    distances,
                    indices,
                    evaluations,
                    order[start:stop],
                )

        run_row_ranges(rows, X.shape[0], n_jobs)

    def _search_order(self, X):
        """The order in which to search the batch of queries ``X``, or None: as
        given."""
        return None

    def _kneighbors(self, X, distances, indices, evaluations, rows=None):
        """Fill ``distances`` (reduced) and ``indices`` for prepared queries ``X``,
        and ``evaluations`` (the distance evaluations per query) unless it is None.

        With ``rows`` (given only where `_search_order` is not None) query i is
        answered in row ``rows[i]`` of the outputs, else in row i.
        """
        raise NotImplementedError

    def __getstate__(self):
        state = stamped(self.__dict__)
        state.pop("_data_view", None)  # (made again on demand)
        return state

    def __setstate__(self, state):
        self.__dict__.update(unstamped(state, type(self).__name__))


# cKDTree.query's options and what patrec has instead
_SCIPY_EQUIVALENTS = {
    "workers": "n_jobs= (threads over the queries)",
    "p": "the metric chosen when the index is built (metric='minkowski', p=...)",
    "eps": "nothing: patrec's searches are exact",
    "distance_upper_bound": "query_radius(X, r) for the samples within a distance",
}


def _refuse_scipy_options(method, options):
    """A TypeError naming patrec's equivalent of each of SciPy's options given."""
    if not options:
        return
    lines = [
        f"{name}: {_SCIPY_EQUIVALENTS[name]}"
        if name in _SCIPY_EQUIVALENTS
        else f"{name}: no such parameter"
        for name in options
    ]
    raise TypeError(
        f"{method}() got unexpected keyword argument(s) {sorted(options)}; in patrec: "
        + "; ".join(lines)
        + "."
    )


def _object_array(parts, n_rows):
    """A 1-D object array holding one array per query."""
    out = np.empty(n_rows, dtype=object)
    for row in range(n_rows):
        out[row] = parts[row]
    return out


def prepare_rows(metric, X):
    """Rows of ``X`` mapped for the kernels of `Metric` ``metric`` (only mahalanobis
    moves them); a clear error when the map overflows."""
    if metric.transform is None:
        return X
    with np.errstate(over="ignore", invalid="ignore"):
        mapped = metric.prepare(X)
    if not np.isfinite(mapped).all():
        raise ValueError(
            f"Mapping the data for the {metric.name} distance overflows "
            f"{mapped.dtype}: the data values (or VI) are too large. Rescale the "
            "data first."
        )
    return mapped


def without_self(distances, indices):
    """Drop each row's own index (row i: index i) from its k + 1 neighbours; where
    duplicates with lower indices hid it, drop the farthest instead."""
    k = indices.shape[1] - 1
    itself = indices == np.arange(len(indices))[:, None]
    itself[~itself.any(axis=1), -1] = True
    keep = ~itself
    return distances[keep].reshape(-1, k), indices[keep].reshape(-1, k)

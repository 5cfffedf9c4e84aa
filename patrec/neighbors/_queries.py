"""The neighbour queries of a fitted estimator, in scikit-learn's shapes.

`KNeighborsMixin` gives ``kneighbors`` and ``kneighbors_graph``,
`RadiusNeighborsMixin` gives ``radius_neighbors`` and ``radius_neighbors_graph``, to
an estimator whose ``fit`` built ``self._index`` (a `BruteForce` or
`BranchBoundTree`) over its ``n_samples_fit_`` training samples.  ``X=None`` means
the training samples, each left out of its own neighbours (a duplicate of it stays),
as in scikit-learn.

`check_search_params` checks the parameters of the search an estimator of this
chapter shares, without data.
"""

import numbers

import numpy as np

from .._progress import check_verbose
from .._validation import check_flag, check_option, check_scalar
from .search._auto import resolve_algorithm
from .search.metrics import canonical_metric

__all__ = ["KNeighborsMixin", "RadiusNeighborsMixin", "check_search_params"]

_MODES = ("connectivity", "distance")


def check_search_params(estimator):
    """The parameters of the search that an estimator of this chapter shares
    (``n_neighbors``, ``algorithm``, ``leaf_size``, ``metric``, ``verbose``),
    checked without data; returns `resolve_algorithm`'s ``(search, tree_params)``."""
    check_scalar(estimator.n_neighbors, "n_neighbors", numbers.Integral, low=1)
    search, tree_params = resolve_algorithm(estimator.algorithm)
    if estimator.leaf_size is not None:
        check_scalar(estimator.leaf_size, "leaf_size", numbers.Integral, low=1)
        tree_params["leaf_size"] = estimator.leaf_size
    check_verbose(estimator.verbose)
    canonical_metric(estimator.metric)
    return search, tree_params


def _graph(indices, distances, n_columns, mode):
    """A CSR matrix with row i holding ``distances[i]`` (or ones) at columns
    ``indices[i]``: a list of per-row arrays, or a 2-D array."""
    from scipy.sparse import csr_matrix  # (SciPy is imported only for graphs)

    check_option(mode, "mode", _MODES)
    counts = np.array([len(row) for row in indices], dtype=np.intp)
    columns = np.concatenate([np.asarray(row, np.intp) for row in indices] or [[]])
    if mode == "distance":
        values = np.concatenate(
            [np.asarray(row, np.float64) for row in distances] or [[]]
        )
    else:
        values = np.ones(len(columns))
    pointers = np.concatenate([[0], np.cumsum(counts)])
    return csr_matrix(
        (values, columns.astype(np.intp), pointers), shape=(len(indices), n_columns)
    )


class KNeighborsMixin:
    """``kneighbors`` and ``kneighbors_graph`` over the fitted ``self._index``."""

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """The nearest training samples of each query.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), default=None
            Queries.  None means the training samples, each without itself (a
            duplicate of it is still returned).
        n_neighbors : int, default=None
            Number of neighbours; ``self.n_neighbors`` when None.
        return_distance : bool, default=True
            Also return the distances.

        Returns
        -------
        distances : ndarray of shape (n_queries, n_neighbors)
            Ascending (only when ``return_distance``).
        indices : ndarray of shape (n_queries, n_neighbors)
            Training indices; equal distances in the order of the training index.
        """
        self._check_is_fitted()
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        check_scalar(k, "n_neighbors", numbers.Integral, low=1)
        return_distance = check_flag(return_distance, "return_distance")
        if X is None:
            if k >= self.n_samples_fit_:
                raise ValueError(
                    f"n_neighbors={k} neighbours of each training sample were asked "
                    f"for, but only {self.n_samples_fit_ - 1} other training samples "
                    "exist."
                )
            distances, indices = self._index.query_others(k, self.n_jobs)
        else:
            X = self._validate_X(X, min_samples=0)
            distances, indices, _ = self._index._query(X, k, self.n_jobs, checked=True)
        return (distances, indices) if return_distance else indices

    def kneighbors_graph(self, X=None, n_neighbors=None, mode="connectivity"):
        """The k-neighbours graph: a sparse matrix with, in row i, the
        ``n_neighbors`` nearest training samples of query i.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), default=None
            Queries; None means the training samples, each without itself.
        n_neighbors : int, default=None
            ``self.n_neighbors`` when None.
        mode : {"connectivity", "distance"}, default="connectivity"
            Ones, or the distances, at the neighbours' columns.

        Returns
        -------
        graph : scipy.sparse.csr_matrix of shape (n_queries, ``n_samples_fit_``)
        """
        check_option(mode, "mode", _MODES)
        distances, indices = self.kneighbors(X, n_neighbors, return_distance=True)
        return _graph(indices, distances, self.n_samples_fit_, mode)


class RadiusNeighborsMixin:
    """``radius_neighbors`` and ``radius_neighbors_graph`` over ``self._index``,
    with the default radius ``self.radius``."""

    def radius_neighbors(
        self, X=None, radius=None, return_distance=True, sort_results=False
    ):
        """The training samples within distance ``radius`` of each query.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), default=None
            Queries; None means the training samples, each without itself.
        radius : float, default=None
            ``self.radius`` when None; the samples at distance ``<= radius`` are
            returned.
        return_distance : bool, default=True
            Also return the distances.
        sort_results : bool, default=False
            Checked as in scikit-learn (it needs ``return_distance``); the results
            are always sorted by distance, then training index.

        Returns
        -------
        distances : ndarray of shape (n_queries,), dtype object
            Per query, its neighbours' distances (only when ``return_distance``).
        indices : ndarray of shape (n_queries,), dtype object
            Per query, its neighbours' training indices.
        """
        self._check_is_fitted()
        r = self.radius if radius is None else radius
        check_scalar(r, "radius", numbers.Real, low=0)
        return_distance = check_flag(return_distance, "return_distance")
        if check_flag(sort_results, "sort_results") and not return_distance:
            raise ValueError("return_distance must be True if sort_results is True.")
        if X is None:
            indices, distances = self._index.query_radius_others(r, self.n_jobs)
        else:
            X = self._validate_X(X, min_samples=0)
            indices, distances = self._index.query_radius(
                X, r, return_distance=True, n_jobs=self.n_jobs
            )
        return (distances, indices) if return_distance else indices

    def radius_neighbors_graph(
        self, X=None, radius=None, mode="connectivity", sort_results=False
    ):
        """The radius-neighbours graph: a sparse matrix with, in row i, the training
        samples within ``radius`` of query i.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), default=None
            Queries; None means the training samples, each without itself.
        radius : float, default=None
            ``self.radius`` when None.
        mode : {"connectivity", "distance"}, default="connectivity"
            Ones, or the distances, at the neighbours' columns.
        sort_results : bool, default=False
            As in `radius_neighbors`.

        Returns
        -------
        graph : scipy.sparse.csr_matrix of shape (n_queries, ``n_samples_fit_``)
        """
        check_option(mode, "mode", _MODES)
        distances, indices = self.radius_neighbors(
            X, radius, return_distance=True, sort_results=sort_results
        )
        return _graph(indices, distances, self.n_samples_fit_, mode)

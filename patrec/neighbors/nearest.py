"""Unsupervised nearest neighbours: scikit-learn's ``NearestNeighbors``, exact.

``fit(X)`` builds the search (brute force or the branch-and-bound tree, chosen as the
k-NN classifier chooses); ``kneighbors`` and ``radius_neighbors`` answer in
scikit-learn's shapes, and their ``_graph`` forms as sparse matrices.
"""

import numbers

from .._validation import check_scalar, check_X, feature_names_of
from ..base import BaseEstimator
from ._queries import KNeighborsMixin, RadiusNeighborsMixin, check_search_params
from .search._auto import build_index

__all__ = ["NearestNeighbors"]


class NearestNeighbors(KNeighborsMixin, RadiusNeighborsMixin, BaseEstimator):
    """The k nearest, or all within a radius, of each query among the fitted samples.

    Parameters
    ----------
    n_neighbors : int, default=5
        The default number of neighbours of `kneighbors`.
    radius : float, default=1.0
        The default radius of `radius_neighbors`.
    algorithm : {"auto", "brute", "bnb", "kd_tree", "ball_tree"}, default="auto"
        ``"brute"``: `BruteForce`; ``"bnb"`` and ``"kd_tree"``: `BranchBoundTree`
        with its k-d partition; ``"ball_tree"``: `BranchBoundTree` with its k-means
        partition (each node a ball, its mean and radius); ``"auto"``: as
        `KNeighborsClassifier` chooses.  Every search is exact: the answers do not
        depend on it.
    leaf_size : int, default=None
        The most samples in a leaf of the tree (None: the tree's default).
    metric : str, default="minkowski"
        One of `patrec.neighbors.METRICS`; with ``p=2`` the euclidean distance.
    p : float, default=2
        Minkowski order, ``p >= 1``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    n_jobs : int, default=None
        Threads used by the searches (``-1``: all cores).
    verbose : int or bool, default=0
        Progress of the tree's construction on standard error.

    Attributes
    ----------
    fit_algorithm_ : str
        The search in use: ``"brute"`` or ``"bnb"``.
    n_samples_fit_ : int
        Number of samples fitted.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Column names, when ``X`` was a data frame with string column names.

    Notes
    -----
    Differences from scikit-learn: equal distances are ordered by the lower
    training index; `radius_neighbors` always sorts each query's neighbours by
    distance (then index), whatever ``sort_results`` says; distances keep the
    training data's dtype (float32 data, float32 distances).  ``leaf_size``
    defaults to the tree's own measured best, not 30; it never changes an answer.

    Cost: ``fit`` stores the samples (and builds the tree, O(N log N)); a query
    costs one exact search.

    See Also
    --------
    KNeighborsClassifier : the k-NN rule on the same searches.

    Examples
    --------
    >>> from patrec import NearestNeighbors
    >>> X = [[0.0], [1.0], [3.0], [3.5]]
    >>> nn = NearestNeighbors(n_neighbors=2).fit(X)
    >>> nn.kneighbors([[2.9]])
    (array([[0.1, 0.6]]), array([[2, 3]]))
    >>> nn.kneighbors(n_neighbors=1)[1].ravel()  # each sample without itself
    array([1, 0, 3, 2])
    >>> nn.radius_neighbors_graph(radius=1.0).toarray()
    array([[0., 1., 0., 0.],
           [1., 0., 0., 0.],
           [0., 0., 0., 1.],
           [0., 0., 1., 0.]])
    """

    def __init__(
        self,
        n_neighbors=5,
        radius=1.0,
        algorithm="auto",
        leaf_size=None,
        metric="minkowski",
        p=2,
        metric_params=None,
        n_jobs=None,
        verbose=0,
    ):
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _validate_params(self):
        check_scalar(self.radius, "radius", numbers.Real, low=0)
        return check_search_params(self)

    def fit(self, X, y=None):
        """Build the search over ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored: there for pipelines (the rule has no labels).

        Returns
        -------
        self : object
        """
        search, tree_params = self._validate_params()
        names = feature_names_of(X)
        X = check_X(X, estimator=self)
        with self._fit_transaction() as model:
            model._start_fit(X, names)
            model._index, model.fit_algorithm_ = build_index(
                X,
                self.metric,
                self.p,
                self.metric_params,
                search,
                k=min(self.n_neighbors, X.shape[0]),
                verbose=self.verbose,
                **tree_params,
            )
            model.n_samples_fit_ = X.shape[0]
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = True
        return tags

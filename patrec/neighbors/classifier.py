"""The k-nearest-neighbour classifier.

The k training samples nearest to x vote; class omega_i receives k_i votes (or the
sum of its neighbours' weights) and x goes to the class with the most.  With k = 1
this is the nearest-neighbour rule, whose asymptotic error is at most twice the Bayes
error (see `patrec.neighbors.bounds`).

The neighbours are found exactly, by brute force or by the Fukunaga–Narendra
branch-and-bound tree; both give the same neighbours in the same order, so the
choice only changes the speed.
"""

import numbers
import time

import numpy as np

from .._progress import Reporter
from .._validation import check_option, check_scalar, plain
from ..base import BaseEstimator, ClassifierMixin
from ._queries import KNeighborsMixin, check_search_params
from ._voting import count_votes
from .search._auto import build_index, choose_algorithm  # noqa: F401 (documented here)

__all__ = ["KNeighborsClassifier"]

WEIGHTS = ("uniform", "distance")

# Queries are classified in chunks of this many rows, so that the neighbour arrays
# of a huge query set are never all held at once.
_CHUNK_ROWS = 16384


class KNeighborsClassifier(KNeighborsMixin, ClassifierMixin, BaseEstimator):
    """Classify by a vote of the k nearest training samples.

    Parameters
    ----------
    n_neighbors : int, default=5
        The number k of neighbours that vote.
    weights : {"uniform", "distance"}, callable or None, default="uniform"
        ``"uniform"`` (or None, scikit-learn's other spelling): one vote per
        neighbour.  ``"distance"``: a neighbour at
        distance d votes 1 / d (neighbours at distance 0, if any, share all the
        weight).  A callable receives the distances, an array of shape
        (n_queries, k), and returns finite weights >= 0 of the same shape; a query
        whose neighbours all get weight 0 has no vote and raises a ValueError, as
        in scikit-learn.
    algorithm : {"auto", "brute", "bnb", "kd_tree", "ball_tree"}, default="auto"
        ``"brute"``: `BruteForce`.  ``"bnb"``: `BranchBoundTree`; scikit-learn's
        ``"kd_tree"`` and ``"ball_tree"`` are its k-d and k-means partitions (a
        k-means node is a ball: its mean and radius).  ``"auto"``: the
        faster of the two by a measured cost model that looks at the data (a small
        probe counts how much a tree prunes on them; see
        `patrec.neighbors.search.choose_algorithm`): the
        tree in low dimension, on clusters and on data of low intrinsic dimension,
        brute force for spread-out data in many dimensions.  All three return the same predictions.
    metric : str, default="minkowski"
        One of `patrec.neighbors.METRICS`, scikit-learn's aliases ``"manhattan"``,
        ``"l1"`` and ``"l2"`` included.  The default, ``"minkowski"`` with ``p=2``, is
        the euclidean distance, as in scikit-learn.
    p : float, default=2
        Minkowski order (``p >= 1``; 1 is the cityblock distance, 2 the euclidean,
        ``np.inf`` the chebyshev).  Used only with ``metric="minkowski"``; any
        other metric ignores a valid ``p``, as scikit-learn does, and refuses an
        invalid one.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    leaf_size : int, default=None
        The largest number of samples in a leaf of the branch-and-bound tree
        (`BranchBoundTree`; None: the tree's default, 32 samples, measured
        fastest).  It changes the speed, never the answers; brute force has no
        leaves and does not use it.
    reject_threshold : float, default=None
        Reject option: when the winning class's share of the vote (its
        ``predict_proba`` value) is below this threshold, ``predict`` returns
        ``reject_label`` instead of a class.  None (or 0) never rejects.
    reject_label : object, default=None
        The label ``predict`` returns for a rejected sample; it may not be one of the
        classes.  None means ``-1`` when the classes are numbers and ``"reject"``
        when they are strings, so that ``predict`` returns an array of one type (the
        label in use is ``reject_label_``).  A label whose type does not fit the
        classes' (a number among strings) makes ``predict`` return an object array.
    n_jobs : int, default=None
        Threads used by the neighbour search (``-1``: all cores).
    verbose : int or bool, default=0
        Progress on standard error: 1 reports the tree built by ``fit`` and, after
        each ``predict``/``predict_proba``, how many queries were classified, in how
        long and with how many distance evaluations per query; 2 adds a line per
        block of 16384 queries (and per tree level).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    fit_algorithm_ : str
        The search method in use: ``"brute"`` or ``"bnb"``.
    reject_label_ : object
        The label given to rejected samples (only with ``reject_threshold``).
    n_samples_fit_ : int
        Number of training samples.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Column names, when ``X`` was a data frame with string column names.

    Notes
    -----
    Ties.  Neighbours at equal distance are taken in the order of their training
    index (lower first), so which k samples vote is always determined.  When two or
    more classes receive the same (largest) vote, ``predict`` returns the one that
    comes first in ``classes_``, which is also the first maximum of
    ``predict_proba``.

    Cost.  ``fit`` stores the samples (and builds the tree for ``"bnb"``);
    ``predict`` costs one k-nearest-neighbour search per query.  Queries are handled
    in chunks of 16384 rows, so memory stays bounded for any number of queries.

    References
    ----------
    .. [1] T. M. Cover and P. E. Hart, "Nearest neighbor pattern classification",
       IEEE Transactions on Information Theory, 13(1), 21–27, 1967.
    .. [2] R. O. Duda, P. E. Hart and D. G. Stork, *Pattern Classification*, 2nd ed.,
       Wiley, 2001, section 4.5.

    Examples
    --------
    >>> from patrec import KNeighborsClassifier
    >>> X = [[0, 0], [0, 1], [1, 0], [5, 5], [5, 6], [6, 5]]
    >>> y = ["a", "a", "a", "b", "b", "b"]
    >>> clf = KNeighborsClassifier(n_neighbors=3).fit(X, y)
    >>> clf.predict([[1, 1], [4, 4]])
    array(['a', 'b'], dtype='<U1')

    At (3, 3) the nearest sample is (5, 5); four samples tie for second place at
    distance sqrt(13), and the two with the lower training indices, both "a", vote:

    >>> clf.predict_proba([[3, 3]])
    array([[0.66666667, 0.33333333]])
    """

    _compact_codes = True  # the class codes are kept, in the smallest integer type

    def __init__(
        self,
        n_neighbors=5,
        weights="uniform",
        algorithm="auto",
        metric="minkowski",
        p=2,
        metric_params=None,
        leaf_size=None,
        reject_threshold=None,
        reject_label=None,
        n_jobs=None,
        verbose=0,
    ):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.leaf_size = leaf_size
        self.reject_threshold = reject_threshold
        self.reject_label = reject_label
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _validate_params(self):
        if not callable(self.weights) and self.weights is not None:
            check_option(self.weights, "weights", WEIGHTS)
        return check_search_params(self)

    def _fit(self, X, codes):
        search, tree_params = self._validate_params()
        if self.reject_threshold is not None:
            self.reject_label_ = self._reject_option()[1]
        self._index, algorithm = build_index(
            X,
            self.metric,
            self.p,
            self.metric_params,
            search,
            k=self.n_neighbors,
            verbose=self.verbose,
            **tree_params,
        )
        self._codes = codes
        self.fit_algorithm_ = algorithm
        self.n_samples_fit_ = X.shape[0]

    def predict_proba(self, X):
        """Each class's share of the (weighted) vote of the k nearest neighbours.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or None
            The queries.  None means the training samples, each voted on by its
            ``n_neighbors`` nearest others (itself left out, a duplicate of it
            kept): leave-one-out, as in scikit-learn.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Rows sum to one; columns follow ``classes_``.
        """
        if X is None:
            return self._votes(*self.kneighbors(), len(self.classes_))
        X = self._validate_X(X)
        k = self.n_neighbors
        n_classes = len(self.classes_)
        log = Reporter(type(self).__name__, self.verbose)
        started, evaluations = time.perf_counter(), 0
        proba = np.empty((X.shape[0], n_classes), dtype=np.float64)
        for start in range(0, X.shape[0], _CHUNK_ROWS):
            stop = min(start + _CHUNK_ROWS, X.shape[0])
            distances, indices, counts = self._index._query(
                X[start:stop], k, self.n_jobs, count=bool(log), checked=True
            )
            proba[start:stop] = self._votes(distances, indices, n_classes)
            if log:
                evaluations += int(counts.sum())
                log(2, f"queries {start + 1}..{stop} of {X.shape[0]} classified")
        if log:
            per_query = evaluations / max(X.shape[0], 1)
            log(
                1,
                f"{X.shape[0]} queries classified by their {k} nearest of "
                f"{self.n_samples_fit_} training samples ({self.fit_algorithm_}) in "
                f"{time.perf_counter() - started:.2f} s; {per_query:.0f} distance "
                "evaluations per query",
            )
        return proba

    def _votes(self, distances, indices, n_classes):
        votes = count_votes(
            self._codes[indices], n_classes, self._vote_weights(distances)
        )
        return votes / votes.sum(axis=1, keepdims=True)

    def _vote_weights(self, distances):
        if self.weights is None or self.weights == "uniform":
            return None
        if self.weights == "distance":
            distances = distances.astype(np.float64)
            with np.errstate(divide="ignore", over="ignore"):
                weights = 1.0 / distances
            exact = distances == 0
            hit = exact.any(axis=1)
            weights[hit] = exact[hit]  # matches at distance 0 share all the weight
            # where 1 / d overflows, the same shares as d_1 / d (d_1: the nearest)
            tiny = ~hit & np.isinf(weights).any(axis=1)
            weights[tiny] = distances[tiny, :1] / distances[tiny]
            return _summable(weights)
        weights = np.asarray(self.weights(distances), dtype=np.float64)
        if weights.shape != distances.shape:
            raise ValueError(
                f"The weights callable returned shape {weights.shape}; expected the "
                f"distances' shape {distances.shape}."
            )
        if not np.isfinite(weights).all() or (weights < 0).any():
            raise ValueError("The weights callable must return finite weights >= 0.")
        empty = np.flatnonzero(weights.max(axis=1, initial=0) == 0)
        if empty.size:
            raise ValueError(
                f"The weights callable gave every neighbour of query {empty[0]} (and "
                f"of {empty.size - 1} other(s)) weight 0, so no class gets a vote. "
                "Return a positive weight for at least one neighbour of each query "
                "(a zero weight means the neighbour does not vote)."
            )
        return _summable(weights)

    def _reject_option(self):
        """The checked ``reject_threshold`` and the label of a rejected sample.

        Both are read again by `predict`, so a threshold set after `fit` works too.
        """
        threshold = check_scalar(
            self.reject_threshold, "reject_threshold", numbers.Real, low=0, high=1
        )
        reject_label = self.reject_label
        if reject_label is None:
            text = all(
                isinstance(label, (str, bytes)) for label in self.classes_.tolist()
            )
            reject_label = "reject" if text else -1
        if any(_same_label(reject_label, label) for label in self.classes_):
            raise ValueError(
                f"reject_label={plain(reject_label)!r} is one of the classes; "
                "choose a label that no class uses (set reject_label)."
            )
        return threshold, reject_label

    def predict(self, X):
        """The class with the largest vote (first in ``classes_`` on ties).

        With ``reject_threshold`` set, samples whose winning vote share is below it
        get the reject label (``reject_label``, or its default: see the class).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or None
            The queries; None means the training samples, each without itself
            (see `predict_proba`).

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        proba = self.predict_proba(X)
        winners = np.argmax(proba, axis=1)
        labels = self.classes_[winners]
        if self.reject_threshold is None:
            return labels
        threshold, reject_label = self._reject_option()
        rejected = proba[np.arange(len(winners)), winners] < threshold
        if not rejected.any():
            return labels
        reject = np.asarray(reject_label)
        kinds = labels.dtype.kind + reject.dtype.kind
        if kinds == "UU" or all(kind in "iuf" for kind in kinds):
            dtype = np.result_type(labels.dtype, reject.dtype)
        else:  # e.g. a number among strings: keep both types as they are
            dtype = np.dtype(object)
        out = labels.astype(dtype)
        out[rejected] = reject_label
        return out


def _summable(weights):
    """``weights`` with each row whose sum overflows divided by its largest weight
    (the shares of the vote are the same); a new array then, never the given one
    changed (a weights callable's own array)."""
    with np.errstate(over="ignore"):
        overflow = ~np.isfinite(weights.sum(axis=1))
    if overflow.any():
        weights = weights.copy()
        weights[overflow] /= weights[overflow].max(axis=1, keepdims=True)
    return weights


def _same_label(a, b):
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False

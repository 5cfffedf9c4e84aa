"""The minimum-distance classifier over subclass means.

Each class omega_i is split into L_i subclasses with means m_i^1 .. m_i^{L_i}.  The
discriminant of class i is the distance to its nearest subclass mean,

    g_i(x) = min_l D(x, m_i^l),

and x is assigned to the class with the smallest g_i.  With one mean per class this is
the nearest-class-mean rule; with every training sample as its own subclass it becomes
the 1-nearest-neighbour rule.  The boundary between two subclass means is a
hyperplane (for the euclidean distance), so the decision boundary is piecewise linear.
"""

import numpy as np

from .._parallel import effective_n_jobs
from .._validation import check_class_weights, check_random_state
from ..base import (
    BaseEstimator,
    ClassifierMixin,
    WeightedFitMixin,
    decision_from_scores,
)
from ..neighbors import Metric
from ._subclasses import subclass_counts, subclass_means

__all__ = ["MinimumDistanceClassifier"]


class MinimumDistanceClassifier(WeightedFitMixin, ClassifierMixin, BaseEstimator):
    """Classify by the distance to the nearest subclass mean (prototype).

    Training finds ``n_prototypes`` subclass means in every class with k-means
    (`scipy.cluster.vq.kmeans2`, k-means++ seeding); prediction returns the class
    of the nearest prototype under ``metric``.

    Parameters
    ----------
    n_prototypes : int or dict, default=1
        Subclasses per class.  A dict maps class labels to counts (classes not in it
        get 1).  A count may not exceed the number of samples of its class.
    metric : str, default="euclidean"
        The distance D used to classify: "euclidean", "sqeuclidean", "cityblock",
        "chebyshev", "minkowski" or "mahalanobis" (see `patrec.neighbors.Metric`).  The
        prototypes are always k-means means, found in the space where the metric is
        measured (the mapped space for ``"mahalanobis"``).
    p : float, default=2
        Minkowski order, ``p >= 1``; used with ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    random_state : int, numpy Generator or None, default=None
        Seeds k-means; only used when some class has more than one prototype.
    n_jobs : int, default=None
        Threads used by ``predict``/``decision_function`` (``-1``: all cores).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    prototypes_ : ndarray of shape (n_prototypes_total, n_features)
        The subclass means, grouped by class in the order of ``classes_``.
    prototype_labels_ : ndarray of shape (n_prototypes_total,)
        The class label of each prototype.
    centroids_ : ndarray of shape (n_classes, n_features)
        The mean of each class, in the order of ``classes_`` (scikit-learn's
        ``NearestCentroid.centroids_``); ``prototypes_`` itself when
        ``n_prototypes=1``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Column names, when ``X`` was a data frame with string column names.

    Notes
    -----
    Fitting costs one k-means run per class (O(n * L * n_features) per iteration);
    prediction costs O(n_samples * n_prototypes_total * n_features).

    ``sample_weight`` gives frequency weights: sample i counts w_i times.  With one
    prototype per class it is the weighted class mean ``sum_i w_i x_i / sum_i w_i``,
    exactly the mean of the samples repeated w_i times (integer weights), and a zero
    weight is the same as leaving the sample out.  With several prototypes they come
    from weighted k-means (k-means++ seeding with chances proportional to
    ``w_i D(x_i)^2``, then Lloyd steps with weighted means, see
    ``patrec.piecewise._subclasses.weighted_kmeans``): given the same
    ``random_state`` it finds the same prototypes as weights of one on the samples
    repeated in place (``np.repeat(X, w, axis=0)``).  Fitting with weights draws its
    random numbers differently from fitting without, so with several prototypes
    ``fit(X, y)`` and ``fit(X, y, sample_weight=ones)`` may end in different k-means
    solutions.

    References
    ----------
    .. [1] R. O. Duda, P. E. Hart and D. G. Stork, *Pattern Classification*, 2nd ed.,
       Wiley, 2001, section 4.6 and problem 4.11 (minimum-distance classifiers).
    .. [2] J. T. Tou and R. C. Gonzalez, *Pattern Recognition Principles*,
       Addison-Wesley, 1974, chapter 3.

    Examples
    --------
    >>> from patrec import MinimumDistanceClassifier
    >>> X = [[0, 0], [0, 1], [5, 5], [5, 6]]
    >>> y = ["a", "a", "b", "b"]
    >>> clf = MinimumDistanceClassifier().fit(X, y)
    >>> clf.prototypes_
    array([[0. , 0.5],
           [5. , 5.5]])
    >>> clf.predict([[1, 1], [4, 4]])
    array(['a', 'b'], dtype='<U1')
    """

    _PEER_PARAMETERS = {
        "shrink_threshold": "none: the prototypes are the (subclass) means",
        "priors": "none: the nearest prototype wins, whatever the class sizes",
    }

    def __init__(
        self,
        n_prototypes=1,
        metric="euclidean",
        p=2,
        metric_params=None,
        random_state=None,
        n_jobs=None,
    ):
        self.n_prototypes = n_prototypes
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _fit(self, X, codes, sample_weight=None):
        self._metric = Metric(self.metric, self.p, self.metric_params, X.shape[1])
        effective_n_jobs(self.n_jobs)
        if sample_weight is not None:  # samples of weight zero are left out
            check_class_weights(self.classes_, codes, sample_weight)
            kept = sample_weight > 0
            X, codes, sample_weight = X[kept], codes[kept], sample_weight[kept]
        counts = subclass_counts(
            self.n_prototypes, self.classes_, codes, "n_prototypes"
        )
        rng = check_random_state(self.random_state)
        mapped = self._metric.prepare(X)
        prototypes, centroids = [], []
        for code, count in enumerate(counts):
            inside = codes == code
            weights = None if sample_weight is None else sample_weight[inside]
            prototypes.append(
                subclass_means(X[inside], mapped[inside], count, rng, weights)
            )
            centroids.append(
                prototypes[-1]
                if count == 1
                else subclass_means(X[inside], None, 1, None, weights)
            )
        self.prototypes_ = np.concatenate(prototypes).astype(X.dtype, copy=False)
        self.centroids_ = np.concatenate(centroids).astype(X.dtype, copy=False)
        self._prototype_codes = np.repeat(np.arange(len(counts), dtype=np.intp), counts)
        self.prototype_labels_ = self.classes_[self._prototype_codes]

    def _nearest_prototypes(self, X):
        """Per class, the reduced distance to its nearest prototype; and the nearest class.

        Returns ``(reduced, nearest)``: ``reduced[i, c]`` is the smallest reduced
        distance from ``X[i]`` to a prototype of class ``c`` and ``nearest[i]`` the
        class code with the smallest one (the lowest code on ties).
        """
        X = self._validate_X(X)
        dtype = np.result_type(X.dtype, self.prototypes_.dtype)
        metric = self._metric
        queries = metric.prepare(X.astype(dtype, copy=False))
        prototypes = metric.prepare(self.prototypes_.astype(dtype, copy=False))
        codes = self._prototype_codes
        reduced, nearest = metric.group_minima(
            queries, prototypes, codes, len(self.classes_), self.n_jobs
        )
        # (at distance 0 from a class: equal to one of its prototypes)
        metric.check_resolved(
            reduced,
            lambda rows, classes: (
                (queries[rows, None, :] == prototypes[None, :, :]).all(axis=2)
                & (codes[None, :] == classes[:, None])
            ).any(axis=1),
        )
        return reduced, nearest

    def decision_function(self, X):
        """Minus the distance to each class's nearest prototype.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples, n_classes), or (n_samples,) for two classes
            ``-g_i(x)`` for every class (larger is better).  With two classes, the
            score of the second class minus that of the first, ``g_1(x) - g_2(x)``:
            positive means ``classes_[1]``.
        """
        reduced, _ = self._nearest_prototypes(X)
        return decision_from_scores(
            -self._metric.finish(self._metric.check_finite(reduced))
        )

    def predict(self, X):
        """The class of the nearest prototype (the first class on exact ties).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        reduced, nearest = self._nearest_prototypes(X)
        self._metric.check_finite(reduced[np.arange(len(nearest)), nearest])
        return self.classes_[nearest]

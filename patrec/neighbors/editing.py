"""Editing and condensing a training set for the nearest-neighbour rule.

Editing removes the samples that lie among samples of other classes (the
overlapping region of the classes): the nearest-neighbour rule trained on what is
left draws a smoother boundary and its asymptotic error falls from P to
P / (2 (1 - P)) (see `edited_nn_error`).  Condensing removes the samples far from the
boundary: it keeps a subset on which 1-NN still classifies every training sample
correctly, to save storage and search time.  The two combine: edit first, then
condense the edited set.

Each function returns the sorted indices of the samples it keeps, so
``X[kept], y[kept]`` is the reduced training set.  The neighbours are found by the
exact searches of this package (`KNeighborsClassifier`, `BruteForce`,
`BranchBoundTree`, `pairwise_distances`).
"""
import numbers

import numpy as np

from .._validation import (check_labels, check_random_state, check_scalar, check_X,
                           encode_labels)
from .brute import BruteForce
from .classifier import KNeighborsClassifier, choose_algorithm
from .metrics import pairwise_distances
from .tree import BranchBoundTree

__all__ = ["edit", "multiedit", "condense"]


def _check_data(X, y):
    """Validated ``X`` (finite floats, at least two rows) and label codes."""
    X = check_X(X, min_samples=2)
    y = check_labels(y, X.shape[0])
    _, codes = encode_labels(y)
    return X, codes


def _nearest_index(X, metric, p, metric_params):
    """An exact search index over ``X``: the method `KNeighborsClassifier` picks."""
    if choose_algorithm(X.shape[0], X.shape[1], metric, p) == "bnb":
        return BranchBoundTree(X, metric, p, metric_params, random_state=0)
    return BruteForce(X, metric, p, metric_params)


def edit(X, y, n_neighbors=3, metric="euclidean", p=2, metric_params=None):
    """Wilson's editing: drop the samples that their k nearest neighbours outvote.

    Every sample is classified by the k-NN rule of all the *other* samples
    (leave-one-out); the misclassified ones are removed, all at once.  Votes are
    counted, and ties broken, exactly as `KNeighborsClassifier` does (equal
    distances by lower index, equal votes to the class that sorts first).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (not modified).
    y : array-like of shape (n_samples,)
        Class labels, at least two classes.
    n_neighbors : int, default=3
        The number k of neighbours that vote, ``1 <= k < n_samples``.
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.

    Returns
    -------
    kept : ndarray of shape (n_kept,), dtype intp
        Sorted indices of the samples the k-NN rule of the others classifies
        correctly.

    Notes
    -----
    Cost: one k-nearest-neighbour search per sample, i.e. O(n_samples) searches.

    References
    ----------
    .. [1] D. L. Wilson, "Asymptotic properties of nearest neighbor rules using
       edited data", IEEE Transactions on Systems, Man, and Cybernetics, 2(3),
       408–421, 1972.

    Examples
    --------
    The sample at 2.1 is labelled "b" but lies among the "a" samples:

    >>> from patrec.neighbors import edit
    >>> X = [[0.0], [1.0], [2.0], [2.1], [3.0], [7.0], [8.0], [9.0]]
    >>> y = ["a", "a", "a", "b", "a", "b", "b", "b"]
    >>> edit(X, y, n_neighbors=3)
    array([0, 1, 2, 4, 5, 6, 7])
    """
    X, codes = _check_data(X, y)
    check_scalar(n_neighbors, "n_neighbors", numbers.Integral, low=1,
                 high=X.shape[0] - 1)
    knn = KNeighborsClassifier(n_neighbors=n_neighbors, metric=metric, p=p,
                               metric_params=metric_params).fit(X, codes)
    distances, indices = knn.kneighbors()
    votes = knn._votes(distances, indices, len(knn.classes_))
    predicted = knn.classes_[np.argmax(votes, axis=1)]
    return np.flatnonzero(predicted == codes)


def multiedit(X, y, n_splits=3, max_iter=100, metric="euclidean", p=2,
              metric_params=None, random_state=None):
    """Devijver and Kittler's multi-edit: repeated 1-NN editing on random splits.

    One iteration shuffles the remaining samples and splits them into ``n_splits``
    subsets of (nearly) equal size; the samples of subset i are classified by the
    1-NN rule trained on subset (i + 1) mod ``n_splits``, and every misclassified
    sample is discarded.  Iterations repeat until one discards nothing, or
    ``max_iter`` have run.  Because a sample is never judged by a classifier that
    was trained on it or on its own subset, the errors are independent and the
    overlap region between the classes is emptied much more thoroughly than by a
    single `edit`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (not modified).
    y : array-like of shape (n_samples,)
        Class labels, at least two classes.
    n_splits : int, default=3
        Number of subsets per iteration, from 2 up to the size of the smallest
        class.
    max_iter : int, default=100
        The most iterations run.
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the random splits.

    Returns
    -------
    kept : ndarray of shape (n_kept,), dtype intp
        Sorted indices (into ``X``) of the samples that survive.

    Notes
    -----
    Cost per iteration: one 1-NN search for every remaining sample, in an index of
    about n / ``n_splits`` samples.  Editing stops early when fewer than
    ``n_splits`` samples are left.

    References
    ----------
    .. [1] P. A. Devijver and J. Kittler, "On the edited nearest neighbor rule",
       Proc. 5th International Conference on Pattern Recognition, 72–80, 1980.
    .. [2] P. A. Devijver and J. Kittler, *Pattern Recognition: A Statistical
       Approach*, Prentice-Hall, 1982, chapter 3.

    Examples
    --------
    Two groups of 20 samples on a line, each with one mislabelled sample (5 and
    35); multi-edit removes both, and a few of their neighbours:

    >>> import numpy as np
    >>> from patrec.neighbors import multiedit
    >>> X = np.r_[np.arange(20.0), np.arange(30.0, 50.0)].reshape(-1, 1)
    >>> y = np.repeat([0, 1], 20)
    >>> y[[5, 35]] = [1, 0]
    >>> kept = multiedit(X, y, n_splits=2, random_state=2)
    >>> 5 in kept, 35 in kept, len(kept)
    (False, False, 36)
    """
    X, codes = _check_data(X, y)
    smallest_class = int(np.bincount(codes).min())
    check_scalar(n_splits, "n_splits", numbers.Integral, low=2, high=smallest_class)
    check_scalar(max_iter, "max_iter", numbers.Integral, low=1)
    rng = check_random_state(random_state)
    alive = np.arange(X.shape[0])
    for _ in range(max_iter):
        if alive.shape[0] < n_splits:
            break
        subsets = np.array_split(rng.permutation(alive), n_splits)
        wrong = []
        for i, judged in enumerate(subsets):
            judge = subsets[(i + 1) % n_splits]
            index = _nearest_index(X[judge], metric, p, metric_params)
            nearest = index.query(X[judged], 1, return_distance=False)[:, 0]
            wrong.append(judged[codes[judge[nearest]] != codes[judged]])
        wrong = np.concatenate(wrong)
        if wrong.shape[0] == 0:
            break
        alive = np.setdiff1d(alive, wrong)
    return np.sort(alive)


def condense(X, y, metric="euclidean", p=2, metric_params=None, random_state=None):
    """Hart's condensed nearest neighbour: a consistent subset for the 1-NN rule.

    The store starts with one sample; the others are visited in turn, and a sample
    that the 1-NN rule on the current store misclassifies moves into the store.
    Passes over the samples not yet stored repeat until a pass adds nothing.  The
    store then classifies every training sample correctly by 1-NN (it is a
    *consistent subset*), unless identical samples carry different labels.  Samples
    inside a class region are rarely stored; those near the boundary are.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training samples (not modified).
    y : array-like of shape (n_samples,)
        Class labels, at least two classes.
    metric : str, default="euclidean"
        One of `patrec.neighbors.METRICS`.
    p : float, default=2
        Minkowski order for ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        None: the samples are visited in their given order and the store starts
        with sample 0.  Otherwise they are visited in a random order drawn from this
        seed, starting with its first.  The result depends on the order.

    Returns
    -------
    kept : ndarray of shape (n_kept,), dtype intp
        Sorted indices of the stored samples.

    Notes
    -----
    Every sample keeps the distance to, and the label of, its nearest stored
    sample; a new store member updates them with one row of distances, so each
    addition costs O(n_samples * n_features) and no search index is ever rebuilt.
    Among stored samples at equal distance the one stored first wins.  Total cost:
    O(n_kept * n_samples * n_features).

    References
    ----------
    .. [1] P. E. Hart, "The condensed nearest neighbor rule", IEEE Transactions on
       Information Theory, 14(3), 515–516, 1968.

    Examples
    --------
    >>> from patrec.neighbors import condense
    >>> X = [[0], [1], [2], [3], [7], [8], [9], [10]]
    >>> y = ["a", "a", "a", "a", "b", "b", "b", "b"]
    >>> condense(X, y)
    array([0, 4])
    """
    X, codes = _check_data(X, y)
    n_samples = X.shape[0]
    if random_state is None:
        order = np.arange(n_samples)
    else:
        order = check_random_state(random_state).permutation(n_samples)
    stored = np.zeros(n_samples, dtype=bool)
    nearest_distance = np.full(n_samples, np.inf)
    nearest_code = np.full(n_samples, -1, dtype=np.intp)

    def store(i):
        distances = pairwise_distances(X[i:i + 1], X, metric, p=p,
                                       metric_params=metric_params)[0]
        closer = distances < nearest_distance
        nearest_distance[closer] = distances[closer]
        nearest_code[closer] = codes[i]
        nearest_distance[i] = -1.0  # a stored sample keeps its own label
        nearest_code[i] = codes[i]
        stored[i] = True

    store(order[0])
    codes_in_order = codes[order]
    added = True
    while added:
        added = False
        position = 0
        while True:
            misclassified = np.flatnonzero(
                nearest_code[order[position:]] != codes_in_order[position:])
            if misclassified.shape[0] == 0:
                break
            position += misclassified[0]
            store(order[position])
            added = True
            position += 1
    return np.flatnonzero(stored)

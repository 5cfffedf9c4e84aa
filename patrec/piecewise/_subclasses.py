"""Splitting each class into subclasses: how many, and where their means lie.

Shared by the classifiers of this package: the minimum-distance classifier uses the
subclass means as prototypes, the piecewise-linear machine starts from them.
"""

import numbers
import warnings

import numpy as np
from scipy.cluster.vq import kmeans2, vq

from .._validation import check_scalar, unit_scaled_weights


def subclass_counts(requested, classes, codes, name):
    """The number of subclasses of every class, validated.

    Parameters
    ----------
    requested : int or dict
        One count for every class, or a dict from class label to count (classes not
        in it get 1).
    classes : ndarray of shape (n_classes,)
        The class labels, in code order.
    codes : ndarray of shape (n_samples,)
        The encoded training labels.
    name : str
        The parameter's name, used in the error messages.

    Returns
    -------
    counts : ndarray of shape (n_classes,), dtype intp
        Each at least 1 and at most the number of samples of its class.
    """
    sizes = np.bincount(codes, minlength=len(classes))
    labels = classes.tolist()
    if isinstance(requested, dict):
        unknown = set(requested) - set(labels)
        if unknown:
            raise ValueError(
                f"{name} names classes not in y: {sorted(map(repr, unknown))}."
            )
        counts = [requested.get(label, 1) for label in labels]
    else:
        counts = [requested] * len(labels)
    for label, count, size in zip(labels, counts, sizes):
        check_scalar(count, f"{name} for class {label!r}", numbers.Integral, low=1)
        if count > size:
            raise ValueError(
                f"{name} for class {label!r} is {count} but the class has only "
                f"{size} training sample(s)."
            )
    return np.asarray(counts, dtype=np.intp)


def subclass_means(members, mapped, count, rng, weights=None):
    """``count`` means of one class: k-means in the mapped space, means of the originals.

    With ``weights`` (frequency weights of the members) the means are weighted means
    and the clusters come from `weighted_kmeans`; the weights are first scaled by a
    power of two (`unit_scaled_weights`), which changes neither but keeps their sums
    in range.
    """
    if weights is not None:
        weights, _ = unit_scaled_weights(weights)
    if count == 1:
        if weights is not None:
            return (weights @ members.astype(np.float64) / weights.sum())[np.newaxis]
        return members.mean(axis=0, keepdims=True, dtype=np.float64)
    if weights is not None:
        return weighted_kmeans(members, mapped, weights, count, rng)
    with warnings.catch_warnings():
        # kmeans2 warns when a cluster ends empty (and, with fewer distinct points
        # than clusters, while seeding); an empty cluster gets a sample below.
        warnings.simplefilter("ignore")
        _, assignment = kmeans2(_moderate(mapped), count, minit="++", seed=rng)
    means = np.empty((count, members.shape[1]), dtype=np.float64)
    for cluster in range(count):
        inside = members[assignment == cluster]
        means[cluster] = (
            inside.mean(axis=0) if len(inside) else members[rng.integers(len(members))]
        )
    return means


_LLOYD_MAX_ITER = 100


def weighted_kmeans(members, mapped, weights, count, rng):
    """``count`` weighted means of ``members``, clustered by k-means in ``mapped``.

    k-means with frequency weights minimises ``sum_i w_i ||x_i - c(x_i)||^2``.  The
    seeding is k-means++ with sample i drawn with probability proportional to
    ``w_i D(x_i)^2`` (``w_i`` for the first centre), each draw made by inverting the
    cumulative weights at one uniform number, so a sample of integer weight w is drawn
    exactly when one of its w copies would be, had it been repeated in place
    (``np.repeat``).  Lloyd's steps then assign
    every sample to its nearest centre and move each centre to the weighted mean of
    its samples, until no assignment changes (at most 100 steps).  A sample of weight
    zero is never drawn and moves no centre.  Each step costs
    O(n_members * count * n_features).
    """
    points = _moderate(mapped)
    centres = np.empty((count, points.shape[1]))
    closest = None  # squared distance of every point to its nearest centre so far
    for c in range(count):
        cumulative = np.cumsum(weights if closest is None else weights * closest)
        if cumulative[-1] <= 0:  # fewer distinct points than clusters: any weighted one
            cumulative = np.cumsum(weights)
        pick = np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")
        centres[c] = points[min(pick, len(points) - 1)]
        distances = np.sum((points - centres[c]) ** 2, axis=1)
        closest = distances if closest is None else np.minimum(closest, distances)
    assignment = None
    for _ in range(_LLOYD_MAX_ITER):
        labels, _ = vq(points, centres, check_finite=False)
        if assignment is not None and np.array_equal(labels, assignment):
            break
        assignment = labels
        totals = np.bincount(labels, weights=weights, minlength=count)
        for cluster in np.flatnonzero(totals > 0):
            inside = labels == cluster
            centres[cluster] = weights[inside] @ points[inside] / totals[cluster]
    totals = np.bincount(assignment, weights=weights, minlength=count)
    means = np.empty((count, members.shape[1]), dtype=np.float64)
    for cluster in range(count):
        inside = assignment == cluster
        if totals[cluster] > 0:
            means[cluster] = (
                weights[inside] @ members[inside].astype(np.float64) / totals[cluster]
            )
        else:  # an empty cluster gets a sample of positive weight
            means[cluster] = members[rng.choice(np.flatnonzero(weights > 0))]
    return means


def _moderate(points):
    """``points`` in float64, divided by a power of two when their magnitude is extreme.

    SciPy's kmeans2 crashes on points near 1e154 (its squared distances overflow);
    dividing every point by one power of two is exact and leaves the k-means
    assignments as they are.
    """
    points = points.astype(np.float64)
    largest = float(np.max(np.abs(points), initial=0.0))
    if largest > 2.0**64 or 0.0 < largest < 2.0**-64:
        points /= np.ldexp(1.0, int(np.frexp(largest)[1]))
    return points

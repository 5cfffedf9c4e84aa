"""Splitting each class into subclasses: how many, and where their means lie.

Shared by the classifiers of this package: the minimum-distance classifier uses the
subclass means as prototypes, the piecewise-linear machine starts from them.
"""
import numbers
import warnings

import numpy as np
from scipy.cluster.vq import kmeans2

from .._validation import check_scalar


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
            raise ValueError(f"{name} names classes not in y: {sorted(map(repr, unknown))}.")
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


def subclass_means(members, mapped, count, rng):
    """``count`` means of one class: k-means in the mapped space, means of the originals."""
    if count == 1:
        return members.mean(axis=0, keepdims=True, dtype=np.float64)
    with warnings.catch_warnings():
        # kmeans2 warns when a cluster ends empty (and, with fewer distinct points
        # than clusters, while seeding); an empty cluster gets a sample below.
        warnings.simplefilter("ignore")
        _, assignment = kmeans2(_moderate(mapped), count, minit="++", seed=rng)
    means = np.empty((count, members.shape[1]), dtype=np.float64)
    for cluster in range(count):
        inside = members[assignment == cluster]
        means[cluster] = inside.mean(axis=0) if len(inside) else members[rng.integers(len(members))]
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

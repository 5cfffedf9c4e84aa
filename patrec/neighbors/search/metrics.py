"""Distances between samples, as the nearest-neighbour chapter lists them.

=============  ==================================  ===================================
metric         distance between x and y            parameters and remarks
=============  ==================================  ===================================
euclidean      ``sqrt(sum_i (x_i - y_i)^2)``
sqeuclidean    ``sum_i (x_i - y_i)^2``             not a metric (no triangle
                                                   inequality); same neighbours as
                                                   euclidean
cityblock      ``sum_i abs(x_i - y_i)``            Manhattan, L1
chebyshev      ``max_i abs(x_i - y_i)``            L-infinity
minkowski      ``(sum_i abs(x_i - y_i)^p)^(1/p)``  ``p >= 1``; ``p=inf`` is chebyshev
mahalanobis    ``sqrt((x - y)^T Q (x - y))``       ``metric_params={'VI': Q}``, Q
                                                   symmetric positive definite
                                                   (SciPy's name)
=============  ==================================  ===================================

scikit-learn's other names are accepted too: ``manhattan`` and ``l1`` mean
``cityblock``, ``l2`` means ``euclidean``.

The course's quadratic-form distance (x - y)^T Q (x - y) is the square of the
``mahalanobis`` entry: it orders neighbours the same way.

Internally every comparison uses a *reduced* distance that needs no root (the squared
euclidean distance for the euclidean family) and roots are taken once at the end.  The
minkowski kernel factors out the largest coordinate difference when the plain power sum
would over- or underflow, so any ``p`` works.  The quadratic form is computed as a
euclidean distance after the linear map x -> x L, where Q = L L^T is the Cholesky
factorisation, so all kernels are the four coordinate-wise ones in ``_distances.pyx``.
"""

import numbers
from collections.abc import Mapping

import numpy as np
from scipy.linalg import LinAlgError, cholesky

from ..._parallel import run_row_ranges
from ..._validation import check_option, check_X, plain
from . import _distances

__all__ = ["METRICS", "METRIC_ALIASES", "Metric", "pairwise_distances"]

#: scikit-learn's (and SciPy's) other names for patrec's distances: alias -> name.
METRIC_ALIASES = {"manhattan": "cityblock", "l1": "cityblock", "l2": "euclidean"}

#: Every accepted ``metric`` name, the aliases of `METRIC_ALIASES` included.
METRICS = (
    "euclidean",
    "sqeuclidean",
    "cityblock",
    "chebyshev",
    "minkowski",
    "mahalanobis",
    *METRIC_ALIASES,
)


#: Other libraries' metrics that patrec does not have, and what to do instead.
OTHER_METRICS = {
    "nan_euclidean": "patrec refuses missing values rather than measure around "
    "them: impute them first (for example with scikit-learn's SimpleImputer), then "
    "use 'euclidean'",
    "cosine": "divide each row by its norm and use 'euclidean': the same neighbours "
    "(the squared euclidean distance of unit rows is 2 - 2 cos)",
    "correlation": "centre and normalise each row, then use 'euclidean': the same "
    "neighbours",
    "seuclidean": "divide each feature by its standard deviation and use "
    "'euclidean', or use 'mahalanobis' with VI = diag(1 / V)",
    "precomputed": "pass the features themselves: every search computes its "
    "distances exactly",
}


def canonical_metric(metric):
    """The name of ``metric`` in the table above: ``"manhattan"`` -> ``"cityblock"``."""
    if isinstance(metric, str) and metric in OTHER_METRICS:
        advice = OTHER_METRICS[metric]
    elif callable(metric) or hasattr(metric, "pairwise"):
        advice = (
            "a callable or an object as the metric is not offered: patrec's "
            "distances are compiled, so the searches' exactness can be proved; name "
            "one of them"
        )
    elif isinstance(metric, str) and metric not in METRICS:
        advice = (
            "patrec has the course's distances only; for another one, compute a "
            "distance matrix with scipy.spatial.distance.cdist, or map the data so "
            "that one of patrec's distances orders the neighbours the same way"
        )
    else:
        advice = None
    if advice is not None:
        raise ValueError(
            f"metric={plain(metric)!r} is not one of patrec's metrics {list(METRICS)}: "
            f"{advice}."
        )
    check_option(metric, "metric", METRICS)
    return METRIC_ALIASES.get(metric, metric)


def as_metric(metric, p=2, metric_params=None, n_features=None):
    """``metric`` itself when it is a `Metric` already (checked against
    ``n_features``), else the `Metric` of the triple ``(metric, p, metric_params)``:
    an estimator resolves its metric once, and every layer below takes the object."""
    if not isinstance(metric, Metric):
        return Metric(metric, p, metric_params, n_features)
    if (
        n_features is not None
        and metric.transform is not None
        and metric.transform.shape[0] != n_features
    ):
        raise ValueError(
            f"VI has shape {metric.transform.shape} but the data have {n_features} "
            "features."
        )
    return metric


class Metric:
    """A validated metric: what the kernels compute and how to finish the result.

    Parameters
    ----------
    metric : str, default="euclidean"
        One of `METRICS` (an alias such as ``"manhattan"`` included).
    p : float, default=2
        The Minkowski order, ``p >= 1`` (``np.inf`` allowed); checked with every
        metric, used only by ``metric="minkowski"``.
    metric_params : dict, optional
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    n_features : int, optional
        When given, the shape of ``Q`` is checked against it.

    Attributes
    ----------
    name : str
        The metric's name as given (an alias stays an alias).
    kind : int
        The kernel's metric kind (``_distances.KINDS``).
    p : float
        The Minkowski order the kernel uses.
    transform : ndarray of shape (n_features, n_features) or None
        The factor ``L`` that maps rows for the quadratic form, else None.
    squared : bool
        True for ``sqeuclidean``: the reduced distance is the output.
    """

    def __init__(self, metric="euclidean", p=2, metric_params=None, n_features=None):
        self.name = metric
        self.given_p, self.metric_params = p, metric_params  # (as the caller said)
        metric = canonical_metric(metric)
        if metric_params is not None and not isinstance(metric_params, Mapping):
            raise TypeError(
                f"metric_params must be a dict or None, got {metric_params!r}."
            )
        params = {} if metric_params is None else dict(metric_params)
        p = _check_p(p)  # checked with any metric, used by minkowski alone
        self.p = 2.0
        self.transform = None
        self.squared = metric == "sqeuclidean"
        if metric == "minkowski":
            self.p = p
            metric = {1.0: "cityblock", 2.0: "euclidean", np.inf: "chebyshev"}.get(
                self.p, "minkowski"
            )
        if metric == "mahalanobis":
            self.transform = _cholesky_factor(params.pop("VI", None), n_features)
        if params:
            raise ValueError(
                f"Unknown metric_params {sorted(params)} for metric {self.name!r}; "
                "only 'VI' (with metric='mahalanobis') is accepted."
            )
        if metric in ("euclidean", "sqeuclidean", "mahalanobis"):
            metric = "sqeuclidean"
        self.kind = _distances.KINDS[metric]

    def __repr__(self):
        return f"Metric({self.name!r}, kind={self.kind}, p={self.p})"

    def radius_limits(self, r, dtype=np.float64):
        """A radius ``r`` given in this metric's units, as the searches use it:
        ``(geometric, reduced)``, the radius in the kernels' geometry (what a tree
        prunes with) and the reduced distance every match is compared against.

        A sample is within ``r`` exactly when the distance reported for it (in
        ``dtype``) is ``<= r``.  For ``sqeuclidean`` the radius is a squared
        distance already: compared as given, its root is the geometric radius.
        Where the distance is the root of the reduced one, the limit is the
        largest reduced value whose root does not exceed ``r``: ``r * r`` rounded
        can fall a unit below the square of a reported distance equal to ``r``.
        """
        geometric, limit = float(r), float(r)
        if self.squared:
            geometric = float(np.sqrt(r))
        elif self.kind == _distances.KINDS["sqeuclidean"]:
            limit = _largest_square_rooted_within(r, np.dtype(dtype).type)
        if limit >= float(np.finfo(dtype).max):
            # a distance that overflowed may be within r: nothing is pruned, every
            # sample is taken, and the search refuses the overflowed ones
            # (check_finite) rather than drop samples that are within r
            geometric = limit = np.inf
        return geometric, limit

    def prepare(self, X):
        """Map rows into the space where the kernels apply (only mahalanobis moves)."""
        if self.transform is None:
            return X
        return np.ascontiguousarray(X @ self.transform.astype(X.dtype, copy=False))

    def finish(self, reduced):
        """Turn an array of reduced distances into distances, in place; return it."""
        if not self.squared and self.kind == _distances.KINDS["sqeuclidean"]:
            np.sqrt(reduced, out=reduced)  # (vectorised; correctly rounded, as in C)
        return reduced

    def check_finite(self, reduced, dtype=None):
        """Raise a clear error when reduced distances overflowed to infinity.

        The inputs are finite, so an infinite distance means the data are so large that
        their squared (or summed) differences exceed the floating-point range.
        ``dtype``: the data's, when ``reduced`` holds them in another.
        """
        # (NaN fails too; no temporary; one value, a single-row call's, is read
        # without the cost of a reduction)
        largest = reduced.item() if reduced.size == 1 else reduced.max(initial=0)
        if not largest < np.inf:
            raise ValueError(
                f"The {self.name} distances overflow the range of "
                f"{dtype or reduced.dtype}: the "
                "data values are too large. Rescale the data (for example standardize "
                "the features) first."
            )
        return reduced

    def check_resolved(self, reduced, is_copy, ascending=False, dtype=None):
        """Raise a clear error when squared differences underflowed to zero: two
        samples at distance 0 that are not equal.

        ``is_copy(rows, columns)`` tells, for the entries ``reduced[rows[m],
        columns[m]]`` that are 0, whether the two samples they measure are equal;
        ``ascending``: each row of ``reduced`` ascends (its first entry is its
        smallest); ``dtype``: the data's, when ``reduced`` holds them in another.
        Distinct samples come out at 0 when every squared difference
        falls below the dtype's smallest number (differences under about 1e-162 in
        float64): the nearest are then ties broken by order, as meaningless as the
        ties of an overflow.  Tiny distances above 0 stand as the kernel computed
        them (gradual underflow loses digits as rounding does).  Other metrics do
        not square: the difference of two distinct numbers is never 0.
        """
        if self.kind != _distances.KINDS["sqeuclidean"] or reduced.size == 0:
            return
        # (a single-row call's one value is read without the cost of a reduction)
        if ascending:
            smallest = reduced[0, 0] if len(reduced) == 1 else reduced[:, 0].min()
        else:
            smallest = reduced.min()
        if smallest > 0:
            return
        if not is_copy(*np.nonzero(reduced == 0)).all():
            raise ValueError(
                f"The {self.name} distances underflow the range of "
                f"{dtype or reduced.dtype}: the data values are so small that "
                "distinct samples come out at distance 0. Rescale the data (for "
                "example standardize the features) first."
            )

    def reduced(self, X, Y, n_jobs=None):
        """Reduced distances between the rows of prepared ``X`` and ``Y``."""
        out = np.empty((X.shape[0], Y.shape[0]), dtype=X.dtype)

        def rows(start, stop):
            _distances.pairwise_rdist(
                self.kind, self.p, X[start:stop], Y, out[start:stop]
            )

        run_row_ranges(rows, X.shape[0], n_jobs)
        return out

    def group_minima(self, X, Y, groups, n_groups, n_jobs=None):
        """Per group of the rows of prepared ``Y``, the smallest reduced distance from
        each row of prepared ``X`` (same dtype), and the nearest group.

        ``groups[j]`` (intp, ``0 <= groups[j] < n_groups``) is the group of ``Y[j]``;
        every group has a row.  Returns ``(reduced, nearest)``: ``reduced[i, g]``
        for each group ``g``, and ``nearest[i]``, the group of the smallest (the
        lowest group on ties).  The nearest-prototype rule of the minimum-distance
        classifier.
        """
        reduced = np.empty((X.shape[0], n_groups), dtype=X.dtype)
        nearest = np.empty(X.shape[0], dtype=np.intp)

        def rows(start, stop):
            _distances.group_min_rdist(
                self.kind,
                self.p,
                X[start:stop],
                Y,
                groups,
                reduced[start:stop],
                nearest[start:stop],
            )

        run_row_ranges(rows, X.shape[0], n_jobs)
        return reduced, nearest


def _largest_square_rooted_within(r, value):
    """The largest number ``v`` of float type ``value`` with ``sqrt(v) <= r``."""
    with np.errstate(over="ignore"):  # (r * r or the step past the largest)
        limit = value(r) * value(r)
        while np.sqrt(limit) > r:
            limit = np.nextafter(limit, value(0))
        while limit < np.inf and np.sqrt(np.nextafter(limit, value(np.inf))) <= r:
            limit = np.nextafter(limit, value(np.inf))
    return float(limit)


def _check_p(p):
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Real):
        raise TypeError(f"p must be a real number >= 1, got {p!r}.")
    if np.isnan(p) or p < 1:
        raise ValueError(
            f"p must be >= 1 for the Minkowski distance (below 1 it is no metric), "
            f"got {p!r}."
        )
    return float(p)


def _cholesky_factor(VI, n_features):
    if VI is None:
        raise ValueError(
            "metric='mahalanobis' needs metric_params={'VI': Q} with Q the symmetric "
            "positive-definite matrix of the quadratic form (x - y)^T Q (x - y)."
        )
    if np.iscomplexobj(VI):
        raise ValueError("VI must be a real matrix, got complex values.")
    try:
        Q = np.array(VI, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"VI must be a matrix of real numbers: {exc}") from None
    if Q.ndim != 2 or Q.shape[0] != Q.shape[1]:
        raise ValueError(f"VI must be a square matrix, got shape {Q.shape}.")
    if n_features is not None and Q.shape[0] != n_features:
        raise ValueError(
            f"VI has shape {Q.shape} but the data have {n_features} features."
        )
    if not np.isfinite(Q).all():
        raise ValueError("VI contains NaN or infinity.")
    if not np.allclose(Q, Q.T, rtol=1e-10, atol=1e-12 * np.abs(Q).max()):
        raise ValueError("VI must be symmetric.")
    try:
        return cholesky(Q, lower=True)
    except LinAlgError:
        raise ValueError(
            "VI must be positive definite (its Cholesky factorisation failed); a "
            "singular or indefinite Q does not define a distance."
        ) from None


def pairwise_distances(
    X, Y=None, metric="euclidean", *, p=2, metric_params=None, n_jobs=None
):
    """Distances between every row of ``X`` and every row of ``Y``.

    Each distance is computed directly from the coordinates (no expansion such as
    ``|x|^2 - 2 x.y + |y|^2``), so the result is exact to rounding, even for data far
    from the origin.  Cost: O(n_X * n_Y * n_features).

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        ``None`` means ``Y = X``.
    metric : str, default="euclidean"
        One of "euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski",
        "mahalanobis" or an alias ("manhattan", "l1", "l2"); see the table in the
        module docstring.
    p : float, default=2
        Minkowski order (``p >= 1``), used with ``metric="minkowski"``.
    metric_params : dict, default=None
        ``{"VI": Q}`` for ``metric="mahalanobis"``.
    n_jobs : int, default=None
        Threads over row ranges of ``X``; ``-1`` uses every core.

    Returns
    -------
    D : ndarray of shape (n_samples_X, n_samples_Y)
        float32 when both inputs are float32, otherwise float64.

    Examples
    --------
    >>> from patrec.neighbors import pairwise_distances
    >>> pairwise_distances([[0, 0], [3, 4]], metric="euclidean")
    array([[0., 5.],
           [5., 0.]])
    >>> pairwise_distances([[0, 0]], [[3, 4]], metric="cityblock")
    array([[7.]])
    """
    X = check_X(X)
    Y = X if Y is None else check_X(Y, name="Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of features, got {X.shape[1]} and "
            f"{Y.shape[1]}."
        )
    if X.dtype != Y.dtype:
        X, Y = X.astype(np.float64), Y.astype(np.float64)
    spec = Metric(metric, p, metric_params, n_features=X.shape[1])
    X, Y = spec.prepare(X), spec.prepare(Y)
    # Every distance is homogeneous in the data (of degree 2 for sqeuclidean), so
    # it is computed on the data divided by a power of two near their largest value
    # (exactly), then multiplied back: squares of huge values do not overflow nor
    # those of tiny ones lose their digits in the subnormal range.
    scale = _power_of_two_above(X, Y)
    distances = spec.finish(spec.reduced(X / scale, Y / scale, n_jobs))
    with np.errstate(over="ignore"):
        for _ in range(2 if spec.squared else 1):
            distances *= scale
    return spec.check_finite(distances)


def _power_of_two_above(*arrays):
    """2**e with the largest magnitude of ``arrays`` in [2**e, 2**(e + 1)); 1 for
    all-zero data.  (Not above it: that could be the float32 infinity.)"""
    largest = max((float(np.max(np.abs(a))) if a.size else 0.0) for a in arrays)
    if not np.isfinite(largest):  # (mahalanobis' linear map overflowed)
        return np.asarray(1.0, arrays[0].dtype)
    if largest == 0:
        return np.asarray(1.0, arrays[0].dtype)
    return np.asarray(np.ldexp(1.0, np.frexp(largest)[1] - 1), arrays[0].dtype)

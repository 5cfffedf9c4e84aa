"""SciPy's ``cKDTree`` and ``KDTree``, answered by patrec's compiled tree.

How an answer is made
---------------------
A `cKDTree` keeps the data as SciPy does (float64, C order, copied only when asked
or needed) and, for each Minkowski ``p`` a call asks for, one
`patrec.neighbors.BranchBoundTree` over them (the ``p=2`` one built with the tree,
the others when first asked for, then kept).  Every answer is made in two steps:

1. patrec's tree finds *candidates*: the ``k + 1`` nearest of each query, or every
   sample within a radius widened by a rounding margin, so that nothing SciPy would
   return is missed;
2. each candidate is measured again the way cKDTree's C++ core measures it (the
   same additions in the same order, the C library's ``pow``; ``_exact.pyx``) and
   compared, as cKDTree compares, with a bound computed as cKDTree computes it
   (``r * r`` for a ball of ``p = 2``, ``pow(r, p)`` for other ``p``, ...).

So a sample is in or out of an answer by SciPy's own arithmetic: a point at
distance exactly ``r`` is in a ball exactly when it is in cKDTree's, and the
distances returned are cKDTree's bit for bit.  For the k nearest, the candidates
are sorted by those distances (ties: the lower index first; SciPy leaves the order
of ties unspecified); a query whose ``k``-th and ``(k + 1)``-th candidates lie
within the rounding margin of each other is answered again from a radius search,
so the ``k`` returned are the ``k`` smallest of cKDTree's distances in every case.

A periodic box (``boxsize``) is searched through images: a query near a face of
the box is searched again shifted by one period across that face (and across each
pair, triple, ... of such faces), within the radius the answer can reach; the
candidates of all images are measured with the periodic distance, as above.
"""

import numbers
import operator
import os
import threading

import numpy as np

from .._parallel import run_row_ranges
from ..neighbors.search.tree import BranchBoundTree
from . import _exact

__all__ = ["cKDTree", "KDTree", "cKDTreeNode"]

_EPS = float(np.finfo(np.float64).eps)
# The largest number of images a periodic query is searched through; a query that
# would need more (a radius beyond most of the box in many dimensions) is measured
# against every sample instead.
_MAX_IMAGES = 64
# The most candidates one radius search may collect before its rows are split.
_MAX_FOUND = 1 << 24
# Queries whose search radii are within this factor of each other share a search.
_RADIUS_STEP = 2.0 ** (1 / 16)


# -- cKDTree's numbers -----------------------------------------------------------------


def _kind(p):
    """Which of cKDTree's kernels ``p`` selects (``_exact`` KIND_*)."""
    if p == 2:
        return _exact.KIND_P2
    if p == 1:
        return _exact.KIND_P1
    if np.isinf(p):
        return _exact.KIND_PINF
    return _exact.KIND_PGENERAL


def _pow(values, exponent):
    """The C library's ``pow`` of each value (what cKDTree calls)."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty_like(values)
    _exact.power(values.reshape(-1), float(exponent), out.reshape(-1))
    return out


def _bound_reduced(r, p):
    """A radius as cKDTree's search compares it (its distance tracker, and the
    ``distance_upper_bound`` of ``query``): ``r * r`` for ``p = 2``, ``pow(r, p)``
    for other finite ``p`` and finite ``r``, else ``r``."""
    r = np.array(r, dtype=np.float64)
    if p == 2:
        with np.errstate(over="ignore"):
            return r * r
    if np.isinf(p):
        return r
    out = r.copy()
    finite = ~np.isinf(r)
    out[finite] = _pow(r[finite], p)
    return out


def _count_reduced(r, p):
    """A radius of ``count_neighbors`` as cKDTree compares it: ``pow(r, p)`` for
    finite ``r`` and ``p`` (``p = 2`` included), else ``r``."""
    r = np.array(r, dtype=np.float64)
    if np.isinf(p):
        return r
    out = r.copy()
    finite = ~np.isinf(r)
    out[finite] = _pow(r[finite], p)
    return out


def _distance(reduced, p):
    """cKDTree's distance from its reduced form: ``sqrt`` for ``p = 2``, the value
    itself for ``p = 1`` and ``inf``, ``pow(value, 1 / p)`` otherwise."""
    if p == 2:
        return np.sqrt(reduced)
    if p == 1 or np.isinf(p):
        return np.array(reduced, dtype=np.float64)
    return _pow(reduced, 1.0 / p)


class _Margin:
    """How far patrec's distance of a pair may be from cKDTree's: ``relative``,
    in the distance's own units, and ``absolute`` (the values that underflow in
    cKDTree's reduced form, and the rounding of a periodic image's coordinates)."""

    def __init__(self, m, p, box_scale=0.0):
        # two orders of summing m terms differ by a relative 2 m eps at most
        self.relative = max(2.0**-36, 64.0 * max(m, 1) * _EPS)
        if np.isinf(p):
            tiny = 0.0
        else:  # below this every term of cKDTree's sum underflows to 0
            tiny = float(np.exp2((np.log2(max(m, 1)) - 1070.0) / p))
        self.absolute = tiny + 16.0 * max(m, 1) * _EPS * box_scale

    def above(self, distance):
        """A distance at least any distance whose other rounding is ``distance``."""
        with np.errstate(over="ignore", invalid="ignore"):
            return distance * (1 + self.relative) + self.absolute

    def below(self, distance):
        """A distance at most any distance whose other rounding is ``distance``."""
        return np.maximum(distance * (1 - self.relative) - self.absolute, 0.0)


def _reduced_below(distance, p):
    """A reduced distance at most cKDTree's reduced form of ``distance``."""
    if p == 2:
        with np.errstate(over="ignore"):
            return distance * distance * (1 - 4 * _EPS)
    if p == 1 or np.isinf(p):
        return distance
    return _pow(distance, p) * (1 - 4 * _EPS)


def _distance_above(reduced, p):
    """A distance at least the one whose cKDTree reduced form is ``reduced``."""
    with np.errstate(invalid="ignore", over="ignore"):
        return _distance(reduced, p) * (1 + 4 * _EPS)


# -- argument checks, as cKDTree makes them ---------------------------------------------


def _workers(workers, kwargs, method):
    """The number of threads of ``workers`` (cKDTree's rules: None is 1, -1 every
    core); a keyword cKDTree does not know is a TypeError naming its equivalent."""
    if kwargs:
        names = sorted(kwargs)
        hint = (
            " (SciPy's name for the threads is workers=)" if "n_jobs" in kwargs else ""
        )
        raise TypeError(f"{method}() got unexpected keyword argument(s) {names}{hint}.")
    if workers is None:
        return 1
    try:
        n = operator.index(workers)
    except TypeError:
        raise TypeError(
            f"workers must be an integer (-1: every core), got {workers!r}."
        ) from None
    if n == -1:
        count = os.cpu_count()
        if count is None:
            raise NotImplementedError(
                "Cannot determine the number of cpus using os.cpu_count(), cannot "
                "use -1 for the number of workers"
            )
        return count
    if n <= 0:
        raise ValueError(f"Invalid number of workers {workers}, must be -1 or > 0")
    return n


def _check_p(p):
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Real):
        raise TypeError(f"p must be a real number, 1 <= p <= inf, got {p!r}.")
    p = float(p)
    if not p >= 1:
        raise ValueError("Only p-norms with 1<=p<=infinity permitted")
    return p


def _check_eps(eps):
    if isinstance(eps, (bool, np.bool_)) or not isinstance(eps, numbers.Real):
        raise TypeError(f"eps must be a non-negative real number, got {eps!r}.")
    if not eps >= 0:
        raise ValueError(f"eps must be non-negative, got {eps!r}.")
    return float(eps)


def _check_k(k):
    """``(ranks, squeeze)``: the 1-based neighbour ranks asked for, and whether the
    last axis is squeezed (an integer k == 1)."""
    if k is None:
        raise ValueError("k must be an integer or a sequence of integers")
    if np.ndim(k) == 0:
        value = _integer(k)
        if value < 1:
            raise ValueError(f"k must be at least 1, got {k!r}.")
        return np.arange(1, value + 1, dtype=np.intp), value == 1
    ranks = np.array([_integer(value) for value in np.ravel(k)], dtype=np.intp)
    if ranks.size == 0:
        raise ValueError("k is an empty sequence: ask for at least one neighbour.")
    if ranks.min() < 1:
        raise ValueError(f"every k must be at least 1 (ranks count from 1), got {k!r}.")
    return ranks, False


def _integer(value):
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(
            f"k must be an integer or a sequence of integers, got {value!r}."
        )
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real) and float(value).is_integer():
        return int(value)
    raise TypeError(f"k must be an integer or a sequence of integers, got {value!r}.")


def _other_tree(self, other, method):
    if not isinstance(other, cKDTree):
        raise TypeError(
            f"{method} takes another patrec.spatial cKDTree or KDTree, got "
            f"{type(other).__name__}."
        )
    if self.m != other.m:
        raise ValueError(f"Trees passed to {method} have different dimensionality")


def _wrap_positions(X, box):
    """Query points moved into the periodic box as cKDTree moves them
    (``BoxDist1D::wrap_position``)."""
    X = np.array(X, dtype=np.float64, order="C")
    m = X.shape[1]
    for j in range(m):
        size = box[j]
        if size <= 0:
            continue
        column = X[:, j]
        column -= np.floor(column / size) * size
        while True:
            high = column >= size
            if not high.any():
                break
            column[high] -= size
        while True:
            low = column < 0
            if not low.any():
                break
            column[low] += size
    return X


# -- the search: candidates from patrec's tree, measured as cKDTree measures --------------


def _pairs_within(
    target,
    points,
    limit,
    p,
    box,
    n_threads,
    *,
    upper_only=False,
    sort=False,
    consume=None,
):
    """Every pair (query i, sample j of ``target``) whose cKDTree reduced distance
    is ``<= limit[i]``: ``(rows, cols, reduced)``.

    ``points`` are the queries (float64, C order; already in the box when ``box``
    is given), ``limit`` one reduced bound per query (NaN or negative: no pair).
    ``upper_only`` keeps the pairs with ``j > i`` alone (a tree against itself);
    ``sort`` orders the pairs by (i, j) (``"pairs"``: and drops the distances).
    ``consume(rows, cols, reduced)``, when given, receives the pairs a batch at a
    time instead (one call at a time), so that they need not all be held at once;
    nothing is returned then.
    """
    empty = (
        np.empty(0, dtype=np.intp),
        np.empty(0, dtype=np.intp),
        np.empty(0, dtype=np.float64),
    )
    n_queries = points.shape[0]
    if target.n == 0 or n_queries == 0:
        return empty
    index = target._index(p)
    margin = target._margin(p, box, points)
    with np.errstate(invalid="ignore"):
        wanted = limit >= 0
        radius = np.where(
            wanted, margin.above(_distance_above(np.maximum(limit, 0), p)), 0
        )
    rows = np.flatnonzero(wanted)
    if rows.size == 0:
        return empty
    brute = np.zeros(n_queries, dtype=bool)
    brute[rows[~(radius[rows] < np.inf)]] = True
    search_points, search_rows = points, np.arange(n_queries)
    if box is not None:
        search_points, search_rows, brute = _images(
            target, points, radius, rows, box, brute
        )
    else:
        keep = wanted & ~brute
        search_points, search_rows = points[keep], search_rows[keep]
    box_array = np.empty(0) if box is None else box
    kind = _kind(p)
    pieces = []
    lock = threading.Lock()

    def measure(labels, cols):
        if upper_only:
            keep = cols > labels
            labels, cols = labels[keep], cols[keep]
        reduced = np.empty(len(cols), dtype=np.float64)
        _exact.pair_rdist(
            kind, p, target._data, points, cols, labels, box_array, reduced
        )
        inside = reduced <= limit[labels]
        piece = (labels[inside], cols[inside], reduced[inside])
        with lock:
            if consume is not None and box is None:
                consume(*piece)
            else:
                pieces.append(piece)

    # queries measured against every sample
    brute_rows = np.flatnonzero(brute)
    if brute_rows.size:
        per_range = max(1, _MAX_FOUND // max(target.n, 1))

        def brute_range(start, stop):
            for first in range(start, stop, per_range):
                chunk = brute_rows[first : min(stop, first + per_range)]
                labels = np.repeat(chunk, target.n)
                cols = np.tile(np.arange(target.n, dtype=np.intp), len(chunk))
                measure(labels, cols)

        run_row_ranges(brute_range, len(brute_rows), n_threads)

    # the others, by radius: queries of nearly equal radii share a search
    if len(search_rows):
        search_radius = radius[search_rows]
        for group in _radius_groups(search_radius):
            group_points = np.ascontiguousarray(search_points[group])
            order = index._search_order(group_points)
            if order is not None:
                group, group_points = group[order], group_points[order]
            group_radius = float(search_radius[group].max())
            group_labels = search_rows[group]

            def search_range(start, stop):
                for labels, cols in _search(
                    index,
                    group_points[start:stop],
                    group_labels[start:stop],
                    group_radius,
                ):
                    measure(labels, cols)

            run_row_ranges(search_range, len(group), n_threads)
    if consume is not None and box is None:
        return None
    if not pieces:
        if consume is not None:
            return None
        return empty
    rows_out = np.concatenate([piece[0] for piece in pieces])
    cols_out = np.concatenate([piece[1] for piece in pieces])
    reduced_out = np.concatenate([piece[2] for piece in pieces])
    if box is None and not sort:
        return rows_out, cols_out, reduced_out
    key = rows_out.astype(np.int64) * target.n + cols_out
    if box is not None:  # (images of one query may find a sample twice)
        key, first = np.unique(key, return_index=True)
        rows_out, cols_out, reduced_out = (
            rows_out[first],
            cols_out[first],
            reduced_out[first],
        )
    elif sort == "pairs":  # (the distances are not wanted)
        key = np.sort(key)
        rows_out, cols_out = np.divmod(key, target.n)
        rows_out, cols_out = rows_out.astype(np.intp), cols_out.astype(np.intp)
    elif sort:
        order = np.argsort(key)
        rows_out, cols_out, reduced_out = (
            rows_out[order],
            cols_out[order],
            reduced_out[order],
        )
    if consume is not None:
        consume(rows_out, cols_out, reduced_out)
        return None
    return rows_out, cols_out, reduced_out


def _radius_groups(radius):
    """Positions of ``radius`` in groups whose largest radius is within
    ``_RADIUS_STEP`` of the others (one group when all are equal)."""
    if radius.size == 0:
        return []
    if (radius == radius[0]).all():
        return [np.arange(radius.size)]
    with np.errstate(divide="ignore"):
        key = np.where(
            radius > 0, np.ceil(np.log2(radius) / np.log2(_RADIUS_STEP)), -np.inf
        )
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    cuts = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
    return np.split(order, cuts)


def _search(index, queries, labels, radius):
    """patrec's radius search of ``queries`` (rows ``labels``) in ``index``: yields
    ``(labels, cols)`` of the samples within ``radius`` (patrec's distance), in
    batches of at most ``_MAX_FOUND`` pairs.

    (The index's own hooks behind ``query_radius``, ``_within`` and
    ``_search_order``: the matches come as one flat array, not an array per
    query, which costs several times the search in three dimensions.)"""
    stack = [(0, len(queries))]
    while stack:
        start, stop = stack.pop()
        part = queries[start:stop]
        found = np.zeros(stop - start, dtype=np.intp)
        evaluations = np.zeros(stop - start, dtype=np.intp)
        limit = _MAX_FOUND if stop - start > 1 else max(_MAX_FOUND, index.n_samples + 1)
        result = index._within(part, radius, found, evaluations, limit)
        if result is None:
            middle = (start + stop) // 2
            stack.extend([(middle, stop), (start, middle)])
            continue
        cols = np.asarray(result[0], dtype=np.intp)
        yield np.repeat(labels[start:stop], found), cols


def _images(target, points, radius, rows, box, brute):
    """The images of the periodic queries: each query ``rows`` shifted by one
    period across every face of the box its radius reaches past.  Returns
    ``(image points, their query rows, brute)`` with ``brute`` marking the queries
    measured against every sample instead (too many images, or samples outside
    the box)."""
    m = points.shape[1]
    size = box[:m]
    periodic = size > 0
    inside = True
    if target.n:
        data_min, data_max = target.mins, target.maxes
        inside = bool(((data_min >= 0) & (data_max < size) | ~periodic).all())
    if not inside:
        brute[rows] = True
        return np.empty((0, m)), np.empty(0, dtype=np.intp), brute
    rows = rows[~brute[rows]]
    reach = radius[rows][:, None]
    query = points[rows]
    up = periodic & (query < reach)  # the image one period up: q + L
    down = periodic & (query > size - reach)  # and one down: q - L
    count = np.prod(1 + up.astype(np.int64) + down, axis=1)
    many = count > _MAX_IMAGES
    brute[rows[many]] = True
    rows, query, up, down = rows[~many], query[~many], up[~many], down[~many]
    image_points, image_rows = query, np.arange(len(rows))
    for j in np.flatnonzero(periodic):
        # every image so far, and again moved up, and moved down, where needed
        moved_up = image_points[up[image_rows, j]]
        moved_up[:, j] += size[j]
        moved_down = image_points[down[image_rows, j]]
        moved_down[:, j] -= size[j]
        image_rows = np.concatenate(
            [image_rows, image_rows[up[image_rows, j]], image_rows[down[image_rows, j]]]
        )
        image_points = np.concatenate([image_points, moved_up, moved_down])
    all_points = np.ascontiguousarray(image_points)
    all_rows = rows[image_rows]
    return all_points, all_rows, brute


# -- the tree ---------------------------------------------------------------------------


class cKDTree:  # noqa: N801 (SciPy's name)
    """A k-d tree with SciPy's ``cKDTree`` interface, searched by patrec's tree.

    ``patrec.spatial.cKDTree`` takes the arguments of ``scipy.spatial.cKDTree`` and
    answers every query with the same values, shapes and types: the same neighbours,
    the same distances bit for bit (cKDTree's own arithmetic decides what is within
    a radius), ``k`` beyond ``n`` padded with ``inf`` and ``n``, a 1-D point
    answered with Python scalars.  The search runs on
    `patrec.neighbors.BranchBoundTree` (one tree per Minkowski ``p`` asked for);
    see the Notes for what differs.

    Parameters
    ----------
    data : array-like of shape (n, m)
        The n data points of dimension m.  Kept as float64 in C order: not copied
        when it already is such an array (changing it afterwards then changes the
        answers, as in SciPy) unless ``copy_data=True``.
    leafsize : int, default=16
        The most points in a leaf of the tree (patrec's ``leaf_size``).  Changes
        the speed, never an answer.
    compact_nodes : bool, default=True
        Accepted for SciPy's sake.  patrec's tree always fits each node's box to
        its points; the answers never depend on it.
    copy_data : bool, default=False
        Always copy ``data`` (the tree is then safe from later changes to it).
    balanced_tree : bool, default=True
        Accepted for SciPy's sake.  patrec's tree always splits at the median of
        the widest feature; the answers never depend on it.
    boxsize : array-like of shape (m,) or float, default=None
        A periodic (toroidal) box: dimension i wraps around with period
        ``boxsize[i]`` (0: not periodic).  The data must lie in ``[0, boxsize)``;
        query points are wrapped into it.

    Attributes
    ----------
    data : ndarray of shape (n, m)
        The data points (float64).
    n : int
        The number of points.
    m : int
        Their dimension.
    leafsize : int
        The most points in a leaf.
    maxes, mins : ndarray of shape (m,)
        The largest and smallest value of each dimension.
    boxsize : ndarray of shape (m,) or None
        The periodic box.
    size : int
        The number of nodes of the tree (that of ``p = 2``).
    indices : ndarray of shape (n,)
        The data points' indices in the tree's order (``tree`` refers to it).
    tree : cKDTreeNode
        A Python view of the root of the tree of ``p = 2``.

    Notes
    -----
    What is the same as ``scipy.spatial.cKDTree``: the arguments, the shapes and
    types of every answer, which points are returned (the same arithmetic
    decides), the distances (the same floating-point numbers), the error
    messages for the inputs SciPy refuses.

    What differs, and why:

    - ``eps > 0`` (an approximate search in SciPy) gets the exact answer, which
      meets SciPy's promise of an approximation: the k-th distance is within
      ``1 + eps`` of the true one (it is the true one), a ball holds every point
      within ``r / (1 + eps)`` and none beyond ``r * (1 + eps)``.  (SciPy may
      return more than the exact ball, and its ``query_pairs`` does.)
    - Neighbours at equal distance come lower index first; SciPy does not say in
      which order it returns them.  Lists of indices (``query_ball_point``,
      ``query_ball_tree``) and the pairs of ``query_pairs(output_type="ndarray")``
      and ``sparse_distance_matrix`` come sorted, whatever ``return_sorted``
      says (SciPy: in the order of its tree, unless asked to sort).
    - Weighted ``count_neighbors`` adds the weights' products in another order
      than SciPy: equal up to rounding (exactly equal for integer weights).
    - Refused where SciPy goes on: complex data (SciPy's cKDTree drops the
      imaginary part), a negative or infinite ``boxsize``, a negative ``eps``, and
      in ``query`` data whose distances leave the float64 range (patrec's tree
      refuses them by name: squares beyond 1e308, where SciPy reports no
      neighbour, or distinct points whose squared differences all underflow to
      0, where SciPy reports distance 0).
    - Memory: patrec's tree holds its own copy of the data (one per ``p`` used).

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.spatial import cKDTree
    >>> x, y = np.mgrid[0:5, 2:8]
    >>> tree = cKDTree(np.c_[x.ravel(), y.ravel()])
    >>> dd, ii = tree.query([[0, 0], [2.2, 2.9]], k=1)
    >>> print(dd, ii, sep="\\n")
    [2.        0.2236068]
    [ 0 13]
    >>> dd, ii = tree.query([[0, 0], [2.2, 2.9]], k=[2])
    >>> print(dd, ii, sep="\\n")
    [[2.23606798]
     [0.80622577]]
    [[ 6]
     [19]]
    >>> tree.query([0, 0])
    (2.0, 0)
    >>> tree.query_ball_point([2, 4], 1)
    [8, 13, 14, 15, 20]
    """

    _default_leafsize = 16

    def __init__(
        self,
        data,
        leafsize=16,
        compact_nodes=True,
        copy_data=False,
        balanced_tree=True,
        boxsize=None,
    ):
        if np.iscomplexobj(data):
            raise TypeError(
                f"{type(self).__name__} does not work with complex data: pass the "
                "real part (data.real) or both parts as columns."
            )
        # (copy=None, "only if needed", is NumPy 2's; asarray is the same on 1.25)
        data = (np.array if copy_data else np.asarray)(
            data, order="C", dtype=np.float64
        )
        if data.ndim != 2:
            raise ValueError(
                "data must be of shape (n, m), where there are n points of dimension m"
            )
        if not np.isfinite(data).all():
            raise ValueError("data must be finite, check for nan or inf values")
        if isinstance(leafsize, (bool, np.bool_)):
            raise TypeError(f"leafsize must be an integer, got {leafsize!r}.")
        try:
            leafsize = operator.index(leafsize)
        except TypeError:
            raise TypeError(f"leafsize must be an integer, got {leafsize!r}.") from None
        if leafsize < 1:
            raise ValueError("leafsize must be at least 1")
        n, m = data.shape
        box = None
        if boxsize is not None:
            sizes = np.empty(m, dtype=np.float64)
            sizes[...] = boxsize
            if not (np.isfinite(sizes).all() and (sizes >= 0).all()):
                raise ValueError(
                    f"boxsize must be finite and >= 0 in every dimension (0: not "
                    f"periodic), got {boxsize!r}."
                )
            periodic = sizes > 0
            if (data >= sizes[None, :])[:, periodic].any():
                raise ValueError(
                    "Some input data are greater than the size of the periodic box."
                )
            if (data < 0)[:, periodic].any():
                raise ValueError("Negative input data are outside of the periodic box.")
            box = np.concatenate([sizes, 0.5 * sizes])
            boxsize = sizes
        self._data = data
        self._leafsize = int(leafsize)
        self._box = box
        self._boxsize = boxsize
        self._maxes = np.ascontiguousarray(
            np.amax(data, axis=0) if n > 0 else np.zeros(m), dtype=np.float64
        )
        self._mins = np.ascontiguousarray(
            np.amin(data, axis=0) if n > 0 else np.zeros(m), dtype=np.float64
        )
        self._lock = threading.Lock()
        self._indexes = {}
        self._python_tree = None
        if n > 0:
            self._index(2.0)

    # -- attributes --------------------------------------------------------------------

    @property
    def data(self):
        return self._data

    @property
    def n(self):
        return int(self._data.shape[0])

    @property
    def m(self):
        return int(self._data.shape[1])

    @property
    def leafsize(self):
        return self._leafsize

    @property
    def maxes(self):
        return self._maxes

    @property
    def mins(self):
        return self._mins

    @property
    def boxsize(self):
        return self._boxsize

    @property
    def size(self):
        if self.n == 0:
            return 1  # (SciPy's tree of no points is one empty leaf)
        return int(self._index(2.0)._tree.kd_nodes.shape[0])

    @property
    def indices(self):
        if self.n == 0:
            return np.empty(0, dtype=np.intp)
        return self._index(2.0)._tree.order

    @property
    def tree(self):
        if self._python_tree is None:
            self._python_tree = self._make_view()
        return self._python_tree

    def _make_view(self):
        if self.n == 0:
            return cKDTreeNode._leaf(self, 0, 0, 0)
        return cKDTreeNode._build(self, self._index(2.0)._tree)

    # -- the indexes ---------------------------------------------------------------------

    def _index(self, p):
        """patrec's tree for the Minkowski order ``p`` (made once, then kept)."""
        key = float(p)
        index = self._indexes.get(key)
        if index is None:
            with self._lock:
                index = self._indexes.get(key)
                if index is None:
                    if key == 2:
                        metric = {"metric": "euclidean"}
                    elif key == 1:
                        metric = {"metric": "cityblock"}
                    elif np.isinf(key):
                        metric = {"metric": "chebyshev"}
                    else:
                        metric = {"metric": "minkowski", "p": key}
                    index = BranchBoundTree(
                        self._data, leaf_size=self._leafsize, **metric
                    )
                    self._indexes[key] = index
        return index

    def _margin(self, p, box, points=None):
        scale = 0.0
        if box is not None:
            scale = float(np.max(box[: self.m], initial=0.0))
            scale += float(np.max(np.abs(self._data), initial=0.0))
            if points is not None and points.size:
                scale += float(np.max(np.abs(points)))
        return _Margin(self.m, p, scale)

    def _points(self, x):
        """``(points, shape, single)``: the query points as an (N, m) float64 array,
        the leading shape of ``x`` and whether ``x`` was one point."""
        if np.iscomplexobj(x):
            raise TypeError(
                f"{type(self).__name__} does not work with complex data: query "
                "with the real part."
            )
        array = np.ascontiguousarray(x, dtype=np.float64)
        if array.ndim == 0 or array.shape[-1] != self.m:
            raise ValueError(
                f"x must consist of vectors of length {self.m} but has shape "
                f"{np.shape(x)}"
            )
        if not np.isfinite(array).all():
            raise ValueError("'x' must be finite, check for nan or inf values")
        shape = array.shape[:-1]
        points = array.reshape(-1, self.m)
        if self._box is not None:
            points = _wrap_positions(points, self._box)
        return points, shape, array.ndim == 1

    def _check_overflow(self, points, p, other=None):
        """cKDTree refuses a finite p so large that the distance across the box of
        the search overflows; so does this (its message)."""
        if np.isinf(p) or p == 1:
            return
        if other is None:
            low, high = points, points
            other_low, other_high = self._mins[None, :], self._maxes[None, :]
        else:
            low, high = self._mins[None, :], self._maxes[None, :]
            other_low, other_high = other._mins[None, :], other._maxes[None, :]
        with np.errstate(over="ignore", invalid="ignore"):
            far = np.maximum(high - other_low, other_high - low)
            if self._box is not None:
                half = self._box[self.m :]
                far = np.where(half > 0, np.minimum(np.abs(far), half), np.abs(far))
            total = (far * far).sum(axis=1) if p == 2 else _pow(far, p).sum(axis=1)
        if not np.isfinite(total).all():
            raise ValueError(
                "Encountering floating point overflow. The value of p too large for "
                "this dataset; For such large p, consider using the special case "
                "p=np.inf . "
            )

    # -- k nearest neighbours --------------------------------------------------------

    def query(
        self,
        x,
        k=1,
        eps=0.0,
        p=2.0,
        distance_upper_bound=np.inf,
        workers=None,
        **kwargs,
    ):
        """Query the tree for the nearest neighbours of each point.

        Parameters
        ----------
        x : array-like of shape (..., m)
            The points to query.
        k : int or sequence of int, default=1
            An integer k asks for the 1st to k-th neighbours; a sequence for the
            neighbours of those ranks (counting from 1), e.g. ``[1, 3]``.
        eps : float, default=0.0
            SciPy's approximation factor (non-negative).  The exact neighbours are
            returned whatever it is (they meet its promise: the k-th distance within
            ``1 + eps`` of the true one).
        p : float, default=2.0
            The Minkowski p-norm, ``1 <= p <= inf``.
        distance_upper_bound : float, default=inf
            Report only neighbours nearer than this (strictly); the others as
            distance ``inf`` and index ``n``.
        workers : int, default=None
            Threads over the points (None: 1; -1: every core).

        Returns
        -------
        d : float or ndarray of float
            The distances, of shape ``x.shape[:-1] + (len(k),)``; for an integer
            ``k == 1`` the last axis is squeezed, and one 1-D point gets a Python
            float.  Missing neighbours (``k`` beyond ``n``, or beyond
            ``distance_upper_bound``) are ``inf``.
        i : int or ndarray of intp
            The indices of the neighbours in ``data``, shaped as ``d``; missing
            ones are ``n``.  Equal distances come lower index first.

        Examples
        --------
        >>> import numpy as np
        >>> from patrec.spatial import cKDTree
        >>> tree = cKDTree([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
        >>> tree.query([[0.1, 0.0]], k=2)
        (array([[0.1, 0.9]]), array([[0, 1]]))
        >>> tree.query([0.1, 0.0], k=[1, 3])
        (array([0.1       , 2.00249844]), array([0, 2]))
        >>> distances, indices = tree.query([0.1, 0.0], k=5)
        >>> distances[3:], indices
        (array([inf, inf]), array([0, 1, 2, 3, 3]))
        >>> tree.query([0.0, 0.0], k=2, distance_upper_bound=1.0)
        (array([ 0., inf]), array([0, 3]))
        """
        ranks, squeeze = _check_k(k)
        n_threads = _workers(workers, kwargs, "query")
        points, shape, single = self._points(x)
        p = _check_p(p)
        _check_eps(eps)
        upper = float(distance_upper_bound)
        reduced, index = self._knn(points, int(ranks.max()), p, upper, n_threads)
        reduced, index = reduced[:, ranks - 1], index[:, ranks - 1]
        distances = _distance(reduced, p).reshape(shape + (len(ranks),))
        index = index.reshape(shape + (len(ranks),))
        if squeeze:
            distances, index = distances[..., 0], index[..., 0]
            if single:
                return float(distances), self._one_index(index)
        return distances, index

    @staticmethod
    def _one_index(index):
        return int(index)

    def _knn(self, points, k, p, upper, n_threads):
        """The k nearest of each point: ``(reduced, index)`` of shape
        ``(n_points, k)``, cKDTree's reduced distances (inf where missing) and
        indices (n where missing)."""
        n_points, n = points.shape[0], self.n
        reduced = np.full((n_points, k), np.inf)
        found = np.full((n_points, k), n, dtype=np.intp)
        if n_points == 0 or n == 0:
            return reduced, found
        upper_reduced = float(_bound_reduced(upper, p))
        periodic = self._box is not None
        box_array = np.empty(0) if self._box is None else self._box
        n_candidates = min(k if periodic else k + 1, n)
        index = self._index(p)
        distance, candidates = index.query(points, k=n_candidates, n_jobs=n_threads)
        candidates = np.ascontiguousarray(candidates, dtype=np.intp)
        measured = np.empty(candidates.shape, dtype=np.float64)
        kind = _kind(p)

        def rank(start, stop):
            _exact.rank_candidates(
                kind,
                p,
                self._data,
                points[start:stop],
                candidates[start:stop],
                measured[start:stop],
                box_array,
            )

        run_row_ranges(rank, n_points, n_threads)
        kept = min(k, n_candidates)
        reduced[:, :kept] = measured[:, :kept]
        found[:, :kept] = candidates[:, :kept]
        if n_candidates == n:  # every point is a candidate: the ranking is the answer
            again = np.zeros(n_points, dtype=bool)
        elif periodic:
            again = np.ones(n_points, dtype=bool)
        else:
            # Every other point is at least as far as the last candidate for patrec;
            # the k found are the answer when cKDTree's distance of the k-th is below
            # what that can be for cKDTree (or beyond the upper bound anyway).
            margin = self._margin(p, None)
            beyond = _reduced_below(margin.below(distance[:, -1]), p)
            again = ~((measured[:, k - 1] < beyond) | (upper_reduced <= beyond))
        if again.any():
            rows = np.flatnonzero(again)
            # the k-th of the candidates' distances (the last for a periodic box,
            # whose candidates are the k nearest without the period)
            bound = measured[rows, k - 1 if not periodic else n_candidates - 1]
            limit = np.full(n_points, -1.0)
            limit[rows] = np.minimum(bound, upper_reduced)
            pair_rows, pair_cols, pair_reduced = _pairs_within(
                self, points, limit, p, self._box, n_threads
            )
            order = np.lexsort((pair_cols, pair_reduced, pair_rows))
            pair_rows, pair_cols, pair_reduced = (
                pair_rows[order],
                pair_cols[order],
                pair_reduced[order],
            )
            starts = np.searchsorted(pair_rows, rows)
            ends = np.searchsorted(pair_rows, rows, side="right")
            reduced[rows] = np.inf
            found[rows] = n
            counts = np.minimum(ends - starts, k)
            owner = np.repeat(rows, counts)
            rank_in_row = np.arange(counts.sum()) - np.repeat(
                np.cumsum(counts) - counts, counts
            )
            source = np.repeat(starts, counts) + rank_in_row
            reduced[owner, rank_in_row] = pair_reduced[source]
            found[owner, rank_in_row] = pair_cols[source]
        missing = ~(reduced < upper_reduced)  # cKDTree keeps d < bound only
        reduced[missing] = np.inf
        found[missing] = n
        return reduced, found

    # -- balls -------------------------------------------------------------------------

    def query_ball_point(
        self,
        x,
        r,
        p=2.0,
        eps=0.0,
        workers=None,
        return_sorted=None,
        return_length=False,
        **kwargs,
    ):
        """Find every data point within distance ``r`` of each point.

        Parameters
        ----------
        x : array-like of shape (..., m)
            The points.
        r : float or array-like of floats
            The radius, or one per point (broadcast to ``x.shape[:-1]``).  A data
            point at distance exactly ``r`` is in, as in SciPy (its arithmetic:
            the squared distance against ``r * r`` for ``p = 2``).
        p : float, default=2.0
            The Minkowski p-norm, ``1 <= p <= inf``.
        eps : float, default=0.0
            SciPy's approximation factor; the exact ball is returned whatever it is.
        workers : int, default=None
            Threads over the points (None: 1; -1: every core).
        return_sorted : bool, default=None
            Accepted for SciPy's sake: the indices always come sorted (a valid
            answer whatever it asks).
        return_length : bool, default=False
            Return the number of points in each ball instead of their indices.

        Returns
        -------
        result : list, ndarray of lists, int or ndarray of int
            For one 1-D point a list of indices (or their number); otherwise an
            object array of shape ``x.shape[:-1]`` holding one list per point (or an
            intp array of the numbers).

        Examples
        --------
        >>> import numpy as np
        >>> from patrec.spatial import cKDTree
        >>> x, y = np.mgrid[0:4, 0:4]
        >>> tree = cKDTree(np.c_[x.ravel(), y.ravel()])
        >>> tree.query_ball_point([2, 0], 1)
        [4, 8, 9, 12]
        >>> tree.query_ball_point([[2, 0], [3, 3]], [1, 0.5], return_length=True)
        array([4, 1])
        """
        n_threads = _workers(workers, kwargs, "query_ball_point")
        points, shape, single = self._points(x)
        p = _check_p(p)
        _check_eps(eps)
        radii = np.empty(shape, dtype=np.float64)
        radii[...] = r
        radii = radii.reshape(-1)
        self._check_overflow(points, p)
        limit = _bound_reduced(radii, p)
        rows, cols, _ = _pairs_within(
            self, points, limit, p, self._box, n_threads, sort="pairs"
        )
        counts = np.bincount(rows, minlength=points.shape[0])
        if return_length:
            result = counts.astype(np.intp).reshape(shape)
        else:
            result = _object_lists(cols, counts).reshape(shape)
        return result[()] if single else result

    def query_ball_tree(self, other, r, p=2.0, eps=0.0):
        """Find every pair of points of this tree and ``other`` within distance ``r``.

        Parameters
        ----------
        other : cKDTree
            The tree to search (a ``patrec.spatial`` tree of the same dimension).
        r : float
            The largest distance.
        p : float, default=2.0
            The Minkowski p-norm, ``1 <= p <= inf``.
        eps : float, default=0.0
            SciPy's approximation factor; the exact pairs are returned whatever it is.

        Returns
        -------
        results : list of lists
            ``results[i]``: the indices in ``other.data`` within ``r`` of
            ``self.data[i]``, sorted.

        Examples
        --------
        >>> from patrec.spatial import cKDTree
        >>> a = cKDTree([[0.0, 0.0], [1.0, 1.0]])
        >>> b = cKDTree([[0.0, 0.5], [5.0, 5.0], [1.0, 0.5]])
        >>> a.query_ball_tree(b, 0.5)
        [[0], [2]]
        >>> a.query_ball_tree(b, 1.2)
        [[0, 2], [0, 2]]
        """
        _other_tree(self, other, "query_ball_tree")
        p = _check_p(p)
        _check_eps(eps)
        r = float(r)
        self._check_overflow(None, p, other)
        limit = np.full(self.n, float(_bound_reduced(r, p)))
        rows, cols, _ = _pairs_within(
            other, self._data, limit, p, self._box, 1, sort="pairs"
        )
        counts = np.bincount(rows, minlength=self.n)
        return list(_object_lists(cols, counts))

    def query_pairs(self, r, p=2.0, eps=0.0, output_type="set"):
        """Find every pair of points of the tree within distance ``r``.

        Parameters
        ----------
        r : float
            The largest distance.
        p : float, default=2.0
            The Minkowski p-norm, ``1 <= p <= inf``.
        eps : float, default=0.0
            SciPy's approximation factor; the exact pairs are returned whatever it
            is (SciPy's approximation may add pairs up to ``r * (1 + eps)``).
        output_type : {"set", "ndarray"}, default="set"
            A set of tuples, or an (n_pairs, 2) intp array (sorted by ``i``, then
            ``j``).

        Returns
        -------
        results : set or ndarray
            The pairs ``(i, j)``, ``i < j``.

        Examples
        --------
        >>> from patrec.spatial import cKDTree
        >>> tree = cKDTree([[0.0], [1.0], [1.5], [4.0]])
        >>> sorted(tree.query_pairs(1.0))
        [(0, 1), (1, 2)]
        >>> tree.query_pairs(1.5, output_type="ndarray")
        array([[0, 1],
               [0, 2],
               [1, 2]])
        """
        if output_type not in ("set", "ndarray"):
            raise ValueError("Invalid output type")
        p = _check_p(p)
        _check_eps(eps)
        r = float(r)
        self._check_overflow(None, p, self)
        limit = np.full(self.n, float(_bound_reduced(r, p)))
        rows, cols, _ = _pairs_within(
            self,
            self._data,
            limit,
            p,
            self._box,
            1,
            upper_only=True,
            sort="pairs" if output_type == "ndarray" else False,
        )
        if output_type == "set":
            return set(zip(rows.tolist(), cols.tolist()))
        if rows.size == 0:
            return np.empty((0, 2), dtype=np.intp)
        return np.column_stack([rows, cols]).astype(np.intp, copy=False)

    def count_neighbors(self, other, r, p=2.0, weights=None, cumulative=True):
        """Count the pairs of points of this tree and ``other`` within distance ``r``.

        Parameters
        ----------
        other : cKDTree
            The other tree (may be this one).
        r : float or 1-D array-like of floats
            The radius, or several (then counted in one search).  With
            ``cumulative=False`` they are the edges of bins and must not decrease.
        p : float, default=2.0
            The Minkowski p-norm, ``1 <= p <= inf``.
        weights : tuple, array-like or None, default=None
            None: count pairs.  A tuple ``(self_weights, other_weights)``, either
            of them None for ones: add up the products of the pairs' weights.  One
            array: the weights of both, when ``other`` is this tree.
        cumulative : bool, default=True
            True: the pairs with distance ``<= r[i]``; False: those with
            ``r[i - 1] < distance <= r[i]`` (``-inf`` before the first).

        Returns
        -------
        result : int, float or ndarray
            The counts (int; float when weighted), a scalar for a scalar ``r``.

        Examples
        --------
        >>> from patrec.spatial import cKDTree
        >>> a = cKDTree([[0.0], [1.0], [2.0]])
        >>> a.count_neighbors(a, 1.0)
        7
        >>> a.count_neighbors(a, [0.5, 1.0, 2.0], cumulative=False)
        array([3, 4, 2])
        """
        _other_tree(self, other, "count_neighbors")
        p = _check_p(p)
        r_ndim = np.ndim(r)
        if r_ndim > 1:
            raise ValueError(
                "r must be either a single value or a one-dimensional array of values"
            )
        radii = np.array(r, ndmin=1, dtype=np.float64, copy=True)
        if np.isnan(radii).any():
            raise ValueError(f"r must hold numbers, got NaN in {r!r}.")
        if not cumulative and (np.diff(radii) < 0).any():
            raise ValueError("r must be non-decreasing for non-cumulative counting.")
        radii, first, inverse = np.unique(radii, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        reduced = _count_reduced(radii, p)
        if (np.diff(reduced) < 0).any():
            raise ValueError(
                f"count_neighbors: the radii {radii.tolist()} are not in the order of "
                f"their {p:g}-th powers (a negative radius); count with r >= 0."
            )
        self_weights, other_weights = _weights(self, other, weights)
        weighted = self_weights is not None or other_weights is not None
        n_radii = len(radii)
        counts = np.zeros(n_radii + 1, dtype=np.float64 if weighted else np.intp)
        self._check_overflow(None, p, other)
        # radii beyond the farthest pair hold every pair: no search for them
        everything = self._reach(other, p)
        whole = np.flatnonzero(reduced >= everything)
        searched = reduced[: whole[0]] if whole.size else reduced
        searched = searched[searched >= 0]  # (no pair is nearer than 0, or NaN)
        if searched.size and self.n and other.n:
            limit = np.full(self.n, float(searched.max()))

            def count(rows, cols, pair_reduced):
                bins = np.searchsorted(reduced, pair_reduced, side="left")
                if weighted:
                    products = _weight_of(self_weights, rows) * _weight_of(
                        other_weights, cols
                    )
                    counts[:] += np.bincount(
                        bins, weights=products, minlength=n_radii + 1
                    )
                else:
                    counts[:] += np.bincount(bins, minlength=n_radii + 1)

            _pairs_within(other, self._data, limit, p, self._box, 1, consume=count)
        if whole.size:
            if weighted:
                total = _total(self_weights, self.n) * _total(other_weights, other.n)
            else:
                total = self.n * other.n
            counts[whole[0]] = total - counts[: whole[0]].sum()
            counts[whole[0] + 1 :] = 0
        results = counts[:n_radii]
        if cumulative:
            results = np.cumsum(results)[inverse]
        else:
            spread = np.zeros(len(inverse), dtype=results.dtype)
            spread[first] = results[inverse][first]
            results = spread
        if r_ndim == 0:
            return results[0] if weighted else int(results[0])
        return results

    def _reach(self, other, p):
        """A reduced distance that no pair of this tree and ``other`` exceeds (with
        a margin for rounding), or inf."""
        if self.n == 0 or other.n == 0:
            return -np.inf
        far = np.maximum(self._maxes - other._mins, other._maxes - self._mins)
        if self._box is not None:
            half = self._box[self.m :]
            inside = ((other._mins >= 0) & (other._maxes < self._box[: self.m])) | (
                half <= 0
            )
            if not inside.all():
                return np.inf
            far = np.where(half > 0, np.minimum(np.abs(far), half), np.abs(far))
        margin = _Margin(self.m, p, float(np.max(far, initial=0.0)))
        return float(_bound_reduced(margin.above(_reach_distance(far, p)), p))

    def sparse_distance_matrix(
        self, other, max_distance, p=2.0, output_type="dok_matrix"
    ):
        """The distances between the points of this tree and ``other`` up to
        ``max_distance``, as a sparse matrix.

        Parameters
        ----------
        other : cKDTree
            The other tree.
        max_distance : float
            The largest distance kept (a pair at exactly that distance is in).
        p : float, default=2.0
            The Minkowski p-norm, ``1 <= p <= inf``.
        output_type : {"dok_matrix", "coo_matrix", "dict", "ndarray"}, default="dok_matrix"
            The container: a ``scipy.sparse`` dok or coo matrix, a dict
            ``{(i, j): distance}``, or a record array with fields ``i``, ``j``, ``v``
            (sorted by ``i``, then ``j``).

        Returns
        -------
        result : dok_matrix, coo_matrix, dict or ndarray
            Entry ``(i, j)``: the distance between ``self.data[i]`` and
            ``other.data[j]``.

        Examples
        --------
        >>> from patrec.spatial import cKDTree
        >>> a = cKDTree([[0.0, 0.0], [3.0, 0.0]])
        >>> b = cKDTree([[0.0, 1.0], [3.0, 4.0]])
        >>> a.sparse_distance_matrix(b, 3.5, output_type="dict")
        {(0, 0): 1.0, (1, 0): 3.1622776601683795}
        >>> a.sparse_distance_matrix(b, 4.0).toarray()
        array([[1.        , 0.        ],
               [3.16227766, 4.        ]])
        """
        if output_type not in ("dok_matrix", "coo_matrix", "dict", "ndarray"):
            raise ValueError("Invalid output type")
        _other_tree(self, other, "sparse_distance_matrix")
        p = _check_p(p)
        max_distance = float(max_distance)
        self._check_overflow(None, p, other)
        limit = np.full(self.n, float(_bound_reduced(max_distance, p)))
        rows, cols, reduced = _pairs_within(
            other, self._data, limit, p, self._box, 1, sort=True
        )
        values = _distance(reduced, p)
        if output_type == "dict":
            return dict(zip(zip(rows.tolist(), cols.tolist()), values.tolist()))
        if output_type == "ndarray":
            record = np.dtype(
                [("i", np.intp), ("j", np.intp), ("v", np.float64)], align=True
            )
            out = np.empty(len(rows), dtype=record)
            out["i"], out["j"], out["v"] = rows, cols, values
            return out
        import scipy.sparse

        matrix = scipy.sparse.coo_matrix(
            (values, (rows, cols)), shape=(self.n, other.n)
        )
        return matrix if output_type == "coo_matrix" else matrix.todok()

    # -- weights, pickling ---------------------------------------------------------------

    def _build_weights(self, weights):
        """The total weight of each node of the tree, in the order of a depth-first
        walk (node, its lesser subtree, its greater subtree), as SciPy's private
        ``cKDTree._build_weights``."""
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        if len(weights) != self.n:
            raise ValueError("Number of weights differ from the number of data points")
        nodes = _preorder(self)
        if self.n == 0:
            return np.zeros(1)
        kd = self._index(2.0)._tree.kd_nodes
        order = self._index(2.0)._tree.order
        totals = np.zeros(len(kd))
        for node in reversed(nodes):
            child, dim, start, end = kd[node]
            if dim < 0:
                total = 0.0
                for position in range(start, end):
                    total += weights[order[position]]
                totals[node] = total
            else:
                totals[node] = totals[child] + totals[child + 1]
        return totals[nodes]

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_indexes"] = {
            key: value for key, value in self._indexes.items() if key == 2
        }
        state["_python_tree"] = None
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()


def _reach_distance(far, p):
    """The distance of the per-dimension extents ``far`` (a bound; rounding is the
    caller's margin)."""
    if np.isinf(p):
        return float(np.max(far, initial=0.0))
    if p == 1:
        return float(np.sum(far))
    if p == 2:
        with np.errstate(over="ignore"):
            return float(np.sqrt(np.sum(far * far)))
    largest = float(np.max(far, initial=0.0))
    if largest == 0:
        return 0.0
    return largest * float(np.sum((far / largest) ** p) ** (1.0 / p))


def _weights(self, other, weights):
    if weights is None:
        return None, None
    if isinstance(weights, tuple):
        self_weights, other_weights = weights
    else:
        if other is not self:
            raise ValueError(
                "Two different trees are used. Specify weights for both in a tuple."
            )
        self_weights = other_weights = weights
    if self_weights is not None:
        self_weights = np.ascontiguousarray(self_weights, dtype=np.float64)
        if self_weights.shape != (self.n,):
            raise ValueError("Number of weights differ from the number of data points")
    if other_weights is not None:
        other_weights = np.ascontiguousarray(other_weights, dtype=np.float64)
        if other_weights.shape != (other.n,):
            raise ValueError("Number of weights differ from the number of data points")
    return self_weights, other_weights


def _weight_of(weights, rows):
    return 1.0 if weights is None else weights[rows]


def _total(weights, n):
    return float(n) if weights is None else float(np.sum(weights))


def _object_lists(cols, counts):
    """A 1-D object array of Python lists: ``counts[i]`` consecutive ``cols`` each."""
    flat = cols.tolist()
    ends = np.cumsum(counts).tolist()
    out = np.empty(len(counts), dtype=object)
    start = 0
    for i, end in enumerate(ends):
        out[i] = flat[start:end]
        start = end
    return out


def _preorder(tree):
    """The nodes of the ``p = 2`` tree in depth-first order."""
    if tree.n == 0:
        return [0]
    kd = tree._index(2.0)._tree.kd_nodes
    nodes, stack = [], [0]
    while stack:
        node = stack.pop()
        nodes.append(node)
        child, dim = kd[node, 0], kd[node, 1]
        if dim >= 0:
            stack.extend([child + 1, child])
    return nodes


class cKDTreeNode:  # noqa: N801 (SciPy's name)
    """A read-only view of one node of a `cKDTree` (SciPy's ``cKDTreeNode``).

    Attributes
    ----------
    level : int
        The depth of the node (0: the root).
    split_dim : int
        The dimension the node is split along; -1 for a leaf.
    split : float
        The points with ``value >= split`` in ``split_dim`` are in ``greater``,
        the others in ``lesser``.
    children : int
        The number of data points in the node.
    start_idx, end_idx : int
        The node's points are ``indices[start_idx:end_idx]`` of the tree.
    lesser, greater : cKDTreeNode or None
        The two halves (None at a leaf).
    indices : ndarray of intp
        The indices of the node's data points.
    data_points : ndarray of shape (children, m)
        The node's data points.

    Examples
    --------
    >>> from patrec.spatial import cKDTree
    >>> root = cKDTree([[0.0], [1.0], [2.0], [3.0]], leafsize=2).tree
    >>> root.split_dim, root.split, root.children
    (0, 2.0, 4)
    >>> sorted(root.lesser.indices.tolist()), sorted(root.greater.indices.tolist())
    ([0, 1], [2, 3])
    """

    __slots__ = (
        "level",
        "split_dim",
        "split",
        "children",
        "start_idx",
        "end_idx",
        "lesser",
        "greater",
        "_owner",
    )

    @classmethod
    def _leaf(cls, owner, level, start, end):
        node = cls.__new__(cls)
        node.level, node.split_dim, node.split = level, -1, 0.0
        node.children, node.start_idx, node.end_idx = end - start, start, end
        node.lesser = node.greater = None
        node._owner = owner
        return node

    @classmethod
    def _build(cls, owner, search_tree):
        kd = search_tree.kd_nodes
        cuts = search_tree.kd_cuts

        def make(number, level):
            child, dim, start, end = (int(value) for value in kd[number])
            node = cls._leaf(owner, level, start, end)
            if dim >= 0:
                node.split_dim = dim
                node.split = float(cuts[child + 1, 0])
                node.lesser = make(child, level + 1)
                node.greater = make(child + 1, level + 1)
            return node

        return make(0, 0)

    @property
    def indices(self):
        return self._owner.indices[self.start_idx : self.end_idx]

    @property
    def data_points(self):
        return self._owner.data[self.indices, :]


class KDTree(cKDTree):
    """A k-d tree with SciPy's ``KDTree`` interface, searched by patrec's tree.

    `cKDTree` with SciPy's ``KDTree`` differences: the default ``leafsize`` is 10,
    complex data and queries are refused, a query of one point for ``k=1`` returns
    its index as a numpy integer, and ``tree`` is a view made of ``KDTree.node``
    objects (``KDTree.leafnode`` with ``idx`` and ``children``,
    ``KDTree.innernode`` with ``split_dim``, ``split``, ``less``, ``greater`` and
    ``children``).

    Parameters
    ----------
    data : array-like of shape (n, m)
        The data points (see `cKDTree`).
    leafsize : int, default=10
        The most points in a leaf.
    compact_nodes : bool, default=True
        Accepted; never changes an answer.
    copy_data : bool, default=False
        Always copy ``data``.
    balanced_tree : bool, default=True
        Accepted; never changes an answer.
    boxsize : array-like of shape (m,) or float, default=None
        A periodic box (see `cKDTree`).

    Examples
    --------
    >>> import numpy as np
    >>> from patrec.spatial import KDTree
    >>> tree = KDTree(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]))
    >>> distance, index = tree.query([0.9, 0.9])
    >>> round(distance, 6), int(index), type(index).__name__
    (0.141421, 1, 'int64')
    >>> isinstance(tree.tree, KDTree.leafnode)
    True
    """

    _default_leafsize = 10

    class node:  # noqa: N801 (SciPy's names)
        """A node of ``KDTree.tree`` (SciPy's ``KDTree.node``)."""

        @staticmethod
        def _create(ckdtree_node=None):
            if ckdtree_node is None:
                return KDTree.node(ckdtree_node)
            if ckdtree_node.split_dim == -1:
                return KDTree.leafnode(ckdtree_node)
            return KDTree.innernode(ckdtree_node)

        def __init__(self, ckdtree_node=None):
            self._node = ckdtree_node

        def __lt__(self, other):
            return id(self) < id(other)

        def __gt__(self, other):
            return id(self) > id(other)

        def __le__(self, other):
            return id(self) <= id(other)

        def __ge__(self, other):
            return id(self) >= id(other)

        def __eq__(self, other):
            return id(self) == id(other)

        __hash__ = object.__hash__

    class leafnode(node):  # noqa: N801
        """A leaf of ``KDTree.tree``."""

        @property
        def idx(self):
            return self._node.indices

        @property
        def children(self):
            return self._node.children

    class innernode(node):  # noqa: N801
        """An inner node of ``KDTree.tree``."""

        def __init__(self, ckdtreenode):
            super().__init__(ckdtreenode)
            self.less = KDTree.node._create(ckdtreenode.lesser)
            self.greater = KDTree.node._create(ckdtreenode.greater)

        @property
        def split_dim(self):
            return self._node.split_dim

        @property
        def split(self):
            return self._node.split

        @property
        def children(self):
            return self._node.children

    def __init__(
        self,
        data,
        leafsize=10,
        compact_nodes=True,
        copy_data=False,
        balanced_tree=True,
        boxsize=None,
    ):
        super().__init__(
            data, leafsize, compact_nodes, copy_data, balanced_tree, boxsize
        )

    @property
    def tree(self):
        if self._python_tree is None:
            self._python_tree = KDTree.node._create(self._make_view())
        return self._python_tree

    @staticmethod
    def _one_index(index):
        return np.intp(index)

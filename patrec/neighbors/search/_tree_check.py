"""The arrays of a search tree read back from a pickle, checked before any search.

The compiled search trusts its tree: child pointers, sample ranges and the depth
(which sizes its stack) are followed without bounds checks.  A tree built here
satisfies them by construction; one read from a file may not (a damaged or
tampered pickle), and would make the search read or write outside its arrays.
`check_tree_fields` verifies every such invariant, in O(n_samples + n_nodes) NumPy
operations, and raises a ValueError naming the first that fails.
"""

import numpy as np

__all__ = ["check_tree_fields"]

_N_KINDS = 4  # the metric kinds of _distances.pxd
_MEASURED = ("centers", "radius", "to_center")  # (not in the lean euclidean k-d tree)


class _Damaged(ValueError):
    pass


def check_tree_fields(fields, max_children):
    """Raise a ValueError unless ``fields`` (`SearchTree.__reduce__`'s) make a tree
    the compiled search can follow safely."""
    try:
        _check(fields, max_children)
    except _Damaged as problem:
        raise ValueError(
            f"The pickled search tree is damaged ({problem}); it cannot be searched. "
            "Build the index again from the training data."
        ) from None


def _array(fields, name, dtype, shape):
    array = fields.get(name)
    if not isinstance(array, np.ndarray):
        raise _Damaged(f"{name} is not an array")
    if array.dtype != dtype or not array.flags.c_contiguous:
        raise _Damaged(f"{name} has dtype {array.dtype}, not a contiguous {dtype}")
    if array.shape != shape:
        raise _Damaged(f"{name} has shape {array.shape}, not {shape}")
    return array


def _within(name, values, low, high):
    if values.size and (values.min() < low or values.max() > high):
        raise _Damaged(f"{name} leaves the range {low}..{high}")


def _check(fields, max_children):
    data = fields.get("data")
    if not isinstance(data, np.ndarray) or data.ndim != 2:
        raise _Damaged("data is not a 2-D array")
    if data.dtype not in (np.float32, np.float64) or data.shape[0] < 1:
        raise _Damaged(f"data has dtype {data.dtype} and {data.shape[0]} rows")
    n, d = data.shape
    _array(fields, "data", data.dtype, (n, d))
    order = _array(fields, "order", np.intp, (n,))
    if not (np.bincount(_clipped(order, n), minlength=n) == 1).all():
        raise _Damaged("order is not a permutation of the samples")
    kind, p = fields.get("kind"), fields.get("p")
    if kind not in range(_N_KINDS) or not (isinstance(p, float) and p >= 1):
        raise _Damaged(f"metric kind {kind!r} or p {p!r} is unknown")
    grow, tiny = fields.get("grow"), fields.get("tiny")
    if not (np.isfinite(grow) and grow >= 1 and np.isfinite(tiny) and tiny >= 0):
        raise _Damaged("the rounding margins are not finite numbers above 1 and 0")
    use_boxes = fields.get("use_boxes")
    if use_boxes not in (True, False):
        raise _Damaged("use_boxes is not a flag")
    lean = use_boxes and kind == 0
    if use_boxes:
        kd_nodes = _array(fields, "kd_nodes", np.intp, (len(fields["kd_nodes"]), 4))
        start, end, child, dim = (kd_nodes[:, c] for c in (2, 3, 0, 1))
        nchild = np.where(dim >= 0, 2, 0)
        _within("a cut feature", dim, -1, d - 1)
    if not lean:
        n_nodes = len(
            _array(fields, "node_start", np.intp, (len(fields["node_start"]),))
        )
        start, end, child, nchild = (
            _array(fields, name, np.intp, (n_nodes,))
            for name in ("node_start", "node_end", "node_child", "node_nchild")
        )
        _within("a node's number of children", nchild, 0, max_children)
    n_nodes = len(start)
    if n_nodes < 1:
        raise _Damaged("there are no nodes")
    _within("a node's first sample", start, 0, n)
    _within("a node's last sample", end, 0, n)
    if (start > end).any() or start[0] != 0 or end[0] != n:
        raise _Damaged("a node's samples are not a range inside its parent's")
    depth = _depth(start, end, child, nchild)
    if fields.get("depth") != depth:
        raise _Damaged(f"the depth is {fields.get('depth')!r}, the nodes' is {depth}")
    rows = n_nodes if use_boxes and not lean else 1
    _array(fields, "low", data.dtype, (rows, d))
    _array(fields, "high", data.dtype, (rows, d))
    cut_rows = n_nodes if use_boxes else 1  # (a k-means tree's are placeholders)
    _array(fields, "kd_nodes", np.intp, (cut_rows, 4))
    _array(fields, "kd_cuts", data.dtype, (cut_rows, 2))
    _array(fields, "kd_spans", data.dtype, (cut_rows, 2))
    if lean:
        if any(fields.get(name) is not None for name in _MEASURED):
            raise _Damaged("the lean k-d tree holds measurements")
    else:
        _array(fields, "centers", data.dtype, (n_nodes, d))
        _array(fields, "radius", np.float64, (n_nodes,))
        _array(fields, "to_center", np.float64, (n,))


def _clipped(order, n):
    _within("a training index", order, 0, n - 1)
    return order


def _depth(start, end, child, nchild):
    """The depth of the tree the node arrays describe, after checking that they
    describe one: every node but the root the child of exactly one node with a
    lower number, children splitting their parent's samples in order."""
    n_nodes = len(start)
    internal = np.flatnonzero(nchild > 0)
    first, count = child[internal], nchild[internal]
    if ((first <= internal) | (first + count > n_nodes)).any():
        raise _Damaged("a child pointer leaves the nodes or points back")
    children = np.repeat(first, count) + _ranks(count)
    if (
        not (np.bincount(children, minlength=n_nodes)[1:] == 1).all()
        or (children == 0).any()
    ):
        raise _Damaged("a node is not the child of exactly one node")
    last = first + count - 1
    if (start[first] != start[internal]).any() or (end[last] != end[internal]).any():
        raise _Damaged("a node's children do not cover its samples")
    if (end[children[:-1]] != start[children[1:]])[_not_last(count)].any():
        raise _Damaged("a node's children do not split its samples in order")
    level = np.zeros(n_nodes, dtype=np.intp)
    for node, first_child, n_children in zip(internal, first, count):
        level[first_child : first_child + n_children] = level[node] + 1
    return int(level.max())


def _ranks(count):
    """0, 1, ..., count[i] - 1 for each i, concatenated."""
    total = int(count.sum())
    offsets = np.repeat(np.cumsum(count) - count, count)
    return np.arange(total) - offsets


def _not_last(count):
    """For consecutive children (all of them but the very last): whether the next
    one has the same parent."""
    ends = np.cumsum(count) - 1
    same = np.ones(max(int(count.sum()) - 1, 0), dtype=bool)
    same[ends[:-1]] = False
    return same

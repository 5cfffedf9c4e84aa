"""The course's notation in the reports, and the checks every exercise shares.

Classes are written ω₁ … ω_c (class index 0 of the code is ω₁), weight vectors
a₁ … a_c, samples by their row of the training matrix, X[j].  The shared checks turn
what a student's function returned into arrays, or into a `Divergence` that says
what was expected.
"""

import numpy as np

from ._checking import Divergence
from ._isolation import Unreadable

_SUBSCRIPTS = str.maketrans("0123456789-", "₀₁₂₃₄₅₆₇₈₉₋")


def sub(number):
    """``number`` in subscript digits (ω₁₂)."""
    return str(number).translate(_SUBSCRIPTS)


def ordinal(number):
    """1st, 2nd, 3rd, 4th ..."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


def omega(index):
    """The class of code index ``index``: ω₁ for 0."""
    return "ω" + sub(int(index) + 1)


def weight(index):
    """The weight vector of class index ``index``: a₁ for 0."""
    return "a" + sub(int(index) + 1)


def fmt(value):
    """A number or an array, short: integers as integers, else 4 significant
    digits."""
    array = np.asarray(value, dtype=float) + 0.0  # no negative zero
    if array.ndim == 0:
        value = float(array)
        return f"{'-' if value < 0 else ''}∞" if np.isinf(value) else f"{value:.4g}"
    if np.isfinite(array).all() and (array == np.round(array)).all():
        return np.array2string(array.astype(np.int64), separator=", ")
    with np.printoptions(precision=4, suppress=True, floatmode="maxprec"):
        return np.array2string(array, separator=", ")


def close(a, b):
    """Equal to rounding: what the reference and a correct student's code give."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return False
    scale = max(1.0, float(np.abs(b).max())) if b.size else 1.0
    return bool(np.allclose(a, b, rtol=1e-7, atol=1e-9 * scale))


def unpack(got, names):
    """The parts of a returned tuple, or a `Divergence` naming what was expected."""
    if len(names) == 1:
        return (got,)
    if not isinstance(got, (tuple, list)) or len(got) != len(names):
        kind = type(got).__name__
        size = f" of {len(got)} items" if isinstance(got, (tuple, list)) else ""
        return Divergence(
            "what your function returned",
            f"Expected a tuple ({', '.join(names)}); your function returned a "
            f"{kind}{size}.",
            f"End your function with `return {', '.join(names)}`.",
        )
    return tuple(got)


def as_array(value, name, shape=None, what=""):
    """``value`` as a float array of ``shape`` (None entries: any), or a
    `Divergence`."""
    if isinstance(value, Unreadable):
        return Divergence(
            "what your function returned",
            f"{name} must be a numpy array of numbers (or a list of them); yours is "
            f"a {type(value).__name__}.",
            "The check reads numpy arrays, lists, tuples and numbers only: return "
            "np.asarray(...) of your result.",
        )
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return Divergence(
            "what your function returned",
            f"{name} must be an array of numbers; yours is a {type(value).__name__} "
            "that numpy cannot read as one.",
        )
    if shape is not None and (
        array.ndim != len(shape)
        or any(s is not None and s != t for s, t in zip(shape, array.shape))
    ):
        wanted = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
        return Divergence(
            "what your function returned",
            f"{name} must have shape {wanted}{what}; yours has shape {array.shape}.",
        )
    return array

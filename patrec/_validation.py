"""Input checks and label encoding, done once in Python before any Cython runs.

Everything a compiled kernel assumes is settled here: a 2-D, finite, C-contiguous array
of float32 or float64 in the machine's byte order (float32 and float64 are kept as they
are, every other numeric type becomes float64), consistent lengths, labels encoded to
``0 .. n_classes - 1`` and parameters inside their ranges.  Nothing the caller passed in
is ever modified: when an array has to change it is copied.
"""

import numbers
import warnings

import numpy as np
from scipy.sparse import issparse

from .exceptions import DataConversionWarning

__all__ = [
    "check_X",
    "check_X_y",
    "check_labels",
    "encode_labels",
    "check_scalar",
    "check_flag",
    "check_option",
    "check_random_state",
    "check_sample_weight",
    "check_class_weights",
    "feature_names_of",
    "plain",
]

_KEPT_FLOATS = (np.float32, np.float64)
_SMALL_ARRAY = 1024  # entries; up to this many the finiteness test is direct


def _is_sparse(X):
    return issparse(X)


def feature_names_of(X):
    """Column names of a data frame when they are all strings, else None."""
    columns = getattr(X, "columns", None)
    if columns is None or _is_sparse(X):
        return None
    names = np.asarray(list(columns), dtype=object)
    if names.size and all(isinstance(name, str) for name in names):
        return names
    return None


def _as_numeric_array(X, name):
    """``np.asarray`` with the numeric-type rules and clear errors."""
    if hasattr(X, "dtypes") and hasattr(X, "to_numpy"):  # a pandas frame
        X = X.to_numpy()
    try:
        array = np.asarray(X)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{name} cannot be read as an array: {exc}") from exc
    kind = array.dtype.kind
    if kind == "c":
        raise ValueError(f"Complex data not supported: {name} has dtype {array.dtype}.")
    if kind == "f" and array.dtype.type in _KEPT_FLOATS:
        return native_byte_order(array)
    if kind in "fiub":
        return array.astype(np.float64)
    if kind == "O":
        if any(
            isinstance(value, (complex, np.complexfloating)) for value in array.flat
        ):
            raise ValueError(
                f"Complex data not supported: {name} holds complex values."
            )
        try:
            return array.astype(np.float64)
        except OverflowError as exc:
            raise ValueError(
                f"{name} holds a number too large for float64: {exc}"
            ) from exc
        except TypeError as exc:
            if any(type(value).__name__ == "NAType" for value in array.flat):
                raise ValueError(  # (pandas' missing value in a nullable column)
                    f"Input {name} contains missing values (pd.NA); remove or "
                    "impute those values."
                ) from exc
            # numpy's own message ("float() argument must be a string or a real
            # number, not 'dict'") names the offending type: keep it.
            raise TypeError(f"{name} holds non-numeric data: {exc}") from exc
        except ValueError as exc:
            raise ValueError(f"{name} holds non-numeric data: {exc}") from exc
    raise ValueError(
        f"{name} must hold numbers, got an array of dtype {array.dtype} "
        "(strings, dates or other non-numeric values)."
    )


def check_X(X, *, name="X", min_samples=1, accept_sparse=False, estimator=None):
    """Validate a 2-D feature array.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The data.  Lists, data frames and any object with ``__array__`` are accepted.
    name : str, default="X"
        The name used in error messages.
    min_samples : int, default=1
        The fewest rows allowed.
    accept_sparse : bool, default=False
        When False a ``scipy.sparse`` input raises a `TypeError`.  When True a sparse
        input is returned as a canonical CSR matrix with float32/float64 data.
    estimator : object, optional
        Named in the error messages.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        C-contiguous, float32 or float64 in the machine's byte order, finite.  The
        input itself when it already was such an array, otherwise a new array (float32
        stored in the other byte order gives native float32).
    """
    who = f" by {type(estimator).__name__}" if estimator is not None else ""
    if X is None:
        raise ValueError(f"{name} is None; expected a 2-D array of numbers.")
    if _is_sparse(X):
        if not accept_sparse:
            raise TypeError(
                f"Sparse input is not supported{who}: convert {name} with "
                f"{name}.toarray() first."
            )
        return _check_sparse(X, name, min_samples)
    array = _as_numeric_array(X, name)
    if array.ndim != 2:
        hint = (
            " Reshape your data with X.reshape(-1, 1) for a single feature or "
            "X.reshape(1, -1) for a single sample."
            if array.ndim == 1
            else ""
        )
        raise ValueError(
            f"Expected a 2-D array for {name}, got a {array.ndim}-D array of shape "
            f"{array.shape}.{hint}"
        )
    n_samples, n_features = array.shape
    if n_samples < min_samples:
        raise ValueError(
            f"Found array with {n_samples} sample(s) (shape={array.shape}) while a "
            f"minimum of {min_samples} is required{who}."
        )
    if n_features < 1:
        raise ValueError(
            f"Found array with 0 feature(s) (shape={array.shape}) while a minimum of "
            f"1 is required{who}."
        )
    if not _all_finite(array):
        raise ValueError(
            f"Input {name} contains NaN or infinity; remove or impute those values."
        )
    return np.ascontiguousarray(array)


def native_byte_order(array):
    """``array`` itself when its values are stored in the machine's byte order (or
    have none, like bytes and Python objects), else a copy that is, of the same
    type: compiled kernels read only native numbers."""
    if array.dtype.isnative:
        return array
    return array.astype(array.dtype.newbyteorder("="))


def _all_finite(array):
    """Are all entries finite?  A finite sum proves it (NaN and inf propagate),
    without a temporary array; only when the sum is not finite (an overflow, or a
    bad value) is every entry examined.  Small arrays are examined at once (a
    single row per call: the cheaper test)."""
    if array.size <= _SMALL_ARRAY:
        return bool(np.isfinite(array).all())
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.add.reduce(array, axis=None)
    return bool(np.isfinite(total) or np.isfinite(array).all())


def _check_sparse(X, name, min_samples):
    X = X.tocsr()
    if X.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} has dtype {X.dtype}.")
    if X.dtype.type not in _KEPT_FLOATS:
        X = X.astype(np.float64)
    if X.shape[0] < min_samples:
        raise ValueError(
            f"Found array with {X.shape[0]} sample(s) (shape={X.shape}) while a "
            f"minimum of {min_samples} is required."
        )
    if X.shape[1] < 1:
        raise ValueError(
            f"Found array with 0 feature(s) (shape={X.shape}) while a minimum of 1 "
            "is required."
        )
    if not np.isfinite(X.data).all():
        raise ValueError(f"Input {name} contains NaN or infinity.")
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def check_labels(y, n_samples=None):
    """Validate a target vector: 1-D, no missing values, matching length.

    A column vector of shape (n_samples, 1) is flattened with a
    `DataConversionWarning`.  Returns an ndarray in the machine's byte order (a view of
    the input when possible).
    """
    if y is None:
        raise ValueError(
            "This estimator requires y to be passed, but the target y is None."
        )
    if _is_sparse(y):
        raise TypeError("A sparse target y is not supported; pass a 1-D array.")
    y = native_byte_order(_as_label_array(y))
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change "
            "the shape of y to (n_samples,), for example using ravel().",
            DataConversionWarning,
            stacklevel=3,
        )
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(
            f"y should be a 1d array of labels, got an array of shape {y.shape}; "
            "multi-output targets are not supported."
        )
    if y.dtype.kind == "c":
        raise ValueError("Complex data not supported: y has complex values.")
    if y.dtype.kind == "f":
        if np.isnan(y).any():
            raise ValueError("Input y contains NaN.")
        if np.isinf(y).any():
            raise ValueError("Input y contains infinity.")
    elif y.dtype.kind == "O":
        for value in y:
            if value is None or (isinstance(value, float) and not np.isfinite(value)):
                raise ValueError(f"Input y contains a missing value ({value!r}).")
    if n_samples is not None and y.shape[0] != n_samples:
        raise ValueError(
            f"X and y have inconsistent numbers of samples: X has {n_samples} rows, "
            f"y has {y.shape[0]} labels."
        )
    return y


def _as_label_array(y):
    """``np.asarray(y)``, except that labels of mixed types stay Python objects.

    numpy would turn ``[1, "a"]`` into the strings ``["1", "a"]``; keeping the objects
    lets `encode_labels` refuse such a mixture instead of silently renaming class 1.
    """
    array = np.asarray(y)
    if array.dtype.kind in "US" and not isinstance(y, np.ndarray) and array.ndim == 1:
        if not all(isinstance(value, (str, bytes, np.str_, np.bytes_)) for value in y):
            array = np.empty(len(array), dtype=object)
            array[:] = list(y)
    return array


_LABEL_CHUNK = 65_536  # labels looked up at a time by the integer encoding


def encode_labels(y, *, compact=False):
    """Encode class labels as ``0 .. n_classes - 1``.

    Integer labels whose range is at most a few times their number are encoded in
    O(n + range) time by marking the values seen and looking each label up, a chunk
    at a time, so no temporary of the labels' size is made; any other labels are
    sorted (`numpy.unique`, O(n log n)).

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Any hashable, mutually comparable labels: integers such as ``[3, 7, 100]``,
        strings, booleans.  Continuous (non-integral float) targets are rejected.
    compact : bool, default=False
        Return the codes in the smallest unsigned integer type that holds them, for
        an estimator that keeps them (a nearest-neighbour classifier), instead of
        ``intp``.

    Returns
    -------
    classes : ndarray of shape (n_classes,)
        The sorted distinct labels.
    codes : ndarray of shape (n_samples,), dtype intp (or the compact type)
        ``classes[codes]`` equals ``y``.
    """
    if y.shape[0] == 0:
        raise ValueError("y is empty; a classifier needs labelled samples.")
    if y.dtype.kind == "f" and not np.array_equal(y, np.round(y)):
        raise ValueError(
            "Unknown label type: continuous. A classifier needs discrete class labels; "
            "use integers or strings for y."
        )
    encoded = _encode_integers(y, compact) if y.dtype.kind in "iu" else None
    if encoded is None:
        try:
            classes, codes = np.unique(y, return_inverse=True)
        except TypeError as exc:
            raise ValueError(
                f"The labels in y cannot be sorted (mixed types such as numbers and "
                f"strings?): {exc}"
            ) from exc
        codes = codes.reshape(-1)
        code_type = _code_type(classes.shape[0]) if compact else np.intp
        encoded = classes, codes.astype(code_type, copy=False)
    classes = encoded[0]
    if classes.shape[0] < 2:
        raise ValueError(
            f"y has only one class ({classes[0]!r}); a classifier needs samples of at "
            "least two classes."
        )
    return encoded


def _code_type(n_classes):
    return np.min_scalar_type(max(n_classes - 1, 0))


def _encode_integers(y, compact):
    """`encode_labels` for integer labels of a small range; None for a wide one."""
    low, high = int(y.min()), int(y.max())
    if high - low >= max(1024, 4 * y.shape[0]) or high > np.iinfo(np.intp).max:
        return None
    seen = np.zeros(high - low + 1, dtype=bool)
    for _start, offsets in _label_offsets(y, low):
        seen[offsets] = True
    values = np.flatnonzero(seen)
    code_type = _code_type(values.shape[0]) if compact else np.intp
    lookup = (np.cumsum(seen, dtype=np.intp) - 1).astype(code_type)
    codes = np.empty(y.shape[0], dtype=code_type)
    for start, offsets in _label_offsets(y, low):
        codes[start : start + offsets.shape[0]] = lookup[offsets]
    return (values + low).astype(y.dtype), codes


def _label_offsets(y, low):
    """``(start, y[start:stop] - low)`` as intp, a chunk of labels at a time."""
    for start in range(0, y.shape[0], _LABEL_CHUNK):
        yield start, y[start : start + _LABEL_CHUNK].astype(np.intp) - low


def check_X_y(X, y, *, min_samples=1, accept_sparse=False, estimator=None):
    """Validate ``X`` with `check_X` and ``y`` with `check_labels`."""
    X = check_X(
        X, min_samples=min_samples, accept_sparse=accept_sparse, estimator=estimator
    )
    y = check_labels(y, X.shape[0])
    return X, y


def plain(value):
    """A numpy scalar as the Python value it holds, for messages: ``0``, not
    ``np.int64(0)``; anything else unchanged."""
    return value.item() if isinstance(value, np.generic) else value


def check_scalar(
    value,
    name,
    kind=numbers.Real,
    *,
    low=None,
    high=None,
    low_open=False,
    high_open=False,
):
    """Check a numeric parameter's type and range, naming it in the error.

    ``kind`` is `numbers.Integral` or `numbers.Real`; booleans are refused for both.
    ``low``/``high`` bound the value, closed unless ``low_open``/``high_open``.
    Returns the value.
    """
    if type(value) is not int:  # (a plain int passes both tests: skip them)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, kind):
            what = "an integer" if kind is numbers.Integral else "a real number"
            raise TypeError(f"{name} must be {what}, got {plain(value)!r}.")
        if isinstance(value, numbers.Real) and not np.isfinite(value):
            raise ValueError(f"{name} must be finite, got {plain(value)!r}.")
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(
            f"{name} must be in {left}{lo}, {hi}{right}, got {plain(value)!r}."
        )
    return value


def check_flag(value, name):
    """Validate a True/False parameter; return it as a bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}.")
    return bool(value)


def check_option(value, name, options):
    """Check that a string parameter is one of ``options``; return it."""
    if not isinstance(value, str) or value not in options:
        choices = ", ".join(repr(option) for option in options)
        raise ValueError(f"{name} must be one of {choices}; got {plain(value)!r}.")
    return value


def check_random_state(seed):
    """Turn ``None``, an int, a `numpy.random.Generator` or a ``RandomState`` into a
    `numpy.random.Generator`."""
    check_seed(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.RandomState):
        return np.random.default_rng(seed.randint(np.iinfo(np.int32).max))
    return np.random.default_rng(seed)


def check_seed(seed):
    """Refuse a ``random_state`` that `check_random_state` could not use, without
    drawing from it (for an option that happens not to need it); return it."""
    if isinstance(seed, (np.random.Generator, np.random.RandomState)) or seed is None:
        return seed
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(f"random_state must be non-negative, got {seed}.")
        return seed
    raise TypeError(
        f"random_state must be None, an int or a numpy random generator, got {seed!r}."
    )


def check_sample_weight(sample_weight, n_samples):
    """Validate ``sample_weight`` for ``n_samples`` samples; return a float64 array.

    ``None`` gives ones.  Weights must be one finite, non-negative number per sample,
    not all zero; the caller's array is never modified (a fresh array is returned).
    """
    if sample_weight is None:
        return np.ones(n_samples, dtype=np.float64)
    complex_values = TypeError(
        "sample_weight must hold real numbers, got complex values."
    )
    if isinstance(sample_weight, numbers.Number) and not isinstance(
        sample_weight, bool
    ):
        if not isinstance(sample_weight, numbers.Real):
            raise complex_values
        weights = np.full(n_samples, sample_weight, dtype=np.float64)
    else:
        try:
            values = np.asarray(sample_weight)
            if values.dtype.kind != "c":  # numpy would drop the imaginary parts
                weights = np.array(values, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"sample_weight must hold numbers: {exc}") from exc
        if values.dtype.kind == "c":
            raise complex_values
    if weights.ndim != 1 or weights.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight must have shape ({n_samples},), one weight per sample; "
            f"got shape {weights.shape}."
        )
    if not np.all(np.isfinite(weights)):
        raise ValueError("sample_weight holds NaN or infinite values.")
    if np.any(weights < 0):
        raise ValueError("sample_weight holds negative values; weights must be >= 0.")
    if not np.any(weights > 0):
        raise ValueError("sample_weight is zero for every sample.")
    return weights


def unit_scaled_weights(sample_weight):
    """``sample_weight`` times the power of two ``2**-exponent`` that brings its largest
    entry into [0.5, 1); returns ``(scaled, exponent)``.

    For estimators whose every estimate is a ratio of weighted sums (a weighted mean,
    a scatter divided by the total weight), so that a common factor of the weights
    changes nothing: the sums then stay within float64 however large (1e306) or
    small (1e-309) the weights are.  A power of two only shifts exponents, so each
    product and sum is the one before, scaled exactly (save for products that fall
    below float64's normal range), and every ratio comes out bit for bit the same.
    ``ldexp(scaled.sum(), exponent)`` is the weights' total, should it be needed.
    """
    _, exponent = np.frexp(np.max(sample_weight))
    return np.ldexp(sample_weight, -exponent), int(exponent)


def check_class_weights(classes, codes, sample_weight):
    """Refuse weights that leave a class with no weight at all (it would have no mean).

    ``classes`` are the class labels, ``codes`` the encoded labels of the samples and
    ``sample_weight`` the validated weights (see `check_sample_weight`).

    Returns the number of samples with a positive weight in each class.
    """
    counts = np.bincount(codes[sample_weight > 0], minlength=len(classes))
    for label, count in zip(classes, counts):
        if count == 0:
            raise ValueError(
                f"sample_weight is zero for every sample of class {plain(label)!r}: the "
                "class would have no mean. Give it some weight, or leave it out of y."
            )
    return counts

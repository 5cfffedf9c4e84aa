"""Input validation: every bad input gets a clear error; inputs are never modified."""

import numbers
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from patrec import DataConversionWarning, MinimumDistanceClassifier
from patrec._validation import (
    check_labels,
    check_option,
    check_random_state,
    check_scalar,
    check_X,
    check_X_y,
    encode_labels,
)


def test_float32_and_float64_kept_other_types_converted():
    for dtype in (np.float32, np.float64):
        X = np.ones((3, 2), dtype=dtype)
        assert check_X(X) is X
    for dtype in (np.int8, np.int64, np.uint16, np.bool_, np.float16):
        assert check_X(np.ones((3, 2), dtype=dtype)).dtype == np.float64
    assert check_X([[1, 2], [3, 4]]).dtype == np.float64


def test_non_contiguous_input_is_copied_not_modified():
    X = np.arange(12.0).reshape(3, 4)
    view = X[:, ::2]
    checked = check_X(view)
    assert checked.flags.c_contiguous
    assert not np.shares_memory(checked, X)
    np.testing.assert_array_equal(checked, view)


@pytest.mark.parametrize(
    "bad, message",
    [
        ([[1.0, np.nan]], "NaN or infinity"),
        ([[1.0, np.inf]], "NaN or infinity"),
        ([1.0, 2.0], "2-D array"),
        (np.ones((2, 2, 2)), "2-D array"),
        (np.ones((0, 3)), "0 sample"),
        (np.ones((3, 0)), "0 feature"),
        (np.ones((2, 2), dtype=complex), "Complex data not supported"),
        (np.array([["a", "b"]]), "must hold numbers"),
        (np.array([[1, "x"]], dtype=object), "non-numeric"),
        (None, "None"),
    ],
)
def test_bad_X_rejected(bad, message):
    with pytest.raises(ValueError, match=message):
        check_X(bad)


def test_finite_values_whose_sum_overflows_are_accepted():
    """The finiteness check sums first; an overflowing sum must not reject good data."""
    X = np.full((2, 2), 1e308)
    assert check_X(X) is X


def test_object_dict_gives_type_error():
    X = np.array([[1.0, 2.0]], dtype=object)
    X[0, 0] = {"a": 1}
    with pytest.raises(TypeError, match="non-numeric"):
        check_X(X)


def test_pandas_missing_value_is_named_as_missing():
    """A nullable column's pd.NA is a missing value, not "non-numeric data"."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(np.eye(3)).astype("Float64")
    frame.iloc[1, 2] = pd.NA
    with pytest.raises(ValueError, match=r"missing values \(pd.NA\)"):
        check_X(frame)
    assert check_X(frame.fillna(0.5)).dtype == np.float64


def test_sparse_rejected_unless_accepted():
    X = sp.random(5, 3, density=0.5, format="csc", random_state=0)
    with pytest.raises(TypeError, match="Sparse input is not supported"):
        check_X(X)
    csr = check_X(X, accept_sparse=True)
    assert sp.issparse(csr) and csr.format == "csr" and csr.has_canonical_format
    X32 = sp.csr_matrix(np.eye(3, dtype=np.float32))
    assert check_X(X32, accept_sparse=True).dtype == np.float32


def test_labels():
    with pytest.raises(ValueError, match="requires y to be passed"):
        check_labels(None)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        check_X_y(np.ones((3, 2)), [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        check_labels(np.array([0.0, np.nan]))
    with pytest.raises(ValueError, match="1d array"):
        check_labels(np.ones((3, 2)))
    with pytest.warns(DataConversionWarning, match="column-vector y"):
        assert check_labels(np.ones((3, 1))).shape == (3,)


def test_encode_labels_any_hashable():
    classes, codes = encode_labels(np.array([100, 3, 7, 3]))
    np.testing.assert_array_equal(classes, [3, 7, 100])
    np.testing.assert_array_equal(codes, [2, 0, 1, 0])
    classes, codes = encode_labels(np.array(["b", "a", "b"]))
    assert classes.tolist() == ["a", "b"] and codes.tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="only one class"):
        encode_labels(np.array([1, 1, 1]))
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        encode_labels(np.array([0.5, 1.5]))
    with pytest.raises(ValueError, match="cannot be sorted"):
        encode_labels(np.array([1, "a"], dtype=object))


@pytest.mark.parametrize(
    "y",
    [
        np.array([-128, 127, 0, 127], dtype=np.int8),  # a range wider than int8
        np.array([0, 2**63 - 1, 5]),  # too wide a range: sorted
        np.array([0, 2**64 - 1, 3], dtype=np.uint64),  # beyond intp: sorted
        np.random.default_rng(0).integers(0, 3, 200_000).astype(">i4"),  # chunks
        np.random.default_rng(1).integers(-300, 300, 1_000).astype(np.int16),
        np.array([True, False, True]),
        np.array([2.0, 1.0, 2.0]),
    ],
    ids=["int8-span", "wide", "uint64", "big-endian", "int16", "bool", "float"],
)
@pytest.mark.parametrize("compact", [False, True])
def test_encode_labels_equals_sorting(y, compact):
    """The O(n) integer encoding gives numpy.unique's classes and codes exactly."""
    expected_classes, expected_codes = np.unique(y, return_inverse=True)
    classes, codes = encode_labels(y, compact=compact)
    np.testing.assert_array_equal(classes, expected_classes)
    assert classes.dtype == expected_classes.dtype
    np.testing.assert_array_equal(codes, expected_codes.reshape(-1))
    if compact:
        assert codes.dtype == np.min_scalar_type(classes.shape[0] - 1)
    else:
        assert codes.dtype == np.intp


def test_scalars_and_options():
    import numbers

    assert check_scalar(3, "k", numbers.Integral, low=1) == 3
    with pytest.raises(TypeError, match="k must be an integer"):
        check_scalar(2.5, "k", numbers.Integral)
    with pytest.raises(TypeError, match="must be a real number"):
        check_scalar(True, "rate")
    with pytest.raises(ValueError, match=r"rate must be in \(0, inf\]"):
        check_scalar(0.0, "rate", low=0, low_open=True)
    with pytest.raises(ValueError, match="finite"):
        check_scalar(np.nan, "rate")
    with pytest.raises(ValueError, match="metric must be one of"):
        check_option("l3", "metric", ("l1", "l2"))


def test_random_state():
    assert check_random_state(3).integers(1000) == check_random_state(3).integers(1000)
    generator = np.random.default_rng(0)
    assert check_random_state(generator) is generator
    assert isinstance(check_random_state(np.random.RandomState(0)), np.random.Generator)
    with pytest.raises(TypeError):
        check_random_state("seed")
    with pytest.raises(ValueError):
        check_random_state(-1)


def test_fit_never_modifies_inputs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    X[::2] += 3
    y = np.tile([0, 1], 20)
    X_before, y_before = X.copy(), y.copy()
    X.setflags(write=False)
    clf = MinimumDistanceClassifier(n_prototypes=2, random_state=0).fit(X, y)
    clf.predict(X)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


def test_no_warning_on_clean_input():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_X_y(np.ones((3, 2)), [0, 1, 0])


def test_more_bad_values():
    X = np.array([[1.0, np.complex64(1 + 2j)]], dtype=object)
    with pytest.raises(ValueError, match="Complex data not supported"):
        check_X(X)
    with pytest.raises(ValueError, match="too large for float64"):
        check_X(np.array([[1, 10**400]], dtype=object))
    with pytest.raises(ValueError, match="empty"):
        encode_labels(np.array([]))


def test_mixed_label_types_refused_not_renamed():
    with pytest.raises(ValueError, match="cannot be sorted"):
        encode_labels(check_labels([1, "a", 1, "a"]))
    assert check_labels(["a", "b"]).dtype.kind == "U"


def test_check_sample_weight_accepts_and_copies():
    from patrec._validation import check_sample_weight

    given = np.array([1.0, 0.0, 2.5])
    weights = check_sample_weight(given, 3)
    assert weights is not given and np.array_equal(weights, given)
    assert np.array_equal(check_sample_weight(None, 2), [1.0, 1.0])
    assert np.array_equal(check_sample_weight(2, 2), [2.0, 2.0])


@pytest.mark.parametrize(
    "weights, error, text",
    [
        ([1.0, 2.0], ValueError, "shape"),
        ([[1.0, 2.0, 3.0]], ValueError, "shape"),
        ([1.0, np.nan, 1.0], ValueError, "NaN"),
        ([1.0, np.inf, 1.0], ValueError, "infinite"),
        ([1.0, -1.0, 1.0], ValueError, "negative"),
        ([0.0, 0.0, 0.0], ValueError, "zero"),
        (["a", "b", "c"], TypeError, "numbers"),
        (np.ones(3, dtype=complex), TypeError, "real numbers, got complex"),
        ([1.0, 2.0 + 1.0j, 1.0], TypeError, "real numbers, got complex"),
        (1.0 + 0.0j, TypeError, "real numbers, got complex"),
    ],
)
def test_check_sample_weight_rejects(weights, error, text):
    import warnings

    from patrec._validation import check_sample_weight

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # refused outright, not converted with a warning
        with pytest.raises(error, match=text):
            check_sample_weight(weights, 3)


def test_reporter_writes_to_stderr_by_level(capsys):
    from patrec._progress import Reporter

    log = Reporter("demo", verbose=1)
    log(1, "summary")
    log(2, "detail")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "[demo] summary\n"
    with pytest.raises(ValueError, match="verbose"):
        Reporter("demo", verbose=-1)
    with pytest.raises(TypeError, match="verbose"):
        Reporter("demo", verbose="yes")


def test_messages_show_numpy_scalars_as_plain_numbers():
    from patrec._validation import check_option, check_scalar

    with pytest.raises(ValueError, match=r"got 0\.$"):
        check_scalar(np.int64(0), "n_neighbors", numbers.Integral, low=1)
    with pytest.raises(ValueError, match=r"got 2\.5\.$"):
        check_scalar(np.float64(2.5), "alpha", high=1)
    with pytest.raises(ValueError, match=r"got 3\.$"):
        check_option(np.int64(3), "metric", ("a",))

"""Hostile input: clear errors, no silent garbage, the caller's data left alone."""

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression

from patrec import (
    AllPairs,
    ConvergenceWarning,
    LinearMachine,
    MulticlassSVM,
    OneVsAll,
    OutputCodes,
    Perceptron,
    SoftmaxRegression,
    code_matrix,
    decode,
    kesler_construct,
)

ESTIMATORS = [
    lambda: Perceptron(random_state=0),
    lambda: LinearMachine(update="all", averaged=True, random_state=0),
    lambda: MulticlassSVM(random_state=0),
    lambda: SoftmaxRegression(),
    lambda: OneVsAll(),
    lambda: AllPairs(decision="vote"),
    lambda: OutputCodes(code="sparse-random", random_state=0),
    lambda: OneVsAll(LogisticRegression()),
]
ESTIMATOR_IDS = [
    "Perceptron",
    "LinearMachine",
    "MulticlassSVM",
    "Softmax",
    "OneVsAll",
    "AllPairs",
    "OutputCodes",
    "OneVsAll-sklearn",
]


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return X - X.mean(axis=0), y


def scrambled_csr(X):
    """CSR with unsorted column indices, an explicit zero and int64 indices."""
    S = sp.csr_matrix(X)
    for i in range(S.shape[0]):
        start, stop = S.indptr[i], S.indptr[i + 1]
        S.indices[start:stop] = S.indices[start:stop][::-1].copy()
        S.data[start:stop] = S.data[start:stop][::-1].copy()
    S.has_sorted_indices = False
    S.indices = S.indices.astype(np.int64)
    S.indptr = S.indptr.astype(np.int64)
    S.data[0] = 0.0  # stored, but zero
    return S


@pytest.mark.parametrize("make", ESTIMATORS, ids=ESTIMATOR_IDS)
def test_any_array_layout_gives_the_same_model_and_is_left_alone(iris, make):
    X, y = iris
    S = scrambled_csr(X)
    dense = S.toarray()
    expected = make().fit(dense, y).decision_function(dense)
    readonly = dense.copy()
    readonly.flags.writeable = False
    frame = pd.DataFrame(dense, columns=list("abcd"))
    snapshot = (S.data.copy(), S.indices.copy(), S.indptr.copy())
    # softmax: the L-BFGS path depends slightly on the summation order
    tolerance = 1e-3 if isinstance(make(), SoftmaxRegression) else 1e-8
    for layout in (readonly, np.asfortranarray(dense), frame, S):
        model = make().fit(layout, pd.Series(y) if layout is frame else y)
        np.testing.assert_allclose(
            model.decision_function(layout), expected, atol=tolerance
        )
    for before, after in zip(snapshot, (S.data, S.indices, S.indptr)):
        np.testing.assert_array_equal(before, after)
    assert not S.has_sorted_indices


@pytest.mark.parametrize("make", ESTIMATORS, ids=ESTIMATOR_IDS)
def test_one_sample_per_class(make):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]])
    model = make().fit(X, ["a", "b", "c"])
    predicted = model.predict(X)
    assert predicted.shape == (3,) and set(predicted) <= {"a", "b", "c"}
    if isinstance(model, (LinearMachine, MulticlassSVM, SoftmaxRegression)):
        assert predicted.tolist() == ["a", "b", "c"]  # three points: separable


@pytest.mark.parametrize(
    "make",
    [
        lambda: Perceptron(),
        lambda: Perceptron(averaged=True),
        lambda: LinearMachine(),
        lambda: LinearMachine(update="all", averaged=True),
        lambda: MulticlassSVM(),
    ],
    ids=[
        "Perceptron",
        "Perceptron-averaged",
        "LinearMachine",
        "LinearMachine-all",
        "MulticlassSVM",
    ],
)
@pytest.mark.parametrize("scale", [1e155, 1e300])
@pytest.mark.parametrize("sparse", [False, True])
def test_overflowing_scores_raise_instead_of_silent_nan(iris, make, scale, sparse):
    X, y = iris
    X = X * scale
    with pytest.raises(ValueError, match="overflowed float64.*Scale"):
        make().fit(sp.csr_matrix(X) if sparse else X, y)


def test_large_but_safe_features_still_train(iris):
    X, y = iris
    clf = LinearMachine(random_state=0).fit(X * 1e100, y)
    assert np.isfinite(clf.coef_).all() and clf.score(X * 1e100, y) > 0.5


def test_tiny_alpha_is_named(iris):
    X, y = iris
    with pytest.raises(ValueError, match="alpha=1e-320 is too small"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            MulticlassSVM(alpha=1e-320).fit(X, y)


def test_softmax_warns_when_lbfgs_stops_early(iris):
    X, y = iris
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        SoftmaxRegression(max_iter=2).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SoftmaxRegression().fit(X, y)


@pytest.mark.parametrize(
    "make",
    [
        lambda: SoftmaxRegression(max_iter=2),
        lambda: Perceptron(max_epochs=1),
        lambda: OneVsAll(Perceptron(max_epochs=1)),
        lambda: AllPairs(SoftmaxRegression(max_iter=2)),
        lambda: OutputCodes(Perceptron(max_epochs=1)),
    ],
)
def test_convergence_warnings_point_at_the_caller_s_line(iris, make):
    # a reduction's binary fits run deep inside patrec; the warning is still shown
    # at the line that called fit, as a direct fit's is
    X, y = iris
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make().fit(X, y)
    converged = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert converged
    assert {w.filename for w in converged} == {__file__}


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"learning_rate": float("nan")}, ValueError, "learning_rate must be finite"),
        ({"learning_rate": "1"}, TypeError, "learning_rate"),
        ({"learning_rate": None}, TypeError, "learning_rate"),
        ({"margin": float("inf")}, ValueError, "margin"),
        ({"max_epochs": True}, TypeError, "max_epochs"),
        ({"random_state": "seed"}, TypeError, "random_state"),
    ],
)
@pytest.mark.parametrize("estimator", [Perceptron, LinearMachine])
def test_more_bad_perceptron_parameters(iris, estimator, params, error, match):
    X, y = iris
    with pytest.raises(error, match=match):
        estimator(**params).fit(X, y)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"alpha": float("nan")}, ValueError, "alpha"),
        ({"alpha": None}, TypeError, "alpha"),
        ({"max_epochs": 1.5}, TypeError, "max_epochs"),
    ],
)
def test_more_bad_svm_parameters(iris, params, error, match):
    X, y = iris
    with pytest.raises(error, match=match):
        MulticlassSVM(**params).fit(X, y)


@pytest.mark.parametrize("reduction", [OneVsAll, AllPairs, OutputCodes])
def test_base_estimator_must_be_an_instance_with_scores(iris, reduction):
    X, y = iris
    with pytest.raises(TypeError, match="pass Perceptron\\(\\) instead"):
        reduction(Perceptron).fit(X, y)
    from sklearn.naive_bayes import GaussianNB

    with pytest.raises(TypeError, match="lacks decision_function"):
        reduction(GaussianNB()).fit(X, y)


@pytest.mark.parametrize(
    "code, match",
    [
        ([[1, -1], [1, -1], [-1, 1]], "Rows 0 and 1 .* same code word"),
        ([[1, -1, 1], [-1, 1, -1], [1, -1, 1]], "Rows 0 and 2 .* same"),
        ([[1, -1], [-1, 1], [1, np.nan]], "only -1, 0 and \\+1"),
        ([[1, -1], [-1, 1], [1, 0.5]], "only -1, 0 and \\+1"),
        (np.zeros((3, 0)), "non-empty"),
    ],
)
def test_more_bad_codes(iris, code, match):
    X, y = iris
    with pytest.raises(ValueError, match=match):
        OutputCodes(code=code).fit(X, y)


@pytest.mark.parametrize(
    "n_classes, error",
    [
        (1, ValueError),
        (0, ValueError),
        (2.5, TypeError),
        ("3", TypeError),
    ],
)
def test_code_matrix_checks_the_number_of_classes(n_classes, error):
    with pytest.raises(error, match="n_classes"):
        code_matrix("dense-random", n_classes)


@pytest.mark.parametrize("code", ["dense-random", "sparse-random"])
def test_random_codes_have_distinct_rows(code):
    for k in (2, 3, 4, 6):
        M = code_matrix(code, k, random_state=1)
        assert len({tuple(row) for row in M}) == k


def test_decode_rejects_bad_scores():
    M = [[1, -1], [-1, 1]]
    with pytest.raises(ValueError, match="F must hold numbers"):
        decode(M, [["a", "b"]])
    with pytest.raises(ValueError, match="NaN"):
        decode(M, [[1.0, np.nan]])
    with pytest.raises(TypeError, match="return_distances"):
        decode(M, [[1.0, 2.0]], return_distances="yes")
    with pytest.raises(ValueError, match="elementwise"):
        decode(M, [[1.0, 2.0]], method="loss", loss=lambda z: 1.0)


def test_kesler_construct_validates_X():
    with pytest.raises(ValueError, match="NaN"):
        kesler_construct([[np.nan]], [0], 2)
    with pytest.raises(TypeError, match="Sparse"):
        kesler_construct(sp.csr_matrix(np.ones((2, 2))), [0, 1], 2)
    with pytest.raises(ValueError, match="class indices"):
        kesler_construct([[1.0]], [0.0], 2)
    psi = kesler_construct(np.ones((1, 2), dtype=np.float32), [1], 2)
    assert psi.dtype == np.float32


def test_equal_code_words_with_zeros_are_refused():
    from patrec.linear.output_codes import check_code

    with pytest.raises(ValueError, match="Rows 0 and 1 .* same code word"):
        check_code(np.array([[1, 0], [1, 0], [-1, 1], [0, -1]]), 4)


@pytest.mark.parametrize("make", ESTIMATORS[:4], ids=ESTIMATOR_IDS[:4])
def test_sparse_matrix_without_stored_entries(make):
    X = sp.csr_matrix((6, 4))
    y = [0, 0, 1, 1, 2, 2]
    model = make().fit(X, y)
    assert model.predict(X).shape == (6,)
    np.testing.assert_array_equal(model.coef_, 0.0)


def test_base_estimator_with_two_column_scores_is_named(iris):
    X, y = iris

    class TwoColumns(Perceptron):
        def decision_function(self, X):
            score = super().decision_function(X)
            return np.column_stack([-score, score])

    with pytest.raises(ValueError, match="TwoColumns.decision_function returned shape"):
        OneVsAll(TwoColumns(), normalize=False).fit(X, y).predict(X)

"""Output codes: the course's worked example, the code matrices and the classifier."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from patrec import OutputCodes, Perceptron, code_matrix, decode

M = np.array(
    [
        [-1, 0, -1, -1, +1, -1, -1],
        [+1, -1, 0, +1, +1, +1, -1],
        [+1, 0, -1, -1, -1, +1, +1],
        [-1, -1, +1, 0, -1, -1, +1],
    ]
)
F = np.array([0.5, -7, -1, -2, -10, -12, 9])


def test_worked_example_hamming():
    index, distances = decode(M, F[None, :], return_distances=True)
    np.testing.assert_array_equal(distances, [[3.5, 4.5, 1.5, 2.5]])
    assert index.tolist() == [2]  # class 3 of the course, 0-based


def test_worked_example_exponential_loss():
    index, distances = decode(M, F, method="loss", loss="exp", return_distances=True)
    assert index.tolist() == [3]  # class 4 of the course
    # to the digits the course prints: 30133.0, 192,893.0, 162,757.0 and 5.4
    np.testing.assert_array_equal(np.round(distances[0, :3]), [30133, 192893, 162757])
    assert round(distances[0, 3], 1) == 5.4
    # the first row term by term, as the course writes it out
    assert distances[0, 0] == pytest.approx(sum(np.exp(-M[0] * F)))


def test_other_losses_and_a_callable():
    margins = M * F
    _, hinge = decode(M, F, method="loss", loss="hinge", return_distances=True)
    np.testing.assert_allclose(hinge[0], np.maximum(0, 1 - margins).sum(axis=1))
    _, log = decode(M, F, method="loss", loss="log", return_distances=True)
    np.testing.assert_allclose(log[0], np.log1p(np.exp(-margins)).sum(axis=1))
    _, custom = decode(M, F, method="loss", loss=lambda z: z**2, return_distances=True)
    np.testing.assert_allclose(custom[0], (margins**2).sum(axis=1))
    # several samples at once, one row each
    indices = decode(M, np.vstack([F, -F, np.zeros(7)]))
    assert indices.shape == (3,)
    assert indices[2] == 0  # all distances 3.5: the first row wins the tie


@pytest.mark.parametrize("method", ["hamming", "loss"])
def test_return_distances_gives_the_pair_for_many_samples(method):
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(5, 7))
    result = decode(M, scores, method=method, return_distances=True)
    assert isinstance(result, tuple) and len(result) == 2
    indices, distances = result
    assert indices.shape == (5,) and distances.shape == (5, 4)
    np.testing.assert_array_equal(indices, np.argmin(distances, axis=1))
    np.testing.assert_array_equal(decode(M, scores, method=method), indices)
    for i in range(5):  # each row decoded alone gives the same
        np.testing.assert_allclose(
            decode(M, scores[i], method=method, return_distances=True)[1][0],
            distances[i],
        )


@pytest.mark.parametrize(
    "bad_M, match",
    [
        ([[1, 2], [0, -1]], "only -1, 0 and \\+1"),
        ([1, -1], "2-D"),
    ],
)
def test_decode_rejects_bad_input(bad_M, match):
    with pytest.raises(ValueError, match=match):
        decode(bad_M, [[1.0, 1.0]])


def test_decode_rejects_bad_scores_and_options():
    with pytest.raises(ValueError, match="shape"):
        decode(M, np.zeros((2, 6)))
    with pytest.raises(ValueError, match="method"):
        decode(M, F, method="euclid")
    with pytest.raises(ValueError, match="loss"):
        decode(M, F, method="loss", loss="square")
    with pytest.raises(ValueError, match="loss"):  # checked, though Hamming's unused
        decode(M, F, method="hamming", loss="square")
    with pytest.raises(ValueError, match="F must hold real numbers"):
        decode(M, F + 1j)


def test_named_codes():
    np.testing.assert_array_equal(
        code_matrix("one-vs-all", 3), [[1, -1, -1], [-1, 1, -1], [-1, -1, 1]]
    )
    np.testing.assert_array_equal(
        code_matrix("all-pairs", 3), [[1, 1, 0], [-1, 0, 1], [0, -1, -1]]
    )
    for code, length in (("dense-random", 30), ("sparse-random", 45)):
        A = code_matrix(code, 8, random_state=0)
        assert A.shape == (8, length)
        assert ((A == 1).any(axis=0) & (A == -1).any(axis=0)).all()
        assert A.any(axis=1).all()
        assert len({tuple(row) for row in A}) == 8
        np.testing.assert_array_equal(A, code_matrix(code, 8, random_state=0))
    assert not (code_matrix("sparse-random", 8, random_state=0) != 0).all()


@pytest.fixture
def iris():
    X, y = load_iris(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.mark.parametrize("name", ["all-pairs", "sparse-random"])
def test_zeros_leave_examples_out(iris, name):
    X, y = iris
    clf = OutputCodes(LogisticRegression(), code=name, random_state=0).fit(X, y)
    code = clf.code_
    assert (code == 0).any()
    np.testing.assert_array_equal(code, code_matrix(name, 3, random_state=0))
    for s, model in enumerate(clf.estimators_):
        rows = code[y, s] != 0
        expected = LogisticRegression().fit(X[rows], code[y[rows], s])
        np.testing.assert_allclose(model.coef_, expected.coef_)


def test_prediction_is_decoding_of_the_binary_scores(iris):
    X, y = iris
    for decoding, loss in (("hamming", "hinge"), ("loss", "exp"), ("loss", "log")):
        clf = OutputCodes(
            code="sparse-random", decoding=decoding, loss=loss, random_state=0
        ).fit(X, y)
        F = np.column_stack([m.decision_function(X) for m in clf.estimators_])
        expected = decode(clf.code_, F, method=decoding, loss=loss)
        np.testing.assert_array_equal(clf.predict(X), clf.classes_[expected])
        assert clf.score(X, y) > 0.8


def test_user_code_and_sparse_input(iris):
    X, y = iris
    code = [[1, -1, 1, -1], [-1, 1, 1, 0], [-1, -1, -1, 1]]
    base = Perceptron(averaged=True, random_state=0)
    clf = OutputCodes(base, code=code, decoding="loss").fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(clf.code_, code)
    dense = OutputCodes(base, code=code, decoding="loss").fit(X, y)
    np.testing.assert_allclose(
        clf.decision_function(sp.csr_matrix(X)), dense.decision_function(X)
    )


@pytest.mark.parametrize(
    "code, match",
    [
        ([[1, -1], [-1, -1], [1, -1]], "Column 1 .* constant"),
        ([[1, -1], [-1, 1], [0, 0]], "Row 2 .* all zero"),
        ([[1, -1], [-1, 1]], "one row per class"),
        ([[1, -1, 0], [-1, 1, 0], [1, 0, 2]], "-1, 0 and \\+1"),
        ([1, -1, 1], "2-D"),
        ("random", "code must be one of"),
    ],
)
def test_bad_codes(iris, code, match):
    X, y = iris
    with pytest.raises(ValueError, match=match):
        OutputCodes(code=code).fit(X, y)


def test_bad_options(iris):
    X, y = iris
    with pytest.raises(ValueError, match="decoding"):
        OutputCodes(decoding="nearest").fit(X, y)
    with pytest.raises(ValueError, match="loss"):
        OutputCodes(loss="square").fit(X, y)
    with pytest.raises(TypeError, match="decision_function"):
        OutputCodes(estimator=object()).fit(X, y)


@pytest.mark.parametrize("code", ["one-vs-all", "all-pairs", "dense-random"])
@pytest.mark.parametrize("random_state", ["abc", [1], object()])
def test_a_bad_random_state_is_refused_with_any_code(iris, code, random_state):
    X, y = iris
    with pytest.raises(TypeError, match="random_state"):
        OutputCodes(code=code, random_state=random_state).fit(X, y)
    with pytest.raises(TypeError, match="random_state"):
        code_matrix(code, 3, random_state=random_state)


def test_random_code_is_deterministic(iris):
    X, y = iris
    a = OutputCodes(code="dense-random", random_state=3).fit(X, y)
    b = OutputCodes(code="dense-random", random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.code_, b.code_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_code_size_sets_the_columns_of_random_codes():
    import numpy as np
    import pytest

    from patrec import OutputCodes, code_matrix

    rng = np.random.default_rng(0)
    X = np.vstack(
        [c + rng.normal(size=(20, 2)) for c in ([0, 0], [5, 0], [0, 5], [5, 5])]
    )
    y = np.repeat([0, 1, 2, 3], 20)
    for code in ("dense-random", "sparse-random"):
        clf = OutputCodes(code=code, code_size=2.5, random_state=0).fit(X, y)
        assert clf.code_.shape == (4, 10) and len(clf.estimators_) == 10
        assert OutputCodes(code=code, random_state=0).fit(X, y).code_.shape[1] != 10
    assert code_matrix("dense-random", 4, random_state=0, n_columns=3).shape == (4, 3)
    with pytest.raises(ValueError, match="code_size applies to the random codes"):
        OutputCodes(code_size=2.0).fit(X, y)
    with pytest.raises(ValueError, match="code_size must be in"):
        OutputCodes(code="dense-random", code_size=0).fit(X, y)
    # too few columns to tell the classes apart: said in terms of code_size
    with pytest.raises(
        ValueError,
        match=r"code_size=0.1 gives 1 column for 4 classes, "
        r"too few .* \(at least 2\): use code_size >= 0.5\.",
    ):
        OutputCodes(code="dense-random", code_size=0.1).fit(X, y)
    with pytest.raises(ValueError, match="n_columns applies to the random codes only"):
        code_matrix("all-pairs", 4, n_columns=3)


def test_loss_decoding_refuses_scores_whose_losses_overflow():
    # found by tests/test_hypothesis_functions.py: exp(-z) overflowed to infinity for
    # every code word and argmin silently picked the first class
    M = code_matrix("one-vs-all", 3)
    F = np.array([[-1e3, -2e3, -3e3]])
    with pytest.raises(ValueError, match="not finite"):
        decode(M, F, method="loss", loss="exp")
    assert decode(M, F).tolist() == [0]  # Hamming decoding needs no loss
    assert decode(M, F / 1e3, method="loss", loss="exp").tolist() == [0]

"""The checker of the discriminant exercises is checked: Fisher LDA and QDA.

The reference solutions are plain numpy, written as a student would; each classic
mistake is a small change of them, and must be caught with a message naming the step.
"""

import inspect

import numpy as np
import pytest

from patrec.exercises import check, template

# ---------------------------------------------------------------- Fisher LDA


def _fisher(X, labels, n_classes, within="scatter", between="sizes", centre="all",
            order="decreasing", layout="columns"):  # fmt: skip
    d = X.shape[1]
    m = X.mean(axis=0)
    means = np.array([X[labels == i].mean(axis=0) for i in range(n_classes)])
    sizes = np.array([np.sum(labels == i) for i in range(n_classes)])
    S_w = np.zeros((d, d))
    for i in range(n_classes):
        D = X[labels == i] - means[i]
        scatter = D.T @ D
        S_w += scatter / sizes[i] if within == "class covariances" else scatter
    if within == "covariance":
        S_w = S_w / len(X)
    if centre == "mean of means":
        m = means.mean(axis=0)
    S_b = np.zeros((d, d))
    for i in range(n_classes):
        weight = sizes[i] if between == "sizes" else 1.0
        S_b += weight * np.outer(means[i] - m, means[i] - m)
    values, vectors = np.linalg.eig(np.linalg.solve(S_w, S_b))
    values, vectors = values.real, vectors.real
    rank = np.argsort(values)
    if order == "decreasing":
        rank = rank[::-1]
    W = vectors[:, rank[: n_classes - 1]]
    if layout == "rows":
        W = W.T
    return S_w, S_b, W


def fisher_lda(X, labels, n_classes):
    return _fisher(X, labels, n_classes)


def test_fisher_reference_solution_passes():
    result = check("fisher_lda", fisher_lda)
    assert result.passed, str(result)
    assert bool(result) and result.n_passed == result.n_cases >= 4


def test_fisher_any_scale_and_sign_of_the_columns_passes():
    def rescaled(X, labels, n_classes):
        S_w, S_b, W = fisher_lda(X, labels, n_classes)
        W = W / np.sqrt(np.einsum("fk,fg,gk->k", W, S_w, W))  # w^T S_w w = 1
        return S_w, S_b, -3.0 * W

    assert check("fisher_lda", rescaled, seed=5)


@pytest.mark.parametrize(
    "change, where, words",
    [
        ({"within": "covariance"}, "S_w", ["divided by N", "scatter"]),
        ({"within": "class covariances"}, "S_w", ["N_i", "scatter"]),
        ({"between": "none"}, "S_b", ["class sizes", "N_i"]),
        (
            {"centre": "mean of means"},
            "S_b",
            ["mean of the class means", "all N samples"],
        ),
        (
            {"order": "increasing"},
            "W[:, 0]: the direction w of the largest λ",
            ["decreasing order of λ", "largest first"],
        ),
    ],
)
def test_fisher_classic_mistakes_are_named(change, where, words):
    def student(X, labels, n_classes):
        return _fisher(X, labels, n_classes, **change)

    result = check("fisher_lda", student)
    assert result.passed is False
    assert result.divergence.where.startswith(where)
    for word in words:
        assert word in result.divergence.hint, result.divergence.hint
    assert where.split(",")[0] in str(result)


def test_fisher_columns_are_counted_from_0_as_everywhere():
    def student(X, labels, n_classes):
        S_w, S_b, W = fisher_lda(X, labels, n_classes)
        if n_classes > 2:
            W[:, 1] = W[:, 0]  # the 2nd direction wrong, the 1st right
        return S_w, S_b, W

    result = check("fisher_lda", student)
    assert result.passed is False
    assert result.divergence.where == "W[:, 1]: the direction w of the 2nd largest λ"


def test_fisher_directions_in_rows_are_named():
    def student(X, labels, n_classes):
        return _fisher(X, labels, n_classes, layout="rows")

    result = check("fisher_lda", student)
    assert result.passed is False
    assert "columns" in result.divergence.hint
    assert "rows" in result.divergence.hint


def test_fisher_rows_of_the_eigenvector_matrix_are_named():
    def student(X, labels, n_classes):
        S_w, S_b, _ = fisher_lda(X, labels, n_classes)
        values, vectors = np.linalg.eig(np.linalg.solve(S_w, S_b))
        rank = np.argsort(values.real)[::-1]
        return S_w, S_b, np.array([vectors.real[r] for r in rank[: n_classes - 1]]).T

    result = check("fisher_lda", student)
    assert result.passed is False
    assert result.divergence.where.startswith("W[:, ")
    assert "V[:, k]" in result.divergence.hint


# ---------------------------------------------------------------- QDA


def _qda(X, labels, n_classes, X_test, ddof=1, logdet=0.5, prior=True, inverse=True):
    d = X.shape[1]
    means = np.empty((n_classes, d))
    covariances = np.empty((n_classes, d, d))
    G = np.empty((len(X_test), n_classes))
    for i in range(n_classes):
        samples = X[labels == i]
        means[i] = samples.mean(axis=0)
        covariances[i] = np.cov(samples, rowvar=False, ddof=ddof)
        diff = X_test - means[i]
        P = np.linalg.inv(covariances[i]) if inverse else covariances[i]
        quad = np.einsum("qf,fg,qg->q", diff, P, diff)
        G[:, i] = -0.5 * quad - logdet * np.log(np.linalg.det(covariances[i]))
        if prior:
            G[:, i] += np.log(len(samples) / len(X))
    return means, covariances, G


def qda(X, labels, n_classes, X_test):
    return _qda(X, labels, n_classes, X_test)


def test_qda_reference_solution_passes():
    result = check("qda", qda)
    assert result.passed, str(result)
    assert check("qda", qda, seed=11)


@pytest.mark.parametrize(
    "change, where, words",
    [
        ({"ddof": 0}, "the covariance Σ₁", ["N_i - 1", "biased"]),
        ({"logdet": 0.0}, "G[", ["ln|Σ_i|"]),
        ({"logdet": 1.0}, "G[", ["1/2 ln|Σ_i|", "left out the 1/2"]),
        ({"prior": False}, "G[", ["prior", "ln P(ω_i)"]),
        ({"inverse": False}, "G[", ["inverse", "Σ_i^-1"]),
    ],
)
def test_qda_classic_mistakes_are_named(change, where, words):
    def student(X, labels, n_classes, X_test):
        return _qda(X, labels, n_classes, X_test, **change)

    result = check("qda", student)
    assert result.passed is False
    assert result.divergence.where.startswith(where), result.divergence.where
    for word in words:
        assert word in result.divergence.hint, result.divergence.hint


def test_qda_biased_covariance_only_inside_g_is_named():
    def student(X, labels, n_classes, X_test):
        means, covariances, _ = qda(X, labels, n_classes, X_test)
        _, _, G = _qda(X, labels, n_classes, X_test, ddof=0)
        return means, covariances, G

    result = check("qda", student)
    assert result.passed is False
    assert "biased covariance" in result.divergence.hint
    assert "N_i - 1" in result.divergence.hint


def test_qda_report_shows_the_terms_of_g_in_the_course_notation():
    result = check("qda", lambda *a: _qda(*a, prior=False))
    text = str(result)
    assert "a small example" in text  # the first case already differs
    assert "ln|Σ" in text and "ln P(ω" in text
    assert "X_test[0]" in text


# ---------------------------------------------------------------- both


@pytest.mark.parametrize(
    "name, function", [("fisher_lda", fisher_lda), ("qda", qda)], ids=["fisher", "qda"]
)
def test_reports_are_deterministic_for_a_seed(name, function):
    def wrong(*args):
        parts = list(function(*args))
        parts[-1] = np.asarray(parts[-1]) * 1.5
        return tuple(parts)

    first, second = check(name, wrong, seed=3), check(name, wrong, seed=3)
    assert str(first) == str(second)
    assert "seed=3" in str(first)
    assert str(check(name, function, seed=3)) == str(check(name, function, seed=3))


@pytest.mark.parametrize(
    "name, parameters",
    [
        ("fisher_lda", ["X", "labels", "n_classes"]),
        ("qda", ["X", "labels", "n_classes", "X_test"]),
    ],
)
def test_templates_exec_and_fail_cleanly(name, parameters):
    namespace = {}
    exec(template(name), namespace)
    stub = namespace[name]
    assert list(inspect.signature(stub).parameters) == parameters
    assert "Returns" in stub.__doc__
    result = check(name, stub)
    assert result.passed is False
    assert result.n_passed == 0
    assert result.divergence.where == "the call"
    assert "NotImplementedError" in result.divergence.message


def test_wrong_return_shapes_are_named():
    result = check("fisher_lda", lambda X, labels, c: fisher_lda(X, labels, c)[:2])
    assert not result and "(S_w, S_b, W)" in result.divergence.message
    result = check("qda", lambda *args: qda(*args)[:2])
    assert not result and "(means, covariances, G)" in result.divergence.message


def test_fisher_complex_eigenvectors_of_np_linalg_eig_pass():
    def student(X, labels, n_classes):
        S_w, S_b, _ = fisher_lda(X, labels, n_classes)
        values, vectors = np.linalg.eig(np.linalg.solve(S_w, S_b))
        rank = np.argsort(values.real)[::-1]
        return S_w, S_b, vectors[:, rank[: n_classes - 1]].astype(complex)

    assert check("fisher_lda", student)


def test_qda_mean_of_all_samples_is_named():
    def student(X, labels, n_classes, X_test):
        means, covariances, G = qda(X, labels, n_classes, X_test)
        return np.repeat(X.mean(axis=0)[None], n_classes, axis=0), covariances, G

    result = check("qda", student)
    assert not result and result.divergence.where == "the mean m₁ of class ω₁"
    assert "mean m of all samples" in result.divergence.hint


def test_a_column_that_is_not_finite_is_not_called_zero():
    def mistaken(X, labels, n_classes):
        S_w, S_b, W = fisher_lda(X, labels, n_classes)
        return S_w, S_b, W * np.nan

    result = check("fisher_lda", mistaken)
    assert "Your column is not finite" in result.divergence.message

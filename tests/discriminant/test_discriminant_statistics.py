"""The shared helpers of patrec.discriminant: priors, means, shrinkage, Cholesky."""

import numpy as np
import pytest
from sklearn.covariance import ledoit_wolf, shrunk_covariance

from patrec.discriminant._bayes_rule import log_softmax
from patrec.discriminant._statistics import (
    check_deviations,
    check_priors,
    cholesky_or_none,
    class_means,
    group_by_class,
    ledoit_wolf_covariance,
    scoring_dtype,
    shrink,
)


def test_class_means_and_grouping():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3)).astype(np.float32)
    codes = rng.integers(4, size=50)
    counts, means = class_means(X, codes, 4)
    X_sorted, rows = group_by_class(X, codes, 4)
    assert X_sorted.dtype == np.float64 and not np.shares_memory(X_sorted, X)
    for k in range(4):
        assert counts[k] == np.sum(codes == k)
        expected = X[codes == k].astype(np.float64).mean(axis=0)
        np.testing.assert_allclose(means[k], expected)
        np.testing.assert_array_equal(X_sorted[rows[k]], X[codes == k])


def test_shrink_matches_sklearn():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(20, 4))
    S = A.T @ A / 20
    for a in (0.0, 0.25, 1.0):
        np.testing.assert_allclose(shrink(S, a), shrunk_covariance(S, a))


@pytest.mark.parametrize("n_samples, n_features", [(40, 5), (6, 10), (30, 1)])
def test_ledoit_wolf_matches_sklearn_on_standardised_data(n_samples, n_features):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(n_samples, n_features)) * rng.uniform(0.1, 10, n_features)
    centred = X - X.mean(axis=0)
    scale = centred.std(axis=0)
    expected = ledoit_wolf(centred / scale)[0] * np.outer(scale, scale)
    np.testing.assert_allclose(ledoit_wolf_covariance(centred), expected, rtol=1e-10)


def test_check_priors():
    counts = np.array([2.0, 6.0])
    np.testing.assert_allclose(check_priors(None, counts), [0.25, 0.75])
    np.testing.assert_allclose(check_priors((0.5, 0.5), counts), [0.5, 0.5])
    with pytest.raises(ValueError, match="sum to 1"):
        check_priors([0.5, 0.6], counts)
    with pytest.raises(ValueError, match="one entry per class"):
        check_priors([[0.5, 0.5]], counts)
    with pytest.raises(ValueError, match="numbers"):
        check_priors(["a", "b"], counts)


def test_cholesky_or_none_finds_the_dependent_feature():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(30, 4))
    A[:, 2] = A[:, 0] + 2 * A[:, 1]
    factor, feature = cholesky_or_none(A.T @ A)
    assert factor is None and feature == 2
    factor, feature = cholesky_or_none(np.diag([1.0, 0.0, 2.0]))
    assert factor is None and feature == 1
    S = np.array([[4.0, 2.0], [2.0, 3.0]])
    factor, feature = cholesky_or_none(S)
    assert feature is None
    np.testing.assert_allclose(factor @ factor.T, S)


def test_log_softmax_is_stable():
    scores = np.array([[1000.0, 0.0, -1000.0], [-1e5, -1e5 + 1, -1e5 + 2]])
    log_p = log_softmax(scores)
    assert np.all(np.isfinite(log_p[:, :2]))
    np.testing.assert_allclose(np.exp(log_p).sum(axis=1), 1.0)
    weights = np.exp([0.0, 1.0, 2.0])
    np.testing.assert_allclose(log_p[1], np.log(weights / weights.sum()))


def test_check_deviations_refuses_what_float64_cannot_square():
    fine = np.array([[1e150, -1e150], [1e-150, 0.0]])
    check_deviations(fine)
    check_deviations(np.zeros((3, 2)))  # no variation at all: left to the caller
    for bad, word in (
        (fine * 1e10, "large"),
        (np.array([[1e-160, -1e-170]]), "small"),
        (np.array([[np.inf, 0.0]]), "large"),
        (np.array([[np.nan, 0.0]]), "large"),
    ):
        with pytest.raises(ValueError, match=f"too {word}"):
            check_deviations(bad)


def test_scoring_dtype():
    small = np.array([1.0, -1e30])
    huge = np.array([1.0, -1e39])
    assert scoring_dtype(np.dtype(np.float32), small) == np.float32
    assert scoring_dtype(np.dtype(np.float32), small, huge) == np.float64
    assert scoring_dtype(np.dtype(np.float64), huge) == np.float64

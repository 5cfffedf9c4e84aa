"""The Cover–Hart bounds and the error after editing, as the course states them."""

import pytest

from patrec.neighbors import cover_hart_bounds, edited_nn_error


def test_cover_hart_bounds():
    assert cover_hart_bounds(0.0, 2) == (0.0, 0.0)
    assert cover_hart_bounds(0.25, 2) == (0.25, 0.375)
    lower, upper = cover_hart_bounds(0.1, 3)
    assert lower == 0.1 and upper == pytest.approx(0.1 * (2 - 1.5 * 0.1))
    # at the largest Bayes error (c - 1) / c the two bounds meet
    assert cover_hart_bounds(2 / 3, 3) == pytest.approx((2 / 3, 2 / 3))
    for c in (2, 5, 10):
        for p in (0.01, 0.2, 0.4):
            lower, upper = cover_hart_bounds(p, c)
            assert lower <= upper <= 2 * p


def test_edited_error():
    assert edited_nn_error(0.0) == 0.0
    assert edited_nn_error(0.2) == pytest.approx(0.125)
    assert edited_nn_error(0.5) == pytest.approx(0.5)
    for p in (0.05, 0.1, 0.3):
        assert edited_nn_error(p) < p


def test_errors_outside_the_range_are_rejected():
    with pytest.raises(ValueError, match=r"\[0, 0.5\]"):
        cover_hart_bounds(0.6, 2)
    with pytest.raises(ValueError, match="bayes_error"):
        cover_hart_bounds(-0.1, 2)
    with pytest.raises(ValueError, match="n_classes"):
        cover_hart_bounds(0.1, 1)
    with pytest.raises(TypeError, match="n_classes"):
        cover_hart_bounds(0.1, 2.5)
    with pytest.raises(ValueError, match="nn_error"):
        edited_nn_error(0.7)
    with pytest.raises(TypeError, match="nn_error"):
        edited_nn_error("0.1")
    with pytest.raises(ValueError, match="finite"):
        edited_nn_error(float("nan"))


def test_edited_error_is_refused_where_the_formula_would_exceed_the_unedited_error():
    # found by tests/test_hypothesis_functions.py: edited_nn_error(0.75, 4) was 1.5
    assert edited_nn_error(0.5, 3) == 0.5
    with pytest.raises(ValueError, match="at most 1/2"):
        edited_nn_error(0.625, 3)
    with pytest.raises(ValueError, match="at most 1/2"):
        edited_nn_error(0.75, 4)


def test_edited_error_of_the_mean_is_an_estimate_below_the_true_limit():
    """What the editing guide and the gallery's plot_edited_error claim: on two
    Gaussian classes (equal priors, unit covariance, means sqrt(5) apart), the
    formula applied to the overall 1-NN error lies below the edited rule's true
    asymptotic error (the mean of the local values) and even below the Bayes error."""
    import numpy as np
    from scipy.stats import norm

    distance = np.sqrt(5.0)
    bayes = norm.cdf(-distance / 2)
    assert bayes == pytest.approx(0.132, abs=5e-4)
    # along the line of the means (the other coordinates do not change p(x)),
    # x in units of the standard deviation, the midpoint at 0
    x = np.linspace(-12, 12, 200_001)
    density = 0.5 * (norm.pdf(x, -distance / 2) + norm.pdf(x, distance / 2))
    p = 0.5 * norm.pdf(x, distance / 2) / density
    r = 2 * p * (1 - p)
    dx = x[1] - x[0]
    nn_error = float(np.sum(r * density) * dx)
    edited_limit = float(np.sum(r / (2 * (1 - r)) * density) * dx)
    assert bayes < edited_limit < nn_error < 2 * bayes
    assert edited_nn_error(nn_error) < edited_limit
    assert edited_nn_error(nn_error) < bayes  # not a bound: no rule beats P*

"""The L-BFGS of linear/_optimize.py (softmax regression's optimiser)."""

import numpy as np
import pytest
from scipy.optimize import minimize, rosen, rosen_der

from patrec.linear._lbfgs import lbfgs_direction
from patrec.linear._optimize import minimize_lbfgs


def rosenbrock(x):
    return rosen(x), rosen_der(x)


def test_it_finds_rosenbrocks_minimum_as_scipys_lbfgsb_does():
    x0 = np.array([-1.2, 1.0, -0.5, 0.8, 1.3])
    kept = x0.copy()
    ours = minimize_lbfgs(rosenbrock, x0, gtol=1e-9, max_iter=1000)
    theirs = minimize(
        rosenbrock,
        x0,
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-9, "ftol": 64 * np.finfo(float).eps, "maxiter": 1000},
    )
    assert ours.success, ours.message
    np.testing.assert_allclose(ours.x, np.ones(5), atol=1e-7)
    assert ours.fun <= theirs.fun + 1e-15
    assert ours.nit <= 1.5 * theirs.nit  # (measured: 45 against 47)
    assert np.abs(ours.jac).max() <= 1e-9 or "relative reduction" in ours.message
    np.testing.assert_array_equal(x0, kept)  # the start is not modified


def test_an_ill_conditioned_quadratic_within_tol():
    scales = np.logspace(0, 4, 60)

    def quadratic(x):
        return 0.5 * float(x @ (scales * x)), scales * x

    result = minimize_lbfgs(quadratic, np.ones(60), gtol=1e-8, max_iter=2000)
    assert result.success
    assert np.abs(result.jac).max() <= 1e-8 or "relative" in result.message
    assert result.nfev < 2 * result.nit + 5


def test_a_start_at_the_minimum_takes_no_iteration():
    result = minimize_lbfgs(rosenbrock, np.ones(3), gtol=1e-6, max_iter=10)
    assert result.success and result.nit == 0 and result.nfev == 1


def test_the_iteration_limit_is_reported_as_not_converged():
    result = minimize_lbfgs(rosenbrock, np.full(4, -1.0), gtol=1e-12, max_iter=3)
    assert not result.success and result.nit == 3
    assert result.message == "the iteration limit was reached"


def test_a_wrong_gradient_stops_the_line_search_without_a_false_success():
    def uphill(x):  # the gradient points the wrong way: no step lowers f
        return float(x @ x), -2.0 * x

    result = minimize_lbfgs(uphill, np.ones(3), gtol=1e-8, max_iter=50)
    assert not result.success
    assert result.message == "the line search found no lower point"
    np.testing.assert_array_equal(result.x, np.ones(3))


def test_steps_that_overflow_are_backed_off():
    def steep(x):  # f is infinite beyond x = 1: the first trial steps land there
        if np.any(np.abs(x) >= 1):
            return np.inf, np.full_like(x, np.nan)
        return float(np.sum(x**2 / (1 - x**2))), 2 * x / (1 - x**2) ** 2

    result = minimize_lbfgs(steep, np.full(3, 0.9), gtol=1e-10, max_iter=200)
    assert result.success
    np.testing.assert_allclose(result.x, 0, atol=1e-10)


@pytest.mark.parametrize("count", [1, 3, 5])
@pytest.mark.parametrize("newest", [0, 2, 4])
def test_the_two_loop_recursion_is_the_bfgs_inverse_hessian(count, newest):
    """-H g from the ring of pairs equals the matrix of the BFGS updates, applied
    oldest pair first to gamma I (Nocedal and Wright, eq. 7.19)."""
    rng = np.random.default_rng(count * 10 + newest)
    n, m = 7, 5
    steps, changes = np.zeros((m, n)), np.zeros((m, n))
    A = rng.normal(size=(n, n))
    hessian = A @ A.T + n * np.eye(n)  # positive curvature for every pair
    order = [(newest - j) % m for j in range(count)][::-1]  # oldest first
    for i in order:
        steps[i] = rng.normal(size=n)
        changes[i] = hessian @ steps[i]
    rho = np.zeros(m)
    rho[order] = 1.0 / np.einsum("ij,ij->i", steps[order], changes[order])
    g = rng.normal(size=n)
    direction = np.empty(n)
    lbfgs_direction(g, steps, changes, rho, newest, count, np.empty(m), direction)
    s, y = steps[newest], changes[newest]
    H = (s @ y) / (y @ y) * np.eye(n)
    for i in order:
        V = np.eye(n) - rho[i] * np.outer(changes[i], steps[i])
        H = V.T @ H @ V + rho[i] * np.outer(steps[i], steps[i])
    np.testing.assert_allclose(direction, -H @ g, rtol=1e-12, atol=1e-12)


def test_without_pairs_the_direction_is_steepest_descent():
    g = np.array([1.0, -2.0, 3.0])
    direction = np.empty(3)
    lbfgs_direction(
        g, np.zeros((2, 3)), np.zeros((2, 3)), np.zeros(2), 1, 0, np.empty(2), direction
    )
    np.testing.assert_array_equal(direction, -g)


def test_a_gradient_whose_length_overflows_is_followed_not_read_as_convergence():
    # Issue 37: ||g|| overflowed to inf, the first direction -g / ||g|| was zero,
    # the step left x where it was, and the zero reduction of f read as convergence.
    def steep(x):
        d = x - 1.0
        return 0.5e200 * float(d @ d), 1e200 * d

    result = minimize_lbfgs(steep, np.zeros(4), gtol=1e-8, max_iter=100)
    assert result.success, result.message
    np.testing.assert_allclose(result.x, np.ones(4))


def test_a_start_where_the_gradient_is_not_finite_is_no_convergence():
    def overflowed(x):
        return 1.0, np.full_like(x, np.inf)

    result = minimize_lbfgs(overflowed, np.zeros(3), gtol=1e-8, max_iter=10)
    assert not result.success and result.nit == 0
    assert result.message == "f or its gradient is not finite at x0 (an overflow?)"


def test_a_point_whose_gradient_is_not_finite_is_never_accepted():
    def trap(x):  # f finite everywhere, its gradient not beyond 1 (minimum at 2)
        d = x - 2.0
        g = 2 * d if np.all(x < 1) else np.full_like(x, np.nan)
        return float(d @ d), g

    result = minimize_lbfgs(trap, np.full(3, -0.9), gtol=1e-8, max_iter=100)
    assert not result.success
    assert np.isfinite(result.jac).all() and np.all(result.x < 1)


def test_gtol_may_be_one_bound_per_entry():
    def quadratic(x):
        return 0.5 * float(x @ x), x

    x0 = np.array([1e-5, 1e-5])
    assert minimize_lbfgs(quadratic, x0, gtol=1.0, max_iter=5).nit == 0
    result = minimize_lbfgs(quadratic, x0, gtol=np.array([1.0, 1e-6]), max_iter=5)
    assert result.success and result.nit >= 1 and abs(result.jac[1]) <= 1e-6

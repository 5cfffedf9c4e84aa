"""L-BFGS for a smooth function of unconstrained parameters.

Each iteration takes the direction p = -H g of the two-loop recursion (`_lbfgs.pyx`),
H the inverse-Hessian estimate of the ``memory`` newest steps and gradient changes,
and a step along p that meets the strong Wolfe conditions

    f(x + a p) <= f(x) + c1 a g^T p,      |g(x + a p)^T p| <= c2 |g^T p|

(c1 = 1e-3, c2 = 0.9), found by bracketing and cubic interpolation (Nocedal and
Wright, *Numerical Optimization*, 2nd ed., Algorithms 3.5, 3.6 and 7.5).  The first
iteration tries the step 1 / ||g||, every later one the step 1.

The stopping rules are those of scipy's L-BFGS-B, so ``gtol`` and ``ftol`` mean what
they mean there (and in scikit-learn's ``LogisticRegression``, which passes its tol as
``gtol``): converged when every gradient entry is at most ``gtol`` in magnitude, or
when an iteration lowers f by at most ``ftol`` relative to max(|f|, 1).

Why not scipy's: for a softmax regression of the size of the digits, an evaluation
of f and g costs about 130 microseconds and L-BFGS-B's own work (its Python layer
and its bound-constraint machinery, idle here) about 50 more an iteration; this loop
costs a few.  The arithmetic per iteration is O(memory n) besides the evaluations.
"""

import math
from typing import NamedTuple

import numpy as np

from ._lbfgs import lbfgs_direction

__all__ = ["LbfgsResult", "minimize_lbfgs"]

_EPS = np.finfo(float).eps
_C1, _C2 = 1e-3, 0.9  # sufficient decrease and curvature (L-BFGS-B's values)


class LbfgsResult(NamedTuple):
    """What `minimize_lbfgs` returns."""

    x: np.ndarray
    fun: float
    jac: np.ndarray
    nit: int
    nfev: int
    success: bool
    message: str


class _Point(NamedTuple):
    step: float
    x: np.ndarray
    f: float
    g: np.ndarray
    slope: float  # g^T p, the derivative of f along p


def minimize_lbfgs(
    fun,
    x0,
    *,
    gtol,
    max_iter,
    ftol=64 * _EPS,
    memory=10,
    max_evaluations_per_step=50,
    callback=None,
):
    """Minimise ``fun`` from ``x0`` by L-BFGS.

    Parameters
    ----------
    fun : callable
        ``fun(x)`` returns ``(f, g)``: the value (float) and the gradient (ndarray of
        x's shape) at x.  It must not keep or modify x.
    x0 : ndarray of shape (n,)
        The starting point (not modified).
    gtol : float or ndarray of shape (n,)
        Converged when |g_i| <= gtol (or gtol_i) for every i.
    max_iter : int
        Most iterations; reaching it is reported as not converged.
    ftol : float, default=64 machine epsilons
        Converged when an iteration lowers f by at most ftol max(|f_old|, |f|, 1).
    memory : int, default=10
        Correction pairs kept (m).
    max_evaluations_per_step : int, default=50
        Most evaluations one line search may make.
    callback : callable, default=None
        ``callback(x, f)`` after every iteration.

    Returns
    -------
    LbfgsResult
        ``x``, ``fun`` and ``jac`` at the end, the iterations ``nit`` and
        evaluations ``nfev`` made, ``success`` and a ``message`` saying why it
        stopped.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.optimize import rosen, rosen_der
    >>> result = minimize_lbfgs(
    ...     lambda x: (rosen(x), rosen_der(x)), np.array([-1.2, 1.0]), gtol=1e-8,
    ...     max_iter=100)
    >>> result.success, np.round(result.x, 6).tolist()
    (True, [1.0, 1.0])
    """
    # Overflow (inputs near 1e150) gives inf or nan, which the line search backs off
    # from and the update skips; the warnings numpy would raise meanwhile are off.
    # An overflow at x0 itself leaves no direction to go: it is a failure, never a
    # convergence.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return _iterate(
            fun, x0, gtol, max_iter, ftol, memory, max_evaluations_per_step, callback
        )


def _iterate(fun, x0, gtol, max_iter, ftol, memory, max_evaluations, callback):
    x = np.array(x0, dtype=np.float64)
    n = x.shape[0]
    f, g = fun(x)
    f = float(f)
    nfev, nit = 1, 0
    steps, changes = np.empty((memory, n)), np.empty((memory, n))
    rho, alpha, p = np.empty(memory), np.empty(memory), np.empty(n)
    newest, count = memory - 1, 0

    def result(success, message):
        return LbfgsResult(x, float(f), g, nit, nfev, success, message)

    if not (math.isfinite(f) and np.isfinite(g).all()):
        return result(False, "f or its gradient is not finite at x0 (an overflow?)")
    if np.all(np.abs(g) <= gtol):
        return result(True, "the gradient is below gtol")
    while nit < max_iter:
        lbfgs_direction(g, steps, changes, rho, newest, count, alpha, p)
        slope = float(g @ p)
        if not slope < 0:  # (rounding made -H g no descent direction): restart
            count = 0
            np.negative(g, out=p)
            slope = float(g @ p)
        if nit == 0 or not math.isfinite(slope):
            # L-BFGS-B's first step: a unit length along -g (p scaled, step 1)
            p /= _length(p)
            slope = float(g @ p)
        start = _Point(0.0, x, f, g, slope)
        found, used = _wolfe_step(fun, start, p, 1.0, max_evaluations)
        nfev += used
        if found is None:
            if count:  # forget the pairs and try once more along -g
                count = 0
                continue
            return result(False, "the line search found no lower point")
        nit += 1
        step, change = found.x - x, found.g - g
        curvature = float(step @ change)
        # (a pair without positive curvature would spoil H: it is skipped)
        if curvature > _EPS * float(change @ change):
            newest = (newest + 1) % memory
            steps[newest], changes[newest] = step, change
            rho[newest] = 1.0 / curvature
            count = min(count + 1, memory)
        f_old = f
        x, f, g = found.x, found.f, found.g
        if callback is not None:
            callback(x, f)
        if np.all(np.abs(g) <= gtol):
            return result(True, "the gradient is below gtol")
        if f_old - f <= ftol * max(abs(f_old), abs(f), 1.0):
            return result(True, "the relative reduction of f is below ftol")
    return result(False, "the iteration limit was reached")


def _wolfe_step(fun, start, p, step, max_evaluations):
    """A point x + a p meeting the strong Wolfe conditions, and the evaluations it
    took; None when ``max_evaluations`` found none.  Algorithm 3.5 of Nocedal and
    Wright: grow the step until it brackets an acceptable one, then `_zoom`."""
    previous = start
    for used in range(1, max_evaluations + 1):
        trial = _evaluate(fun, start, p, step)
        if not _sufficient_decrease(start, trial) or (
            used > 1 and trial.f >= previous.f
        ):
            return _zoom(fun, start, p, previous, trial, max_evaluations - used, used)
        if abs(trial.slope) <= -_C2 * start.slope:
            return trial, used
        if trial.slope >= 0:
            return _zoom(fun, start, p, trial, previous, max_evaluations - used, used)
        previous, step = trial, 4.0 * step
    return None, max_evaluations


def _zoom(fun, start, p, low, high, evaluations_left, used):
    """Algorithm 3.6: shrink [low, high], which holds an acceptable step, ``low``
    the end with the lower f that satisfies sufficient decrease."""
    lowest = low if low.step > 0 and low.f < high.f else high  # (a step > 0)
    resolution = _EPS * np.abs(start.x).max(initial=0.0) / np.abs(p).max()
    for _ in range(evaluations_left):
        step = _cubic_minimum(low, high)
        trial = _evaluate(fun, start, p, step)
        used += 1
        if trial.f <= lowest.f:
            lowest = trial
        if not _sufficient_decrease(start, trial) or trial.f >= low.f:
            high = trial
        else:
            if abs(trial.slope) <= -_C2 * start.slope:
                return trial, used
            if trial.slope * (high.step - low.step) >= 0:
                high = low
            low = trial
        if abs(high.step - low.step) <= _EPS * max(low.step, high.step) or (
            max(low.step, high.step) <= resolution
        ):
            break  # (the interval is as small as the steps can resolve, or x)
    # No step met the curvature condition: the best one that lowers f enough will
    # do, or else one that lowers f at all (f and g known only to their rounding,
    # as with float32 data near the minimum); None when no step lowered f.
    if low.step > 0:
        return low, used
    return (lowest if lowest.f < start.f else None), used


def _evaluate(fun, start, p, step):
    """The point at ``step`` along p.  Where the gradient is not finite (or its
    slope overflows) f counts as infinite, so that the line search backs off and
    every point it accepts has a usable gradient."""
    x = start.x + step * p
    f, g = fun(x)
    slope = float(g @ p)
    return _Point(step, x, float(f) if math.isfinite(slope) else math.inf, g, slope)


def _length(v):
    """||v||, also when the squares of its entries overflow or underflow."""
    length = float(np.linalg.norm(v))
    if not 0.0 < length < math.inf:
        top = float(np.abs(v).max(initial=0.0))
        if 0.0 < top < math.inf:
            length = top * float(np.linalg.norm(v / top))
    return length


def _sufficient_decrease(start, trial):
    return trial.f <= start.f + _C1 * trial.step * start.slope


def _cubic_minimum(a, b):
    """The minimiser of the cubic through f and its slope at steps a and b, kept
    inside the middle 80% of the interval (its midpoint when the cubic has none).
    Python floats throughout: an overflow gives inf or nan, which fall back on the
    midpoint, and no warning."""
    low, high = min(a.step, b.step), max(a.step, b.step)
    width = high - low
    if width == 0:
        return low
    d1 = a.slope + b.slope - 3.0 * (a.f - b.f) / (a.step - b.step)
    radicand = d1 * d1 - a.slope * b.slope
    if radicand >= 0:
        d2 = math.copysign(math.sqrt(radicand), b.step - a.step)
        denominator = b.slope - a.slope + 2.0 * d2
        if denominator != 0:
            step = b.step - (b.step - a.step) * (b.slope + d2 - d1) / denominator
            if math.isfinite(step):
                return min(max(step, low + 0.1 * width), high - 0.1 * width)
    return low + 0.5 * width

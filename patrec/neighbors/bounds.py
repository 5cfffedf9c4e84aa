"""Asymptotic error bounds of the nearest-neighbour rule.

With infinitely many independent training samples, the error rate P of the 1-NN rule
is bounded by the Bayes error P* (the smallest error any rule can reach) as

    P* <= P <= P* (2 - c / (c - 1) * P*)   <=   2 P*,

for c classes (Cover and Hart).  The same bounds hold for k-NN, whose error falls
towards P* as k grows (with k much smaller than the number of samples).  For two
classes, editing the training set with the 1-NN rule itself (remove the samples that
the others misclassify, then classify by 1-NN) brings the rule's conditional error
r(x) down to r(x) / (2 (1 - r(x))) at every point; `edited_nn_error` applies the
formula to the overall error,

    P_edit = P / (2 (1 - P)),

an estimate, not a bound (see its notes).
"""

import numbers

from .._validation import check_scalar

__all__ = ["cover_hart_bounds", "edited_nn_error"]


def _check_error(error, name, n_classes):
    check_scalar(n_classes, "n_classes", numbers.Integral, low=2)
    highest = (n_classes - 1) / n_classes
    check_scalar(error, name, numbers.Real)
    if not 0 <= error <= highest:
        raise ValueError(
            f"{name} must be an error rate in [0, (c - 1) / c] = [0, {highest:g}] for "
            f"c = {n_classes} classes (guessing does no worse), got {error!r}."
        )
    return float(error)


def cover_hart_bounds(bayes_error, n_classes):
    """Lower and upper bounds of the asymptotic 1-NN (and k-NN) error rate.

    Parameters
    ----------
    bayes_error : float
        The Bayes error P*, in ``[0, (c - 1) / c]``.
    n_classes : int
        The number of classes c, at least 2.

    Returns
    -------
    lower : float
        P*.
    upper : float
        P* (2 - c / (c - 1) P*).

    References
    ----------
    .. [1] T. M. Cover and P. E. Hart, "Nearest neighbor pattern classification",
       IEEE Transactions on Information Theory, 13(1), 21–27, 1967.

    Examples
    --------
    >>> from patrec.neighbors import cover_hart_bounds
    >>> cover_hart_bounds(0.25, 2)
    (0.25, 0.375)
    """
    p = _check_error(bayes_error, "bayes_error", n_classes)
    upper = p * (2 - n_classes / (n_classes - 1) * p)
    return p, upper


def edited_nn_error(nn_error, n_classes=2):
    """Asymptotic error of 1-NN after editing the training set with 1-NN.

    Parameters
    ----------
    nn_error : float
        The asymptotic 1-NN error P1 without editing, in ``[0, 1/2]`` (and in
        ``[0, (c - 1) / c]``): the formula is Wilson's two-class result, and above
        1/2 it would exceed P1 itself (above 2/3 even 1), so larger values are
        refused.
    n_classes : int, default=2
        The number of classes c, at least 2 (checked with ``nn_error``).

    Returns
    -------
    error : float
        P1 / (2 (1 - P1)).

    Notes
    -----
    Wilson's result holds point by point: where the 1-NN rule's conditional error is
    r(x), the edited rule's is r(x) / (2 (1 - r(x))), and its asymptotic error is
    the mean of that over the data.  Applied to the overall error P1, as here, the
    formula is an estimate and not a bound: being convex, it gives at most the
    mean of the local values (Jensen's inequality), and it can fall below the Bayes
    error, which no rule beats (gallery: ``plot_edited_error``).

    References
    ----------
    .. [1] D. L. Wilson, "Asymptotic properties of nearest neighbor rules using edited
       data", IEEE Transactions on Systems, Man, and Cybernetics, 2(3), 408–421, 1972.
    .. [2] P. A. Devijver and J. Kittler, *Pattern Recognition: A Statistical
       Approach*, Prentice-Hall, 1982, chapter 3.

    Examples
    --------
    >>> from patrec.neighbors import edited_nn_error
    >>> edited_nn_error(0.2)
    0.125
    """
    p = _check_error(nn_error, "nn_error", n_classes)
    if p > 0.5:
        raise ValueError(
            f"nn_error must be at most 1/2 for the edited error P1 / (2 (1 - P1)), got "
            f"{nn_error!r}: the formula is Wilson's two-class result, and above 1/2 it "
            "would exceed P1 (above 2/3 it exceeds 1)."
        )
    return p / (2 * (1 - p))

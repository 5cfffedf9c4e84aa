"""Errors and warnings raised by patrec.

`NotFittedError` is a `ValueError` and an `AttributeError`, like scikit-learn's.  When
the caller has scikit-learn loaded, the error patrec raises is also an instance of
scikit-learn's own ``NotFittedError`` so that ``except sklearn.exceptions.NotFittedError``
catches it.  patrec never imports scikit-learn to make this work: it looks in
``sys.modules`` only.
"""

import sys
import warnings

__all__ = ["NotFittedError", "DataConversionWarning", "ConvergenceWarning"]


class NotFittedError(ValueError, AttributeError):
    """An estimator was used before ``fit`` was called."""

    def __reduce__(self):
        # Rebuilt through not_fitted_error, so a bridged error pickles too (it has no
        # module-level name) and unpickles bridged wherever scikit-learn is loaded.
        return not_fitted_error, (str(self),)


class DataConversionWarning(UserWarning):
    """The input was converted: for example a column vector ``y`` was flattened."""


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped before it converged; its result may be poor."""


def warn_caller(message, category):
    """``warnings.warn`` shown at the first line outside patrec that led here: the
    caller's ``fit``, however deep inside patrec the warning arose (a reduction
    fitting its binary models, say)."""
    package = __name__.partition(".")[0]
    frame, stacklevel = sys._getframe(1), 2  # 2: the function calling warn_caller
    while frame is not None and _module(frame).partition(".")[0] == package:
        frame, stacklevel = frame.f_back, stacklevel + 1
    warnings.warn(message, category, stacklevel=stacklevel)


def _module(frame):
    return frame.f_globals.get("__name__", "")


_bridges = {}


def not_fitted_error(message):
    """Make the `NotFittedError` to raise, bridged to scikit-learn's when it is loaded."""
    sklearn_exceptions = sys.modules.get("sklearn.exceptions")
    foreign = getattr(sklearn_exceptions, "NotFittedError", None)
    if foreign is None:
        return NotFittedError(message)
    bridge = _bridges.get(foreign)
    if bridge is None:
        bridge = type(
            "NotFittedError", (NotFittedError, foreign), {"__module__": __name__}
        )
        _bridges[foreign] = bridge
    return bridge(message)

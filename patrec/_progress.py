"""Progress reports for long work: the ``verbose`` parameter of every estimator.

One rule everywhere: ``verbose=0`` (or ``False``) says nothing; ``verbose=1`` reports a
summary of what was done (epochs run and mistakes left, rounds, samples kept);
``verbose=2`` and above add one line per step (per epoch, per round, per batch).
Lines go to standard error, flushed at once, so they never interleave with a table
printed to standard output, and each starts with the name of the reporter::

    [LinearMachine] epoch 3: 12 mistakes
"""

import numbers
import sys

__all__ = ["check_verbose", "Reporter"]


def check_verbose(verbose):
    """Validate a ``verbose`` parameter: a bool or a non-negative int; return the int."""
    if isinstance(verbose, (bool,)) or (
        hasattr(verbose, "dtype") and getattr(verbose.dtype, "kind", "") == "b"
    ):
        return int(verbose)
    if not isinstance(verbose, numbers.Integral):
        raise TypeError(
            f"verbose must be a bool or a non-negative integer, got {verbose!r}."
        )
    if verbose < 0:
        raise ValueError(f"verbose must be a non-negative integer, got {verbose!r}.")
    return int(verbose)


class Reporter:
    """Writes ``[name] message`` lines to standard error when ``verbose`` asks for them.

    Parameters
    ----------
    name : str
        Shown at the start of every line (the estimator's or function's name).
    verbose : bool or int
        The caller's ``verbose`` parameter; validated here.

    Examples
    --------
    >>> log = Reporter("condense", verbose=0)
    >>> log(1, "kept 12 samples")    # verbose=0: prints nothing
    >>> bool(log)
    False
    """

    def __init__(self, name, verbose):
        self.name = name
        self.verbose = check_verbose(verbose)

    def __bool__(self):
        return self.verbose > 0

    def wants(self, level):
        """Whether lines of this level are printed (level 1: summary, 2: steps)."""
        return self.verbose >= level

    def __call__(self, level, message):
        """Print ``message`` if ``verbose >= level``."""
        if self.verbose >= level:
            print(f"[{self.name}] {message}", file=sys.stderr, flush=True)

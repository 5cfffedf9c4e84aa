"""Pickles carry the version of patrec that wrote them; another version's are refused.

A pickle holds an object's private arrays (a tree's nodes, a learner's weights) in
the layout of the version that wrote it; read by another version they could mean
something else.  Every estimator (`patrec.base.BaseEstimator`), index and compiled
tree stamps its state with `VERSION_KEY` and checks it when loaded.
"""

from ._version import __version__

__all__ = ["VERSION_KEY", "check_pickle_version", "stamped", "unstamped"]

VERSION_KEY = "_patrec_version"


def check_pickle_version(version, what):
    """Raise a ValueError naming both versions unless ``version`` is this one."""
    ours = __version__
    if version != ours:
        written = (
            f"patrec {version}"
            if version is not None
            else "a version of patrec that did not record its version"
        )
        raise ValueError(
            f"This {what} was pickled by {written}; this is patrec {ours}. A pickle "
            "is read only by the version that wrote it: fit the model again with "
            f"patrec {ours}, or load the pickle where that version is installed."
        )


def stamped(state):
    """A copy of the ``state`` dict with this version under `VERSION_KEY`."""
    return {**state, VERSION_KEY: __version__}


def unstamped(state, what):
    """The ``state`` dict of a pickle, checked and without its version stamp."""
    state = dict(state)
    check_pickle_version(state.pop(VERSION_KEY, None), what)
    return state

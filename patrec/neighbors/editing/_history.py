"""What editing and condensing did, step by step (``return_history=True``).

Each record holds sample indices into the ``X`` the function was given, so that a
student can replay the algorithm (see ``replay`` in the tests, and the gallery's
animation of condensing) and see exactly which samples went where and when.
"""

from dataclasses import dataclass

import numpy as np

__all__ = [
    "EditHistory",
    "MultieditRound",
    "MultieditHistory",
    "CondenseHistory",
    "EditCondenseHistory",
]


@dataclass(frozen=True)
class EditHistory:
    """The rounds of (repeated) Wilson editing.

    Attributes
    ----------
    removed : tuple of ndarray
        ``removed[r]``: the sorted indices removed in round ``r``; every round judged
        the samples left by the rounds before it.  A last empty entry means editing
        stopped because a round removed nothing.
    """

    removed: tuple

    @property
    def n_rounds(self):
        """Number of rounds run."""
        return len(self.removed)


@dataclass(frozen=True)
class MultieditRound:
    """One round of multi-edit.

    Attributes
    ----------
    subsets : tuple of ndarray
        The random split of the remaining samples: subset ``i`` was judged by the
        1-NN rule trained on subset ``(i + 1) % n_splits``.
    discarded : tuple of ndarray
        ``discarded[i]``: the samples of ``subsets[i]`` that were discarded (in the
        order of the subset).
    """

    subsets: tuple
    discarded: tuple


@dataclass(frozen=True)
class MultieditHistory:
    """The rounds of Devijver and Kittler's multi-edit.

    Attributes
    ----------
    rounds : tuple of MultieditRound
        In the order they ran; a round that discarded nothing ends the editing.
    """

    rounds: tuple

    @property
    def n_rounds(self):
        """Number of rounds run."""
        return len(self.rounds)


@dataclass(frozen=True)
class CondenseHistory:
    """The passes of Hart's condensing.

    Attributes
    ----------
    order : ndarray
        The order in which the samples were visited (every pass uses it).
    seeds : ndarray
        The samples in the store before the first pass: the first sample visited
        or, when only some classes are condensed, every sample of the others.
    passes : tuple of ndarray
        ``passes[j]``: the samples moved into the store during pass ``j``, in the
        order they moved.  The last pass moves nothing: it confirms that the store
        classifies every sample correctly.
    """

    order: np.ndarray
    seeds: np.ndarray
    passes: tuple

    @property
    def stored(self):
        """Every stored sample in the order it entered the store (seeds first)."""
        return np.concatenate((self.seeds, *self.passes)).astype(np.intp)

    @property
    def n_passes(self):
        """Number of passes run."""
        return len(self.passes)


@dataclass(frozen=True)
class EditCondenseHistory:
    """Multi-edit followed by condensing: both histories, indices into the full ``X``.

    Attributes
    ----------
    multiedit : MultieditHistory
    condense : CondenseHistory
        Condensing of the edited samples.
    """

    multiedit: MultieditHistory
    condense: CondenseHistory

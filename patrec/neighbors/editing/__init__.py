"""Editing and condensing the training set of the nearest-neighbour rule.

`editing` (Wilson's editing, Devijver and Kittler's multi-edit) removes the samples
in the overlap of the classes; `condensing` (Hart's rule, and multi-edit followed by
it) removes the samples far from the boundary.  `resampling` wraps both as
resamplers for pipelines; the histories record what each step did.
"""

from ._history import (
    CondenseHistory,
    EditCondenseHistory,
    EditHistory,
    MultieditHistory,
    MultieditRound,
)
from .condensing import condense, edit_condense
from .editing import edit, multiedit
from .resampling import Condensing, EditCondensing, Editing, MultiEditing

__all__ = [
    "edit",
    "multiedit",
    "condense",
    "edit_condense",
    "EditHistory",
    "MultieditRound",
    "MultieditHistory",
    "CondenseHistory",
    "EditCondenseHistory",
    "Editing",
    "MultiEditing",
    "Condensing",
    "EditCondensing",
]

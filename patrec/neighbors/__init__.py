"""Nearest-neighbour methods: distances, exact search (brute force and
branch-and-bound), k-NN classification, editing and condensing of the training
set (functions, and resamplers for pipelines), and the asymptotic error bounds."""
from .bounds import cover_hart_bounds, edited_nn_error
from .brute import BruteForce
from .classifier import KNeighborsClassifier
from ._history import (CondenseHistory, EditCondenseHistory, EditHistory,
                       MultieditHistory, MultieditRound)
from .editing import condense, edit, edit_condense, multiedit
from .resampling import Condensing, EditCondensing, Editing, MultiEditing
from .metrics import METRICS, Metric, pairwise_distances
from .tree import BranchBoundTree

__all__ = [
    "METRICS",
    "Metric",
    "pairwise_distances",
    "BruteForce",
    "BranchBoundTree",
    "KNeighborsClassifier",
    "cover_hart_bounds",
    "edited_nn_error",
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

"""Nearest-neighbour methods: distances, search, classification, editing, condensing."""
from .bounds import cover_hart_bounds, edited_nn_error
from .brute import BruteForce
from .classifier import KNeighborsClassifier
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
]

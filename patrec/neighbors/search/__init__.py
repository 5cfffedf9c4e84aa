"""Exact nearest-neighbour search: the distances, brute force, the Fukunaga–Narendra
branch-and-bound tree, and the choice between them (``algorithm="auto"``).

Bottom up: `metrics` (the distances and their compiled kernels), ``_index`` (what
every index shares), `brute` and `tree` (the two searches; `tree` also explains a
search step by step), ``_auto`` (which of them ``algorithm="auto"`` uses).
"""

from ._auto import build_index, choose_algorithm
from .brute import BruteForce
from .metrics import METRIC_ALIASES, METRICS, Metric, pairwise_distances
from .tree import BranchBoundTree

__all__ = [
    "METRICS",
    "METRIC_ALIASES",
    "Metric",
    "pairwise_distances",
    "BruteForce",
    "BranchBoundTree",
    "build_index",
    "choose_algorithm",
]

"""Nearest-neighbour methods, by job.

- `search`: the distances and exact search (brute force, the branch-and-bound tree,
  and the choice between them);
- `classifier`: the k-NN rule with weighted votes and a reject option, on that
  search; `nearest`: scikit-learn's unsupervised ``NearestNeighbors``, exact;
  `bounds`: the Cover–Hart asymptotic error bounds;
- `editing`: editing and condensing of the training set (functions, and resamplers
  for pipelines).

Every public name is also here, as ``patrec.neighbors.<name>``.
"""

from .bounds import cover_hart_bounds, edited_nn_error
from .classifier import KNeighborsClassifier
from .editing import (
    CondenseHistory,
    Condensing,
    EditCondenseHistory,
    EditCondensing,
    EditHistory,
    Editing,
    MultieditHistory,
    MultiEditing,
    MultieditRound,
    condense,
    edit,
    edit_condense,
    multiedit,
)
from .nearest import NearestNeighbors
from .search import METRICS, BranchBoundTree, BruteForce, Metric, pairwise_distances
from .search._explain import SearchExplanation

__all__ = [
    "METRICS",
    "Metric",
    "pairwise_distances",
    "BruteForce",
    "BranchBoundTree",
    "SearchExplanation",
    "KNeighborsClassifier",
    "NearestNeighbors",
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

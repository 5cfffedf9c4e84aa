"""Pictures of the algorithms (matplotlib, imported only when a function is called).

- `regions`: the decision regions of a fitted classifier over 2-D data
  (`plot_decision_regions`), with prototypes, a reject region and one-vs-all claims;
- `history`: the corrections and training error of an error-correcting learner,
  epoch by epoch (`plot_history`);
- `animation`: its decision regions replayed correction by correction
  (`animate_training`);
- `search`: the branch-and-bound search of one query, the course's figure
  (`plot_search`);
- `evaluation`: how a classifier does: its confusion matrix
  (`plot_confusion_matrix`) and Chow's error-reject curve
  (`plot_error_reject_curve`).
"""

from .animation import animate_training
from .evaluation import plot_confusion_matrix, plot_error_reject_curve
from .history import plot_history
from .regions import plot_decision_regions
from .search import plot_search

__all__ = [
    "plot_decision_regions",
    "plot_history",
    "animate_training",
    "plot_search",
    "plot_confusion_matrix",
    "plot_error_reject_curve",
]


def __dir__():
    """``dir(patrec.plotting)``: the public functions only, not the helpers."""
    return list(__all__)

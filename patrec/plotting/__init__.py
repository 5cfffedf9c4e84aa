"""Pictures of the algorithms (matplotlib, imported only when a function is called).

- `regions`: the decision regions of a fitted classifier over 2-D data
  (`plot_decision_regions`), with prototypes, a reject region and one-vs-all claims;
- `history`: the corrections and training error of an error-correcting learner,
  epoch by epoch (`plot_history`);
- `animation`: its decision regions replayed correction by correction
  (`animate_training`);
- `search`: the branch-and-bound search of one query, the course's figure
  (`plot_search`).
"""

from .animation import animate_training
from .history import plot_history
from .regions import plot_decision_regions
from .search import plot_search

__all__ = ["plot_decision_regions", "plot_history", "animate_training", "plot_search"]


def __dir__():
    """``dir(patrec.plotting)``: the public functions only, not the helpers."""
    return list(__all__)

"""Draw docs/_static/piecewise_linear.png, the figure shown by the README and the
front page (a small copy of the gallery example plot_piecewise_linear.py).

Run from the repository root: ``python docs/readme_figure.py``.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from patrec import (
    LinearMachine,
    MinimumDistanceClassifier,  # noqa: E402
    PiecewiseLinearClassifier,
)
from patrec.datasets import make_banana  # noqa: E402
from patrec.plotting import plot_decision_regions  # noqa: E402

X, codes = make_banana(n_samples=400, noise=0.1, random_state=0)
y = np.array(["crescent A", "crescent B"])[codes]
panels = [
    (LinearMachine(averaged=True, random_state=0), "linear machine"),
    (
        MinimumDistanceClassifier(n_prototypes=3, random_state=0),
        "nearest of 3 subclass means",
    ),
    (
        PiecewiseLinearClassifier(n_subclasses=3, random_state=0),
        "piecewise-linear machine",
    ),
]
fig, axes = plt.subplots(1, 3, figsize=(10.5, 3.4))
for ax, (clf, title) in zip(axes, panels):
    clf.fit(X, y)
    plot_decision_regions(
        clf,
        X,
        y,
        ax=ax,
        resolution=150,
        prototypes=True if hasattr(clf, "prototypes_") else None,
        legend=ax is axes[0],
    )
    ax.set_title(f"{title}\ntraining error {1 - clf.score(X, y):.3f}", fontsize=10)
    ax.set_xlabel("feature 1")
    ax.set_ylabel("feature 2" if ax is axes[0] else "")
fig.tight_layout()
out = Path(__file__).parent / "_static" / "piecewise_linear.png"
fig.savefig(out, dpi=80)
print(out)

r"""
=====================================================
All pairs: one contest per pair of classes, and votes
=====================================================

All-pairs trains one binary model :math:`f_{yr}` for every pair of classes
:math:`y < r`, on the samples of those two classes only: :math:`c (c - 1) / 2` models
for :math:`c` classes.  Each model is a contest: a point :math:`\mathbf{x}` on its
positive side is a vote for :math:`y`, on its negative side a vote for :math:`r`.  The
class with the most votes wins.

With the three iris species there are three contests (the first three panels; the
grey samples belong to the third species, which that model never sees).  Each class
takes part in two contests, so a point usually goes 2-1-0.  Where the three boundaries
do not meet in one point, they enclose a triangle in which every species wins exactly
one contest: a 1-1-1 tie, the undefined vote the course warns about (hatched in the
last panel).  ``AllPairs(decision="vote")`` breaks such ties by the summed scores
:math:`\sum_{r \ne i} f_{ir}(\mathbf{x}) / \lVert \mathbf{w}_{ir} \rVert`; the default
``decision="sum"`` uses that sum everywhere, as in the course's rule
:math:`\operatorname{argmax}_i \sum_{r \ne i} \mathbf{a}_{ir}^T \mathbf{y}`.
"""

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

from patrec import AllPairs
from patrec.datasets import load_iris
from patrec.exceptions import ConvergenceWarning
from patrec.plotting import plot_decision_regions

# The pairwise perceptrons of overlapping iris species stop at their max_epochs
# and say so in a ConvergenceWarning: expected here, and silenced.
warnings.filterwarnings("ignore", category=ConvergenceWarning)

iris = load_iris()
features = [0, 2]  # sepal length and petal length
X = iris.data[:, features]
X = (X - X.mean(axis=0)) / X.std(axis=0)  # standardised: the perceptrons train better
labels = iris.target_names[iris.target]
clf = AllPairs(decision="vote").fit(X, labels)
names = clf.classes_
colors = plt.get_cmap("tab10").colors

# The same area as plot_decision_regions draws: the data's range plus 10% each side.
pad = 0.1 * (X.max(axis=0) - X.min(axis=0))
low, high = X.min(axis=0) - pad, X.max(axis=0) + pad
grid_x, grid_y = np.meshgrid(
    np.linspace(low[0], high[0], 300), np.linspace(low[1], high[1], 300)
)
grid = np.column_stack([grid_x.ravel(), grid_y.ravel()])

fig, axes = plt.subplots(1, 4, figsize=(18, 4.6), sharey=True)
votes = np.zeros((len(grid), len(names)))
for ax, (first, second), model in zip(axes, clf.pairs_, clf.estimators_):
    score = model.decision_function(grid)
    votes[:, first] += (score > 0) + 0.5 * (score == 0)
    votes[:, second] += (score < 0) + 0.5 * (score == 0)
    ax.contourf(
        grid_x,
        grid_y,
        (score > 0).reshape(grid_x.shape),
        levels=[-0.5, 0.5, 1.5],
        colors=[colors[second], colors[first]],
        alpha=0.25,
    )
    ax.contour(
        grid_x,
        grid_y,
        score.reshape(grid_x.shape),
        levels=[0],
        colors="k",
        linestyles="dashed",
        linewidths=1.2,
    )
    for code in range(len(names)):
        inside = labels == names[code]
        in_contest = code in (first, second)
        ax.scatter(
            *X[inside].T,
            s=14,
            color=colors[code] if in_contest else "0.8",
            edgecolors="k" if in_contest else "0.6",
            linewidths=0.3,
            label=names[code] if in_contest else f"{names[code]} (not seen)",
        )
    ax.set_title(f"contest {names[first]} vs {names[second]}")
    ax.legend(fontsize="small", loc="upper left")

best = votes.max(axis=1)
tied = ((votes == best[:, None]).sum(axis=1) > 1).reshape(grid_x.shape)
final = axes[3]
plot_decision_regions(clf, X, labels, ax=final, resolution=300)
final.contourf(grid_x, grid_y, tied, levels=[0.5, 1.5], colors="none", hatches=["xx"])
for score_model in clf.estimators_:
    final.contour(
        grid_x,
        grid_y,
        score_model.decision_function(grid).reshape(grid_x.shape),
        levels=[0],
        colors="k",
        linestyles="dashed",
        linewidths=0.8,
    )
final.set_title(f"votes; hatched: 1-1-1 ties ({tied.mean():.0%} of the area)")
for ax in axes:
    ax.set_xlabel(f"{iris.feature_names[features[0]][:-5]} (standardised)")
axes[0].set_ylabel(f"{iris.feature_names[features[1]][:-5]} (standardised)")
fig.suptitle(
    f'AllPairs(decision="vote") on iris: training error {1 - clf.score(X, labels):.3f}'
)
fig.tight_layout()
plt.show()

r"""
=====================================================
One-vs-all: ambiguous regions and the fusion rule
=====================================================

One-vs-all trains one binary linear model per class: model :math:`r` separates class
:math:`r` (+1) from all the others (-1), with boundary
:math:`\mathbf{w}_r^T \mathbf{x} + b_r = 0`.  Read naively, model :math:`r` *claims*
:math:`\mathbf{x}` when :math:`\mathbf{w}_r^T \mathbf{x} + b_r > 0`.  Almost every
training sample is claimed by its own model only, but the plane is not: between the
classes lie points that **no** model claims, and points that **several** models claim.
The left panel shades both kinds of ambiguous region, the undefined votes the course
warns about.

The fusion rule settles every point: give :math:`\mathbf{x}` to the class whose model
puts it farthest on the positive side (or least far on the negative side),

.. math::

   \hat{y} = \operatorname{argmax}_r
   \frac{\mathbf{w}_r^T \mathbf{x} + b_r}{\lVert \mathbf{w}_r \rVert},

the signed distance to each boundary.  The right panel shows the regions it draws
(``OneVsAll``, whose default base model is an averaged perceptron); the dashed lines
are the same binary boundaries in both panels.
"""

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from patrec import OneVsAll
from patrec.datasets import make_gaussian_classes
from patrec.exceptions import ConvergenceWarning
from patrec.plotting import plot_decision_regions

# The one-vs-all perceptrons face classes that overlap: they stop at their
# max_epochs and say so in a ConvergenceWarning, expected here and silenced.
warnings.filterwarnings("ignore", category=ConvergenceWarning)

means = [[0.0, 0.0], [5.0, 0.5], [2.0, 4.5], [6.0, 5.0]]
X, y = make_gaussian_classes(
    means, [0.5 * np.eye(2)] * 4, n_per_class=40, random_state=1
)
names = np.array(["A", "B", "C", "D"])
labels = names[y]
ova = OneVsAll().fit(X, labels)
colors = plt.get_cmap("tab10").colors[:4]

# Sample the plane and ask each binary model whether it claims the point.
# The same area as plot_decision_regions draws: the data's range plus 10% each side.
pad = 0.1 * (X.max(axis=0) - X.min(axis=0))
low, high = X.min(axis=0) - pad, X.max(axis=0) + pad
grid_x, grid_y = np.meshgrid(
    np.linspace(low[0], high[0], 300), np.linspace(low[1], high[1], 300)
)
grid = np.column_stack([grid_x.ravel(), grid_y.ravel()])
scores = np.column_stack([model.decision_function(grid) for model in ova.estimators_])
claims = scores > 0
n_claims = claims.sum(axis=1)
# 0..3: the one class that claims x; 4: no model claims x; 5: several do.
region = np.where(
    n_claims == 1, np.argmax(claims, axis=1), np.where(n_claims == 0, 4, 5)
).reshape(grid_x.shape)


def draw_binary_boundaries(ax):
    """The line w_r . x + b_r = 0 of each binary model, in its class colour."""
    for r, color in enumerate(colors):
        ax.contour(
            grid_x,
            grid_y,
            scores[:, r].reshape(grid_x.shape),
            levels=[0],
            colors=[color],
            linestyles="dashed",
            linewidths=1.5,
        )


fig, axes = plt.subplots(1, 2, figsize=(12, 5.2))
left, right = axes
left.contourf(
    grid_x,
    grid_y,
    region,
    levels=np.arange(7) - 0.5,
    cmap=ListedColormap([*colors, "white", "0.35"]),
    alpha=0.35,
)
for code, color in enumerate(colors):
    left.scatter(*X[y == code].T, color=color, s=15, edgecolors="k", linewidths=0.3)
draw_binary_boundaries(left)
share_none, share_several = np.mean(n_claims == 0), np.mean(n_claims > 1)
left.set_title(
    f"Without fusion: no model claims {share_none:.0%} of the plane (white),\n"
    f"several claim {share_several:.0%} (dark)",
    fontsize=10,
)
left.legend(
    handles=[
        *(
            Patch(color=c, alpha=0.5, label=f"only model {n} claims x")
            for n, c in zip(names, colors)
        ),
        Patch(facecolor="white", edgecolor="k", label="no model claims x"),
        Patch(color="0.35", alpha=0.6, label="several models claim x"),
    ],
    fontsize="small",
    loc="lower right",
)

plot_decision_regions(ova, X, labels, ax=right, resolution=300)
draw_binary_boundaries(right)
right.set_title(
    r"With the fusion rule $\operatorname{argmax}_r\,"
    r"(\mathbf{w}_r^T \mathbf{x} + b_r) / \Vert\mathbf{w}_r\Vert$:"
    "\n"
    f"every point decided; training error {1 - ova.score(X, labels):.3f}",
    fontsize=10,
)
for ax in axes:
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
fig.tight_layout()
plt.show()

r"""
=========================================================
A piecewise-linear machine trained by error correction
=========================================================

A piecewise-linear machine gives every class several linear discriminants, one per
subclass, and lets the best of them speak for the class:
:math:`g_i(\mathbf{x}) = \max_l \mathbf{a}_i^{l\,T} \mathbf{y}`,
:math:`\mathbf{y} = (\mathbf{x}, 1)`.  It predicts the class with the largest
:math:`g_i`.

Training starts from the minimum-distance classifier over k-means subclass means
(:math:`\mathbf{a} = (\mathbf{m}, -\lVert \mathbf{m} \rVert^2 / 2)` for a
mean :math:`\mathbf{m}`) and then corrects its mistakes one sample at
a time: the sample's best subclass of its own class moves towards it, the best
subclass of the other classes moves away.

On the two "banana" crescents a single line per class (the linear machine) cuts
through both crescents.  Three nearest subclass means do better but still misclassify
the tips; a few epochs of corrections then separate the training data completely.
The thin dashed lines mark where the deciding linear piece changes, also between two
pieces of the same class.
"""

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

from patrec import LinearMachine, MinimumDistanceClassifier, PiecewiseLinearClassifier
from patrec.datasets import make_banana
from patrec.exceptions import ConvergenceWarning
from patrec.plotting import plot_decision_regions

# The linear machine cannot separate the crescents and stops at its max_epochs,
# saying so in a ConvergenceWarning: that is the point of this example, and the
# warning is silenced.
warnings.filterwarnings("ignore", category=ConvergenceWarning)

X, y = make_banana(n_samples=400, noise=0.1, random_state=0)

linear = LinearMachine(averaged=True, random_state=0).fit(X, y)
start = MinimumDistanceClassifier(n_prototypes=3, random_state=0).fit(X, y)
machine = PiecewiseLinearClassifier(n_subclasses=3, random_state=0).fit(X, y)


def draw_pieces(ax, clf):
    """Dashed lines where the winning subclass changes."""
    xs = np.linspace(*ax.get_xlim(), 300)
    ys = np.linspace(*ax.get_ylim(), 300)
    grid_x, grid_y = np.meshgrid(xs, ys)
    grid = np.column_stack([grid_x.ravel(), grid_y.ravel()])
    winner = np.argmax(clf.subclass_decision_function(grid), axis=1)
    ax.contour(
        grid_x,
        grid_y,
        winner.reshape(grid_x.shape),
        levels=np.arange(len(clf.coef_)) + 0.5,
        colors="k",
        linewidths=0.6,
        linestyles="dashed",
    )


# %%
# The three classifiers, and the corrections made in each epoch of training: the
# rule stops after the first epoch without one.  (The whole figure is drawn in this
# one cell, so that the gallery shows it complete.)
fig, axes = plt.subplots(2, 2, figsize=(10, 9))
panels = [
    (linear, "linear machine (one line per class)"),
    (start, "start: nearest of 3 subclass means"),
    (machine, "piecewise-linear machine, 3 pieces per class"),
]
for ax, (clf, title) in zip(axes.flat, panels):
    plot_decision_regions(
        clf, X, y, ax=ax, prototypes=clf is start, legend=clf is linear
    )
    if clf is machine:
        draw_pieces(ax, clf)
    ax.set_title(f"{title}\ntraining error {1 - clf.score(X, y):.3f}", fontsize=10)
    ax.set_xlabel("feature 1")
    ax.set_ylabel("feature 2")

ax = axes.flat[3]
epochs = np.arange(1, machine.n_iter_ + 1)
bars = ax.bar(epochs, machine.corrections_, color="tab:gray")
ax.bar_label(bars)
ax.set_xticks(epochs)
ax.set_xlabel("epoch")
ax.set_ylabel("corrections")
ax.set_title("training: corrections per epoch", fontsize=10)
fig.tight_layout()
plt.show()

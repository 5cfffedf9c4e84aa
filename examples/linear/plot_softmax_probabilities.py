r"""
=====================================================
Softmax regression: a probability map per class
=====================================================

Multiclass logistic regression keeps the linear machine's scores
:math:`g_r(\mathbf{x}) = \mathbf{w}_r^T \mathbf{x} + b_r` but, instead of only taking
their maximum, turns them into probabilities with the softmax function,

.. math::

   P(\omega_r \mid \mathbf{x}) = \frac{\exp g_r(\mathbf{x})}
   {\sum_{q=1}^{c} \exp g_q(\mathbf{x})}, \quad r = 1, \dots, c,

so the classes compete: raising one score lowers every other class's probability.
``SoftmaxRegression`` fits the weights by maximising the (L2-penalised) likelihood.

On the petal measurements of the iris flowers, the first three panels show
:math:`P(\omega_r \mid \mathbf{x})` for each species over the plane; each is close to 1
deep inside its class and falls off smoothly across the boundaries.  The last panel
shows the largest of the three, the model's confidence: it drops towards 1/2 along the
two boundaries, where the model is unsure, and the versicolor and virginica flowers
that overlap lie in that band.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import SoftmaxRegression
from patrec.datasets import load_iris

iris = load_iris()
X = iris.data[:, 2:]  # petal length and width (cm)
labels = iris.target_names[iris.target]
clf = SoftmaxRegression(C=10.0).fit(X, labels)

low, high = X.min(axis=0) - 0.5, X.max(axis=0) + 0.5
grid_x, grid_y = np.meshgrid(
    np.linspace(low[0], high[0], 250), np.linspace(low[1], high[1], 250)
)
probabilities = clf.predict_proba(np.column_stack([grid_x.ravel(), grid_y.ravel()]))
colors = plt.get_cmap("tab10").colors
class_maps = ["Blues", "Oranges", "Greens"]  # the tab10 colours of the three classes
markers = ["o", "s", "^"]


def draw_samples(ax, highlight=None):
    """Every sample with its species' marker; filled in the class colour when it is of
    the highlighted class (or always, when none is)."""
    for j, name in enumerate(clf.classes_):
        inside = labels == name
        filled = highlight is None or highlight == j
        ax.scatter(
            *X[inside].T,
            s=18,
            marker=markers[j],
            color=colors[j] if filled else "white",
            edgecolors="k",
            linewidths=0.4,
            label=name,
        )
    ax.legend(fontsize="small", loc="upper left")


fig, axes = plt.subplots(1, 4, figsize=(17, 4.4), sharey=True, layout="constrained")
for j, (ax, name) in enumerate(zip(axes, clf.classes_)):
    probability = probabilities[:, j].reshape(grid_x.shape)
    ax.contourf(
        grid_x,
        grid_y,
        probability,
        levels=np.linspace(0, 1, 11),
        cmap=class_maps[j],
        alpha=0.55,
    )
    lines = ax.contour(
        grid_x,
        grid_y,
        probability,
        levels=[0.1, 0.5, 0.9],
        colors="k",
        linewidths=[0.6, 1.4, 0.6],
    )
    ax.clabel(lines, fontsize="small")
    draw_samples(ax, highlight=j)
    ax.set_title(rf"$P(\omega = ${name}$ \mid \mathbf{{x}})$")

confidence = probabilities.max(axis=1).reshape(grid_x.shape)
ax = axes[3]
filled = ax.contourf(
    grid_x, grid_y, confidence, levels=np.linspace(1 / 3, 1, 9), cmap="Greys_r"
)
draw_samples(ax)
fig.colorbar(
    filled,
    ax=ax,
    label=r"$\max_j P(\omega_j \mid \mathbf{x})$",
    ticks=[1 / 3, 0.5, 0.75, 1],
    format="{x:.2f}",
)
ax.set_title("confidence: the largest probability")
for ax in axes:
    ax.set_xlabel("petal length (cm)")
axes[0].set_ylabel("petal width (cm)")
plt.show()

r"""
=====================================================
Multiclass SVM against the linear machine: margins
=====================================================

The multiclass perceptron (``LinearMachine``) and the Crammer-Singer multiclass SVM
(``MulticlassSVM``) learn the same kind of model, one augmented weight vector
:math:`\mathbf{a}_r = (\mathbf{w}_r, b_r)` per class and the prediction
:math:`\operatorname{argmax}_r g_r(\mathbf{x})`,
:math:`g_r(\mathbf{x}) = \mathbf{w}_r^T \mathbf{x} + b_r`.  They differ in what they
ask of the weights.  The perceptron stops at the first weights that classify every
training sample correctly; the SVM minimises the generalised hinge loss

.. math::

   \frac{1}{N} \sum_{j=1}^{N} \max_r \left[ [r \ne z_j] - g_{z_j}(\mathbf{x}_j)
   + g_r(\mathbf{x}_j) \right] + \frac{\lambda}{2} \sum_r \lVert \mathbf{a}_r \rVert^2,

which asks every sample to beat every other class by a margin of 1 with weights as
small as possible: it pushes the boundaries away from the samples.

The distance of a sample :math:`\mathbf{x}` of class :math:`z` to the boundary between
:math:`z` and class :math:`r` is
:math:`(g_z(\mathbf{x}) - g_r(\mathbf{x})) / \lVert \mathbf{w}_z - \mathbf{w}_r \rVert`;
its margin is the smallest of these over :math:`r \ne z`.  The grey band around the
boundaries holds the points closer to a boundary than the smallest training margin:
no training sample lies inside it, and the circled samples lie on its edge.  The
perceptron separates the data with a boundary that grazes a sample; the SVM's band is
many times wider.  (``alpha`` is :math:`\lambda`.  With the default 1e-4 and 20
epochs, stochastic gradient descent barely moves away from the perceptron's answer on
data this easy; 1e-3 and 100 epochs get close to the optimum.)
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import LinearMachine, MulticlassSVM
from patrec.datasets import make_gaussian_classes
from patrec.plotting import plot_decision_regions

means = [[0.0, 0.0], [4.0, 0.0], [2.0, 3.5]]
X, y = make_gaussian_classes(
    means, [0.3 * np.eye(2)] * 3, n_per_class=50, random_state=0
)
labels = np.array(["left", "right", "top"])[y]
models = {
    "LinearMachine (perceptron rule)": LinearMachine(random_state=0),
    "MulticlassSVM(alpha=1e-3, max_epochs=100)": MulticlassSVM(
        alpha=1e-3, max_epochs=100, random_state=0
    ),
}


def distance_to_boundary(clf, points):
    """(g_a(x) - g_b(x)) / ||w_a - w_b|| for the best class a and the runner-up b."""
    scores = clf.decision_function(points)
    order = np.argsort(scores, axis=1)
    a, b = order[:, -1], order[:, -2]
    rows = np.arange(len(points))
    gap = scores[rows, a] - scores[rows, b]
    return gap / np.linalg.norm(clf.coef_[a] - clf.coef_[b], axis=1)


def sample_margins(clf):
    """Each training sample's distance to the nearest boundary of its own class."""
    scores = clf.decision_function(X)
    own = np.searchsorted(clf.classes_, labels)
    margins = np.full(len(X), np.inf)
    for r in range(len(clf.classes_)):
        other = own != r
        gap = scores[other, own[other]] - scores[other, r]
        norm = np.linalg.norm(clf.coef_[own[other]] - clf.coef_[r], axis=1)
        margins[other] = np.minimum(margins[other], gap / norm)
    return margins


fig, axes = plt.subplots(1, 2, figsize=(12, 5.2))
margins = {}
for ax, (name, clf) in zip(axes, models.items()):
    clf.fit(X, labels)
    margins[name] = sample_margins(clf)
    smallest = margins[name].min()
    plot_decision_regions(clf, X, labels, ax=ax, resolution=300, legend=ax is axes[0])
    grid_x, grid_y = np.meshgrid(
        np.linspace(*ax.get_xlim(), 300), np.linspace(*ax.get_ylim(), 300)
    )
    distance = distance_to_boundary(
        clf, np.column_stack([grid_x.ravel(), grid_y.ravel()])
    )
    ax.contourf(
        grid_x,
        grid_y,
        distance.reshape(grid_x.shape),
        levels=[0, smallest],
        colors="0.3",
        alpha=0.35,
    )
    closest = margins[name] <= smallest * 1.05
    ax.scatter(
        *X[closest].T,
        s=160,
        facecolors="none",
        edgecolors="k",
        linewidths=1.5,
        label="samples with the smallest margin",
    )
    ax.set_title(
        f"{name}\nsmallest margin {smallest:.3f}, training error "
        f"{1 - clf.score(X, labels):.3f}",
        fontsize=10,
    )
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
axes[0].legend(fontsize="small", loc="center left")
fig.tight_layout()
plt.show()

# %%
# All the margins, smallest first: the SVM raises the smallest margins the most; the
# large ones, far from any boundary, hardly change.
fig, ax = plt.subplots(figsize=(6.5, 4))
for name, values in margins.items():
    ax.plot(np.arange(1, len(values) + 1), np.sort(values), label=name)
ax.set_xscale("log")
ax.set_xlabel("training samples, by increasing margin (log scale)")
ax.set_ylabel("margin: distance to the nearest boundary")
ax.set_title("Margins of the training samples")
ax.legend(fontsize="small")
fig.tight_layout()
plt.show()

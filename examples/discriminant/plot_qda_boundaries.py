r"""
=====================================================
QDA: quadratic boundaries and covariance ellipses
=====================================================

QDA estimates a mean :math:`\mathbf{m}_i` and a covariance matrix :math:`\Sigma_i`
for every class (:math:`\Sigma_i` with the :math:`N_i - 1` divisor) and compares the
quadratic discriminants

.. math::

   g_i(\mathbf{x}) = -\tfrac{1}{2} (\mathbf{x} - \mathbf{m}_i)^T \Sigma_i^{-1}
   (\mathbf{x} - \mathbf{m}_i) - \tfrac{1}{2} \log |\Sigma_i| + \log P(\omega_i),

deciding :math:`\operatorname{class}(\mathbf{x}) = \operatorname{argmax}_i
g_i(\mathbf{x})`.  The boundary between two classes,
:math:`g_1(\mathbf{x}) = g_2(\mathbf{x})`, is a quadric: in the plane a conic section,
whose kind depends on how the two covariance matrices differ.  Three pairs of Gaussian classes:

- one compact class inside a broad one: the boundary is a closed **ellipse** around the
  compact class;
- one class spread along x1, the other along x2: the difference of the quadratic terms
  is indefinite, and the boundary is a **hyperbola**;
- the spreads differ along x1 only, the means along x2 only: the quadratic terms cancel
  in x2, leaving a **parabola**.

The ellipses mark one and two standard deviations of each estimated Gaussian, the
crosses the estimated means.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import QDA
from patrec.datasets import make_gaussian_classes
from patrec.plotting import plot_decision_regions

cases = [
    (
        "an ellipse",
        [[0.0, 0.0], [1.0, 0.5]],
        [np.diag([0.3, 0.2]), np.diag([4.0, 3.0])],
    ),
    (
        "a hyperbola",
        [[0.0, 0.0], [1.5, 2.0]],
        [np.diag([3.0, 0.2]), np.diag([0.2, 3.0])],
    ),
    (
        "a parabola",
        [[0.0, 0.0], [0.0, 2.5]],
        [np.diag([0.2, 1.0]), np.diag([3.0, 1.0])],
    ),
]
names = np.array(["class A", "class B"])
colors = plt.get_cmap("tab10").colors


def draw_gaussian(ax, mean, covariance, color):
    """The mean and the curves (x - m)^T Sigma^-1 (x - m) = 1 and 4 of N(m, Sigma):
    the unit circle mapped by the Cholesky factor L of Sigma = L L^T, scaled by 1, 2."""
    angles = np.linspace(0, 2 * np.pi, 200)
    circle = np.vstack([np.cos(angles), np.sin(angles)])
    factor = np.linalg.cholesky(covariance)
    for n_std in (1, 2):
        ax.plot(*(mean[:, None] + n_std * factor @ circle), color=color, linewidth=1.5)
    ax.plot(*mean, "x", color=color, markersize=10, markeredgewidth=2)


fig, axes = plt.subplots(1, 3, figsize=(16, 5))
for ax, (kind, means, covariances) in zip(axes, cases):
    X, y = make_gaussian_classes(means, covariances, n_per_class=80, random_state=0)
    labels = names[y]
    qda = QDA(store_covariance=True).fit(X, labels)
    plot_decision_regions(qda, X, labels, ax=ax, resolution=300, legend=ax is axes[0])
    grid_x, grid_y = np.meshgrid(
        np.linspace(*ax.get_xlim(), 300), np.linspace(*ax.get_ylim(), 300)
    )
    predicted = qda.predict(np.column_stack([grid_x.ravel(), grid_y.ravel()]))
    ax.contour(
        grid_x,
        grid_y,
        (predicted == "class A").reshape(grid_x.shape),
        levels=[0.5],
        colors="k",
        linewidths=2,
    )
    for k in range(2):
        draw_gaussian(ax, qda.means_[k], qda.covariance_[k], colors[k])
    ax.set_title(f"{kind}: training error {1 - qda.score(X, labels):.3f}")
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
fig.suptitle(r"QDA boundaries $g_A(\mathbf{x}) = g_B(\mathbf{x})$ are conic sections")
fig.tight_layout()
plt.show()

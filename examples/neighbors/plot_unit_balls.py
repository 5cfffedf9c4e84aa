r"""
=====================================================
Unit balls of four distances, and what they change
=====================================================

A nearest-neighbour rule is only as good as its distance
:math:`\delta(\mathbf{x}, \mathbf{x}')`.  The course lists the Minkowski family,
:math:`\delta = \left[\sum_f |x_f - x'_f|^s\right]^{1/s}`, with the city-block
(:math:`L_1`, :math:`s = 1`), Euclidean (:math:`L_2`, :math:`s = 2`) and Chebyshev
(:math:`L_\infty`, :math:`\max_f |x_f - x'_f|`) distances, and the quadratic
form :math:`(\mathbf{x} - \mathbf{x}')^T Q (\mathbf{x} - \mathbf{x}')`, whose
square root is the Mahalanobis distance when :math:`Q` is the inverse of a covariance
matrix.

The unit ball :math:`\{\mathbf{x} : \delta(\mathbf{0}, \mathbf{x}) \le 1\}` shows
the shape of each: a diamond for :math:`L_1`, a disc for :math:`L_2`, a square for
:math:`L_\infty`, and for Mahalanobis an ellipse stretched along the directions in
which the covariance is large, so that a step along them counts less.  The first
figure draws the contours :math:`\delta(\mathbf{0}, \mathbf{x}) = 0.5, 1, 1.5` of
each distance; the second shows how the same six training samples split the plane
under 1-NN with each.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import KNeighborsClassifier
from patrec.neighbors import pairwise_distances
from patrec.plotting import plot_decision_regions

covariance = np.array([[2.0, 1.2], [1.2, 1.0]])
Q = np.linalg.inv(covariance)
distances = [
    ("cityblock", {}, r"$L_1$ (city block): $\sum_i |x_i|$"),
    ("euclidean", {}, r"$L_2$ (Euclidean): $\sqrt{\sum_i x_i^2}$"),
    ("chebyshev", {}, r"$L_\infty$ (Chebyshev): $\max_i |x_i|$"),
    ("mahalanobis", {"VI": Q}, r"Mahalanobis: $\sqrt{x^T Q x}$, $Q = \Sigma^{-1}$"),
]

grid_x, grid_y = np.meshgrid(np.linspace(-2, 2, 301), np.linspace(-2, 2, 301))
grid = np.column_stack([grid_x.ravel(), grid_y.ravel()])
origin = np.zeros((1, 2))

fig, axes = plt.subplots(1, 4, figsize=(17, 4.6), sharey=True, layout="constrained")
for ax, (metric, params, title) in zip(axes, distances):
    to_origin = pairwise_distances(
        grid, origin, metric=metric, metric_params=params or None
    ).reshape(grid_x.shape)
    filled = ax.contourf(
        grid_x,
        grid_y,
        to_origin,
        levels=np.linspace(0, 3, 13),
        cmap="Blues_r",
        extend="max",
    )
    lines = ax.contour(
        grid_x,
        grid_y,
        to_origin,
        levels=[0.5, 1.0, 1.5],
        colors="k",
        linewidths=[0.8, 2.2, 0.8],
    )
    ax.clabel(lines, fontsize="small")
    ax.plot(0, 0, "k+", markersize=10)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("$x_1$")
axes[0].set_ylabel("$x_2$")
fig.colorbar(filled, ax=axes, shrink=0.85, label="distance to the origin")
fig.suptitle(r"Unit balls: the thick contour is $\delta(\mathbf{0}, x) = 1$")
plt.show()

# %%
# The same six training samples, 1-NN with each distance: each sample owns the points
# nearer to it than to any other sample, and "nearer" decides the shape of the cells.
# (No two samples lie on a diagonal of each other, :math:`|\Delta x_1| = |\Delta x_2|`:
# for :math:`L_1` and :math:`L_\infty` that would make whole areas equidistant from
# both.)
X = np.array(
    [[-1.0, -0.6], [0.2, 1.0], [1.3, -0.2], [-0.3, 0.2], [0.9, 0.9], [-1.3, 1.1]]
)
labels = np.repeat(["class A", "class B"], 3)

fig, axes = plt.subplots(1, 4, figsize=(17, 3.6), sharey=True, layout="constrained")
for ax, (metric, params, title) in zip(axes, distances):
    clf = KNeighborsClassifier(
        n_neighbors=1, metric=metric, metric_params=params or None
    ).fit(X, labels)
    plot_decision_regions(
        clf, X, labels, ax=ax, resolution=300, margin=0.4, legend=ax is axes[0]
    )
    for sample in X:
        ax.scatter(*sample, s=60, color="none", edgecolors="k")
    ax.set_aspect("equal")
    ax.set_title(f"1-NN, {title.split(':')[0]}", fontsize=10)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$" if ax is axes[0] else "")  # the panels share it
fig.suptitle("The same six samples, 1-NN regions under each distance")
plt.show()

"""
=====================================================
k-NN with k = 1, 2 and 3
=====================================================

The k-NN rule counts, among the k training samples nearest to x, the number k_i that
belong to each class omega_i, and decides for the class with the largest
g_i(x) = k_i.  With k = 1 this is the nearest-neighbour rule: every training sample
claims the cell of points nearer to it than to any other sample, and a single stray
sample of the other class carves out an island around itself.

With two classes and an even k the vote can tie: with k = 2, wherever the two nearest
samples belong to different classes, the vote is 1 to 1 (hatched in the middle panel;
``KNeighborsClassifier`` then picks the class that comes first in ``classes_``, and
``predict_proba`` shows 0.5 for both).  An odd k never ties between two classes; with
k = 3 most islands disappear and the boundary smooths out.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import KNeighborsClassifier
from patrec.datasets import make_gaussian_classes
from patrec.plotting import plot_decision_regions

X, y = make_gaussian_classes(
    [[0.0, 0.0], [1.8, 1.2]], [np.eye(2), np.eye(2)], n_per_class=40, random_state=3
)
labels = np.array(["blue class", "orange class"])[y]

fig, axes = plt.subplots(1, 3, figsize=(15, 4.8), sharey=True)
for ax, k in zip(axes, (1, 2, 3)):
    clf = KNeighborsClassifier(n_neighbors=k).fit(X, labels)
    plot_decision_regions(clf, X, labels, ax=ax, resolution=300, legend=k == 1)
    title = f"k = {k}: training error {1 - clf.score(X, labels):.3f}"
    if k == 2:
        grid_x, grid_y = np.meshgrid(
            np.linspace(*ax.get_xlim(), 300), np.linspace(*ax.get_ylim(), 300)
        )
        proba = clf.predict_proba(np.column_stack([grid_x.ravel(), grid_y.ravel()]))
        tie = (proba[:, 0] == 0.5).reshape(grid_x.shape)
        ax.contourf(
            grid_x, grid_y, tie, levels=[0.5, 1.5], colors="none", hatches=["////"]
        )
        ax.contour(grid_x, grid_y, tie, levels=[0.5], colors="k", linewidths=0.5)
        title += f"\nhatched: 1-1 ties ({tie.mean():.0%} of the area)"
    ax.set_title(title)
    ax.set_xlabel("x1")
axes[0].set_ylabel("x2")
fig.tight_layout()
plt.show()

r"""
=====================================================
Fisher projection of handwritten digits beside PCA
=====================================================

Each of the 1797 handwritten digits of this data set is an 8 x 8 image, a point in
:math:`d = 64` dimensions, of one of :math:`c = 10` classes.  (The digits come with scikit-learn,
``sklearn.datasets.load_digits``; patrec does not bundle them.  scikit-learn is part
of the ``docs`` and ``test`` extras, not a dependency of patrec.)

Fisher's multiclass discriminant finds the directions :math:`W` that maximise
:math:`J(W) = |W^T S_b W| / |W^T S_w W|`, the between-class scatter :math:`S_b` over
the within-class scatter :math:`S_w`: the leading eigenvectors of
:math:`S_b \mathbf{w} = \lambda S_w \mathbf{w}`.  There are at most
:math:`c - 1 = 9` of them; ``FisherLDA(n_components=2)`` keeps the first
two.  Principal component analysis keeps the two directions of largest total variance
instead, and never looks at the labels.

On the left the Fisher projection pulls several digits into tight, separate groups
(0, 4, 6 and 2 most clearly); on the right, PCA keeps the most variance, much of it
within the classes, and the groups overlap more.  The numbers mark the class means; the
titles give the error of the nearest class mean in each plane.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits

from patrec import FisherLDA, MinimumDistanceClassifier

digits = load_digits()
X, y = digits.data, digits.target

lda = FisherLDA(n_components=2).fit(X, y)
fisher = lda.transform(X)

centred = X - X.mean(axis=0)
_, singular_values, components = np.linalg.svd(centred, full_matrices=False)
principal = centred @ components[:2].T
pca_share = singular_values[:2] ** 2 / np.sum(singular_values**2)

# How well does each plane keep the classes apart?  The error of the nearest class
# mean in the plane (fitted and counted on the same samples).
errors = [
    1 - MinimumDistanceClassifier().fit(points, y).score(points, y)
    for points in (fisher, principal)
]

fig, axes = plt.subplots(1, 2, figsize=(13, 5.6))
colors = plt.get_cmap("tab10").colors
for ax, points in zip(axes, (fisher, principal)):
    for digit in range(10):
        members = points[y == digit]
        ax.scatter(*members.T, s=6, alpha=0.5, color=colors[digit], label=str(digit))
        ax.text(
            *members.mean(axis=0),
            str(digit),
            fontsize=16,
            fontweight="bold",
            ha="center",
            va="center",
            color=colors[digit],
            bbox={"boxstyle": "circle", "facecolor": "white", "alpha": 0.8},
        )
ratios = lda.explained_variance_ratio_
axes[0].set_xlabel(f"Fisher direction 1 ({ratios[0]:.0%} of the between-class scatter)")
axes[0].set_ylabel(f"Fisher direction 2 ({ratios[1]:.0%})")
axes[0].set_title(
    "Fisher LDA: 64 pixels -> 2 directions, using the labels\n"
    f"nearest-mean error in this plane {errors[0]:.2f}"
)
axes[1].set_xlabel(f"principal component 1 ({pca_share[0]:.0%} of the total variance)")
axes[1].set_ylabel(f"principal component 2 ({pca_share[1]:.0%})")
axes[1].set_title(
    "PCA: the 2 directions of largest variance, without labels\n"
    f"nearest-mean error in this plane {errors[1]:.2f}"
)
axes[1].legend(
    title="digit",
    fontsize="small",
    markerscale=3,
    loc="center left",
    bbox_to_anchor=(1.0, 0.5),
)
fig.tight_layout()
plt.show()

r"""
=============================================
Fisher projection of the wine data to 2-D
=============================================

The wine data has 13 chemical measurements of wines from three cultivars.  Fisher's
multiclass discriminant looks for the directions :math:`\mathbf{w}` that maximise the
ratio of between-class to within-class scatter,
:math:`\mathbf{w}^T S_b \mathbf{w} / \mathbf{w}^T S_w \mathbf{w}`: the leading
eigenvectors of :math:`S_b \mathbf{w} = \lambda S_w \mathbf{w}`.  With three classes
:math:`S_b` has rank 2, so two
directions carry all of the class separation, and the 13-dimensional data can be
drawn in the plane without losing any of it.

The left panel projects the samples and the class means onto the two Fisher
directions.  For comparison the right panel shows the two leading principal
components of the standardised data, which keep the most *total* variance and
ignore the labels.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import FisherLDA
from patrec.datasets import load_wine

wine = load_wine()
X, y = wine.data, wine.target

lda = FisherLDA().fit(X, y)
projected = lda.transform(X)
projected_means = lda.transform(lda.means_)

print(
    "share of the between-class variance per direction:",
    np.round(lda.explained_variance_ratio_, 3),
)
print(f"training accuracy of the Fisher classifier: {lda.score(X, y):.3f}")

# %%
# Principal components of the standardised data, for comparison.
standardised = (X - X.mean(axis=0)) / X.std(axis=0)
_, _, components = np.linalg.svd(standardised, full_matrices=False)
principal = standardised @ components[:2].T

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
colors = plt.get_cmap("tab10").colors
for k, name in enumerate(wine.target_names):
    axes[0].scatter(*projected[y == k].T, s=14, alpha=0.7, color=colors[k], label=name)
    axes[0].scatter(
        *projected_means[k],
        s=220,
        marker="*",
        color=colors[k],
        edgecolor="black",
        linewidth=1.0,
    )
    axes[1].scatter(*principal[y == k].T, s=14, alpha=0.7, color=colors[k], label=name)
ratios = lda.explained_variance_ratio_
axes[0].set_xlabel(f"Fisher direction 1 ({ratios[0]:.0%} of S_b)")
axes[0].set_ylabel(f"Fisher direction 2 ({ratios[1]:.0%} of S_b)")
axes[0].set_title("Fisher LDA projection (stars: class means)")
axes[1].set_xlabel("principal component 1")
axes[1].set_ylabel("principal component 2")
axes[1].set_title("PCA of the standardised data")
axes[0].legend()
fig.tight_layout()
plt.show()

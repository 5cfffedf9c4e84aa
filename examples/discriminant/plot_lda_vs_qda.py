r"""
=====================================================
LDA and QDA decision boundaries on Gaussian classes
=====================================================

Three Gaussian classes in the plane, each with a different covariance matrix: one
round, one stretched along a diagonal, one narrow and tilted the other way.

Fisher LDA models them with one covariance shared by all classes, so its
discriminants :math:`g_i(\mathbf{x})` are linear and the boundaries are straight
lines.  QDA estimates one covariance per class; its discriminants

.. math::

   g_i(\mathbf{x}) = -\tfrac{1}{2} (\mathbf{x} - \mathbf{m}_i)^T \Sigma_i^{-1}
   (\mathbf{x} - \mathbf{m}_i) - \tfrac{1}{2} \log |\Sigma_i| + \log P(\omega_i)

are quadratic, and the boundaries curve around the compact class.  The ellipses mark
one and two standard deviations of each class's estimated Gaussian.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Ellipse

from patrec import QDA, FisherLDA
from patrec.datasets import make_gaussian_classes
from patrec.plotting import plot_decision_regions

means = [[0.0, 0.0], [3.0, 3.0], [4.0, -1.0]]
covariances = [
    [[1.0, 0.0], [0.0, 1.0]],
    [[2.0, 1.6], [1.6, 2.0]],
    [[0.3, -0.4], [-0.4, 1.2]],
]
X, y = make_gaussian_classes(means, covariances, n_per_class=150, random_state=0)

lda = FisherLDA(solver="eigen").fit(X, y)
qda = QDA(store_covariance=True).fit(X, y)


def draw_ellipses(ax, mean, covariance, color):
    """Contours of one and two standard deviations of N(mean, covariance)."""
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    angle = np.degrees(np.arctan2(eigenvectors[1, 1], eigenvectors[0, 1]))
    for n_std in (1, 2):
        width, height = 2 * n_std * np.sqrt(eigenvalues[::-1])
        ax.add_patch(
            Ellipse(
                mean, width, height, angle=angle, fill=False, color=color, linewidth=1.2
            )
        )


# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4.8))
colors = plt.get_cmap("tab10").colors
panels = [
    (lda, "Fisher LDA (shared covariance)", [lda.covariance_] * 3),
    (qda, "QDA (one covariance per class)", qda.covariance_),
]
for ax, (clf, title, class_covariances) in zip(axes, panels):
    plot_decision_regions(clf, X, y, ax=ax, legend=ax is axes[0])
    for k in range(3):
        draw_ellipses(ax, clf.means_[k], class_covariances[k], colors[k])
    ax.set_title(f"{title}: training error {1 - clf.score(X, y):.3f}")
fig.tight_layout()
plt.show()

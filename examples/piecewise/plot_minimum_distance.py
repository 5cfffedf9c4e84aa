r"""
=====================================================
Minimum-distance classification with subclass means
=====================================================

The minimum-distance classifier represents each class by a few subclass means
(prototypes) and assigns a sample to the class of the nearest one:
:math:`g_i(\mathbf{x}) = -\min_l D(\mathbf{x}, \mathbf{m}_i^l)`, the largest
:math:`g_i` (the nearest mean) deciding.

On the "banana" data each class is a bent crescent.  One mean per class gives a single
straight boundary, the perpendicular bisector of the two means, which cuts through
both crescents.  With four subclass means per class (found by k-means) the boundary
becomes piecewise linear and follows the crescents.  The city-block distance draws
the same idea with boundaries made of axis-parallel and diagonal pieces.
"""

# %%
import matplotlib.pyplot as plt

from patrec import MinimumDistanceClassifier
from patrec.datasets import make_banana
from patrec.plotting import plot_decision_regions

X, y = make_banana(n_samples=400, noise=0.15, random_state=0)

settings = [
    ("one mean per class", dict(n_prototypes=1)),
    ("four subclass means", dict(n_prototypes=4)),
    ("four means, city-block", dict(n_prototypes=4, metric="cityblock")),
]

fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
for ax, (title, params) in zip(axes, settings):
    clf = MinimumDistanceClassifier(random_state=0, **params).fit(X, y)
    plot_decision_regions(clf, X, y, ax=ax, prototypes=True, legend=ax is axes[0])
    ax.set_title(f"{title}: training error {1 - clf.score(X, y):.2f}")
fig.tight_layout()
plt.show()

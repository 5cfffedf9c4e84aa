r"""
=====================================================
Minimum distance with 1, 2 and 4 prototypes on rings
=====================================================

The minimum-distance classifier describes class :math:`\omega_i` by :math:`L_i`
subclass means :math:`\mathbf{m}_i^1, \dots, \mathbf{m}_i^{L_i}` (found by k-means
within the class) and decides

.. math::

   d_i(\mathbf{x}) = \min_l \lVert \mathbf{x} - \mathbf{m}_i^l \rVert, \qquad
   \operatorname{class}(\mathbf{x}) = \operatorname{argmin}_i d_i(\mathbf{x}):

the plane is cut into the cells of all the prototypes, and each cell takes its
prototype's class.  The boundary is piecewise linear, one piece per pair of
neighbouring cells of different classes.

Two concentric rings are the hardest case for a single mean per class: both means lie
near the centre, and the boundary between them, a straight line, cuts both rings in
half: the error is that of guessing.  Two means per class still cannot go round.  With
four, the outer ring's prototypes sit on a square around the inner ring's, and the
piecewise-linear boundary almost encloses the inner ring; only where two neighbouring
outer prototypes lie far apart do the inner class's cells still reach out between
them.  More prototypes per class would close the gap.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import MinimumDistanceClassifier
from patrec.datasets import make_rings
from patrec.plotting import plot_decision_regions

X, y = make_rings(n_samples=400, noise=0.08, factor=0.45, random_state=0)
labels = np.array(["outer ring", "inner ring"])[y]

fig, axes = plt.subplots(1, 3, figsize=(15, 5.2), layout="constrained")
for ax, n_prototypes in zip(axes, (1, 2, 4)):
    clf = MinimumDistanceClassifier(n_prototypes=n_prototypes, random_state=0)
    clf.fit(X, labels)
    plot_decision_regions(
        clf, X, labels, ax=ax, resolution=300, prototypes=True, legend=ax is axes[0]
    )
    ax.set_aspect("equal")
    ax.set_title(
        f"{n_prototypes} prototype{'s' if n_prototypes > 1 else ''} per class: "
        f"training error {1 - clf.score(X, labels):.3f}"
    )
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
fig.suptitle("Minimum-distance classification: the stars are the subclass means")
plt.show()

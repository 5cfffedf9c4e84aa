r"""
Exercises: the minimum-distance classifier
==========================================

Section 4.4 of the course, in your own code: classify by the nearest subclass mean.
The rule is stated in the :ref:`Piecewise-linear and minimum-distance classifiers
<piecewise>` guide, in the course's :ref:`notation <notation>`. The check compares
your discriminants :math:`g_i(\mathbf{x})` with patrec's, sample by sample and class
by class, then the decisions, and names the first that differs.
"""

# %%
import numpy as np

from patrec.exercises import check, template

# %%
# The minimum-distance classifier
# -------------------------------
# Class :math:`\omega_i` is represented by the means :math:`\mathbf{m}_i^l` of its
# subclasses; a sample goes to the class of the nearest mean.

print(template("minimum_distance"))


# %%


def minimum_distance(prototypes, prototype_labels, X, n_classes):
    # Your code here.
    raise NotImplementedError


check("minimum_distance", minimum_distance)

# %%
# .. dropdown:: Hint 1: all the distances at once
#
#    ``X[:, None, :] - prototypes[None, :, :]`` has shape ``(n_samples,
#    n_prototypes, n_features)``; ``np.linalg.norm(..., axis=2)`` gives every
#    distance :math:`\|\mathbf{x} - \mathbf{m}_i^l\|`.
#
# .. dropdown:: Hint 2: the discriminant of a class
#
#    :math:`g_i(\mathbf{x}) = \min_l \|\mathbf{x} - \mathbf{m}_i^l\|`: the minimum
#    over the columns of class :math:`i` only (``prototype_labels == i``), not over
#    all prototypes.
#
# .. dropdown:: Hint 3: the decision
#
#    The smallest discriminant wins: ``np.argmin(G, axis=1)``, a distance, not a
#    score (no ``argmax``).

# %%
# Questions to discuss
# --------------------
# - With one mean per class, the minimum-distance classifier is linear: why?  What
#   do several subclass means per class buy?  (:example:`piecewise/plot_minimum_distance`,
#   :example:`piecewise/plot_rings_prototypes`.)
# - How should the subclasses be found when the course takes them as given?
#   (k-means inside each class: :example:`piecewise/plot_piecewise_linear`.)
# - What happens to the rule when every training sample is its own subclass?  (It
#   becomes the nearest-neighbour rule of section 4.5.)

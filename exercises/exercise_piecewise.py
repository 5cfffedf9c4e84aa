r"""
Exercises: the minimum-distance classifier and the piecewise-linear machine
===========================================================================

Section 4.4 of the course, in your own code: classify by the nearest subclass mean,
then train the piecewise-linear machine by subclass error correction.  The rules are
stated in the :ref:`Piecewise-linear and minimum-distance classifiers <piecewise>`
guide, in the course's :ref:`notation <notation>`. The first check compares your
discriminants :math:`g_i(\mathbf{x})` with patrec's, sample by sample and class by
class, then the decisions; the second follows the training visit by visit.  Each
names the first step that differs.
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
# The piecewise-linear machine
# ----------------------------
# Each class :math:`\omega_i` has several linear pieces :math:`\mathbf{a}_i^l`
# and scores the best of them, :math:`g_i(\mathbf{x}) = \max_l \mathbf{a}_i^l
# \cdot \mathbf{y}`.  A mistake moves two pieces: the sample's best piece of its
# own class towards it, the best piece of the other classes away from it.

print(template("piecewise_linear"))


# %%


def piecewise_linear(X, labels, n_classes, n_subclasses, rho=1.0, max_epochs=100):
    # Your code here.
    raise NotImplementedError


check("piecewise_linear", piecewise_linear)

# %%
# .. dropdown:: Hint 1: the rows of A
#
#    Row ``i * n_subclasses + l`` is :math:`\mathbf{a}_i^l`, so the rows of
#    class :math:`i` are ``range(i * n_subclasses, (i + 1) * n_subclasses)``:
#    ``g = A @ y`` gives every piece's score at once.
#
# .. dropdown:: Hint 2: the two pieces a mistake moves
#
#    :math:`m` is the best row of the sample's own class (``np.argmax`` over those
#    rows), :math:`n` the best row of all the others (never another piece of the
#    same class).  A tie, :math:`\mathbf{a}_r^n \cdot \mathbf{y} \ge
#    \mathbf{a}_i^m \cdot \mathbf{y}`, is a mistake too.

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
# - Started from zero, the subclasses of a class differ only through the order of
#   the corrections: why does patrec start them at the k-means means instead?
#   (:example:`piecewise/plot_piecewise_xor_animation`.)

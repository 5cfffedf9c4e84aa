r"""
Exercises: nearest neighbours, editing and condensing
=====================================================

Section 4.5 of the course, in your own code: the k-NN rule, the branch-and-bound
search for the nearest neighbour, Wilson's editing, multi-edit and Hart's
condensing; then the chapter's questions to discuss.  The rules are stated in the
:ref:`Nearest neighbours <neighbors>` and :ref:`Editing and condensing <editing>`
guides, in the course's :ref:`notation <notation>`.

The checks follow the algorithms step by step: the search's distance evaluations in
order (from :meth:`~patrec.neighbors.BranchBoundTree.explain`), the samples editing
removes, each round of multi-edit, the order in which condensing stores samples.
"""

# %%
import numpy as np

from patrec.exercises import check, template

# %%
# The k-NN rule
# -------------
# :math:`g_i(\mathbf{x}) = k_i`, the number of samples of :math:`\omega_i` among the
# :math:`k` nearest; the largest wins.

print(template("knn"))


# %%


def knn(X, labels, queries, k):
    # Your code here.
    raise NotImplementedError


check("knn", knn)

# %%
# .. dropdown:: Hint 1: the distances
#
#    For one query ``q``, ``np.linalg.norm(X - q, axis=1)`` gives every
#    :math:`\delta(\mathbf{x}, \mathbf{x}_j)`.
#
# .. dropdown:: Hint 2: the k nearest, ties included
#
#    ``np.argsort(d, kind="stable")[:k]``: a stable sort keeps equal distances in
#    index order, so the lower index comes first, as the rule asks.
#
# .. dropdown:: Hint 3: the vote
#
#    ``np.bincount(labels[nearest], minlength=n_classes)`` counts the :math:`k_i`;
#    ``np.argmax`` picks the first class on an equal vote.

# %%
# The branch-and-bound search
# ---------------------------
# The Fukunaga–Narendra algorithm, steps 1° to 6°: the tree is built for you, your
# function searches it with rules 1 and 2 and lists the samples whose distance it
# computes.

print(template("branch_and_bound"))


# %%


def branch_and_bound(X, x, centers, radii, children, members, to_center):
    # Your code here.
    raise NotImplementedError


check("branch_and_bound", branch_and_bound)

# %%
# .. dropdown:: Hint 1: the shape of the search
#
#    A recursive function ``search(p)`` that handles node :math:`p` is the easiest:
#    a leaf runs step 6°, an internal node sorts its children by
#    :math:`D(\mathbf{x}, M_p)` and calls ``search`` on each in turn.  Keep
#    :math:`B`, NN and the list of evaluations outside it (a small class or a dict),
#    so every call sees the current :math:`B`.
#
# .. dropdown:: Hint 2: rule 1
#
#    Skip child :math:`p` when :math:`D(\mathbf{x}, M_p) > B + r_p`, testing it
#    when its turn comes, with :math:`B` as it is then: a nearer sample found in an
#    earlier child prunes more.
#
# .. dropdown:: Hint 3: rule 2
#
#    In a leaf, skip :math:`\mathbf{x}_i` when :math:`D(\mathbf{x}, M_p) > B +
#    D(\mathbf{x}_i, M_p)`; and, since the samples come sorted by
#    :math:`D(\mathbf{x}_i, M_p)`, once :math:`D(\mathbf{x}_i, M_p) > B +
#    D(\mathbf{x}, M_p)` every later sample is skipped too.  Both are the triangle
#    inequality :math:`D(\mathbf{x}, \mathbf{x}_i) \ge |D(\mathbf{x}, M_p) -
#    D(\mathbf{x}_i, M_p)|`.

# %%
# Wilson's editing
# ----------------
# Classify every sample by its :math:`k` nearest *other* samples, then remove all
# the misclassified at once.

print(template("wilson_editing"))


# %%


def wilson_editing(X, labels, k=3):
    # Your code here.
    raise NotImplementedError


check("wilson_editing", wilson_editing)

# %%
# .. dropdown:: Hint 1: leave the sample out
#
#    A sample is at distance 0 from itself: set its own distance to
#    :math:`\infty` (``d[j] = np.inf``) before taking the :math:`k` nearest.
#
# .. dropdown:: Hint 2: decide first, remove after
#
#    Decide for every sample on the original set, keep a boolean mask, and remove
#    at the end: removing as you go changes the neighbours of the samples after.

# %%
# Multi-edit
# ----------
# Split the samples at random into :math:`s` subsets, judge each subset by the 1-NN
# rule on the next one, discard the misclassified, and repeat until nothing changes.

print(template("multiedit"))


# %%


def multiedit(X, labels, n_splits=3, seed=0, max_iter=100):
    # Your code here.
    raise NotImplementedError


check("multiedit", multiedit)

# %%
# .. dropdown:: Hint 1: the random split
#
#    Create ``rng = np.random.default_rng(seed)`` once, before the first round;
#    each round, ``np.array_split(rng.permutation(remaining), n_splits)`` with
#    ``remaining`` the sorted indices still kept.
#
# .. dropdown:: Hint 2: who judges whom
#
#    Subset :math:`i` is classified by the 1-NN rule of subset :math:`(i + 1) \bmod
#    s`, never by itself: the judges must be samples the judged ones have not
#    seen.

# %%
# Hart's condensing
# -----------------
# Keep only the samples the nearest-neighbour rule needs: a sample the store already
# classifies correctly stays out.

print(template("hart_condensing"))


# %%


def hart_condensing(X, labels):
    # Your code here.
    raise NotImplementedError


check("hart_condensing", hart_condensing)

# %%
# .. dropdown:: Hint 1: one pass
#
#    Start the store with ``X[0]``; visit the others in order and move a sample into
#    the store when its nearest *stored* sample has another class.
#
# .. dropdown:: Hint 2: until nothing moves
#
#    Repeat the passes over the samples left out until a whole pass moves nothing:
#    a sample correct for a small store can be wrong for the store grown after it.

# %%
# Questions to discuss
# --------------------
# The course closes the chapter with these questions; each example below bears on
# one.
#
# - *How do you choose k in a practical application?*  Rules of thumb, or
#   exploratory experiments: cross-validation makes the experiment systematic.
#   (:example:`neighbors/plot_choose_k`, :example:`neighbors/plot_knn_k`.)
# - *The curse of dimensionality*: in high dimension the nearest neighbour can be
#   far away, and the search prunes less and less.
#   (:example:`neighbors/plot_bnb_dimension`.)
# - *In what scenario would you prefer k-NN?*  Think of the dimension, the sample
#   size, how complicated the boundary is expected to be, and whether a decision
#   must be explained.  (:example:`comparison/plot_compare_breast_cancer`,
#   :example:`neighbors/plot_search_explained`.)
# - *What distance or preprocessing would you use?*  It depends on the features'
#   units and their relative importance.  (:example:`neighbors/plot_unit_balls`.)
# - *What does editing buy, and condensing?*  (:example:`neighbors/plot_edit_condense`,
#   :example:`neighbors/plot_edited_error`.)

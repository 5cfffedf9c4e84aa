r"""
Exercises: multi-category linear classifiers
============================================

Section 4.1 of the course, in your own code: the perceptron on augmented vectors,
the multi-class linear machine and Kesler's construction behind it, and the decoding
of error-correcting output codes.  For each one: read the task (the docstring of its
template), fill in the function in the cell below it, and run the check.  The rules
are stated in the :ref:`Multi-category linear machines <linear>` guide, in the
course's :ref:`notation`.

A check runs your function on the course's worked example and on random cases, and
compares every step with patrec's recorded training (``history_``): when your
weights first differ, the report names the epoch, the sample and its class, what the
rule does there and what your function did.  Below, each check runs on the template
itself, so it reports that the function is not written yet.
"""

# %%
import numpy as np

from patrec.exercises import check, template

# %%
# The perceptron on augmented vectors
# -----------------------------------
# The augmented sample :math:`\mathbf{y} = (\mathbf{x}, 1)` lets the bias be one more
# weight of :math:`\mathbf{a} = (\mathbf{w}, b)`.  The task, as the template states
# it:

print(template("perceptron"))


# %%
# Your function (fill it in, then run the check):


def perceptron(X, labels, rho=1.0, max_epochs=100):
    # Your code here.
    raise NotImplementedError


check("perceptron", perceptron)

# %%
# .. dropdown:: Hint 1: the augmented samples
#
#    Build all the :math:`\mathbf{y}_j` at once: append a column of ones to ``X``
#    (``np.hstack`` or ``np.column_stack``).  Then :math:`\mathbf{a}` has
#    :math:`d + 1` entries and starts at zero.
#
# .. dropdown:: Hint 2: when to correct
#
#    Sample :math:`\mathbf{y}_t` with label :math:`z_t = \pm 1` is a mistake when
#    :math:`z_t \, \mathbf{a}^T \mathbf{y}_t \le 0`: a tie (zero) is a mistake, so
#    the all-zero start is corrected at once.
#
# .. dropdown:: Hint 3: the rule and the loop
#
#    A mistake moves :math:`\mathbf{a} \leftarrow \mathbf{a} + \rho \, z_t
#    \mathbf{y}_t`.  Two loops: epochs outside, samples in their order inside; count
#    the mistakes of an epoch and stop after one with none.  Append
#    ``a.copy()`` to ``steps`` after every sample, corrected or not.

# %%
# The multi-class linear machine
# ------------------------------
# One augmented vector :math:`\mathbf{a}_i` per class and
# :math:`g_i(\mathbf{x}) = \mathbf{a}_i^T \mathbf{y}`; a mistake corrects the true
# class and its strongest rival.

print(template("linear_machine"))


# %%


def linear_machine(X, labels, n_classes, rho=1.0, max_epochs=100):
    # Your code here.
    raise NotImplementedError


check("linear_machine", linear_machine)

# %%
# .. dropdown:: Hint 1: the scores
#
#    Keep the vectors as the rows of a matrix ``A`` of shape ``(n_classes, d + 1)``:
#    then ``A @ y`` holds every :math:`g_i(\mathbf{x})` at once.
#
# .. dropdown:: Hint 2: the rival
#
#    For a sample of class :math:`\omega_i`, the rival is the other class with the
#    largest score: set the score of :math:`i` to :math:`-\infty` in a copy and take
#    ``np.argmax`` (which picks the first on a tie).  The sample is a mistake when
#    the rival's score is at least :math:`g_i`.
#
# .. dropdown:: Hint 3: the correction
#
#    :math:`\mathbf{a}_i \leftarrow \mathbf{a}_i + \rho \mathbf{y}` and
#    :math:`\mathbf{a}_r \leftarrow \mathbf{a}_r - \rho \mathbf{y}` for the rival
#    :math:`r` only; the other vectors do not change.

# %%
# Kesler's construction
# ---------------------
# The linear machine is one perceptron in a bigger space: stack the
# :math:`\mathbf{a}_i` into one vector and give each sample the multivector
# :math:`\psi(\mathbf{x}, i)`.

print(template("kesler"))


# %%


def kesler(X, labels, n_classes):
    # Your code here.
    raise NotImplementedError


check("kesler", kesler)

# %%
# .. dropdown:: Hint 1: the blocks
#
#    :math:`\psi(\mathbf{x}, i)` has :math:`c` blocks of :math:`d + 1` entries; block
#    :math:`i` (columns :math:`i(d+1)` to :math:`i(d+1) + d`) holds
#    :math:`\mathbf{y} = (\mathbf{x}, 1)`, every other entry is zero.
#
# .. dropdown:: Hint 2: checking your answer by hand
#
#    With the stacked weights ``a = A.ravel()``, ``psi @ a`` must equal
#    :math:`g_{\theta_j}(\mathbf{x}_j)`, the score of each sample's own class.

# %%
# Error-correcting output codes
# -----------------------------
# Each class has a code word, a row of :math:`M \in \{-1, 0, +1\}^{c \times l}`; the
# :math:`l` binary classifiers give scores :math:`f_s(\mathbf{x})`, and a sample goes
# to the class whose code word is nearest.

print(template("output_codes"))


# %%


def output_codes(M, F, method="hamming"):
    # Your code here.
    raise NotImplementedError


check("output_codes", output_codes)

# %%
# .. dropdown:: Hint 1: Hamming decoding
#
#    Compare the signs of the scores with each code word: an entry counts 0 where
#    they agree, 1 where they disagree, and :math:`\frac{1}{2}` where the code word
#    has a 0 (that class took no part in the binary problem).
#
# .. dropdown:: Hint 2: loss-based decoding
#
#    The distance of class :math:`r` is :math:`\sum_s L(M(r, s) \, f_s)`: the loss
#    of the margin, the code entry times the score.  With the exponential loss,
#    :math:`L(m) = e^{-m}`.
#
# .. dropdown:: Hint 3: the decision
#
#    The class with the smallest distance wins (``np.argmin``: the first on a tie).

# %%
# Questions to discuss
# --------------------
# - Why does the multi-class linear machine converge whenever the classes are
#   linearly separable?  (Kesler's construction turns it into one perceptron:
#   :example:`linear/plot_update_rules`.)
# - Where do one-vs-all and pairwise voting leave regions undecided, and how do the
#   linear machine and output codes avoid them?  (:example:`linear/plot_one_vs_all_fusion`,
#   :example:`linear/plot_all_pairs_votes`, :example:`linear/plot_three_sectors`.)
# - What does a longer code buy, and what do the zeros of a ternary code cost?
#   (:example:`linear/plot_output_codes`.)

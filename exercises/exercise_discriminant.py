r"""
Exercises: Fisher's discriminant and QDA
========================================

Sections 4.1 and 4.3 of the course, in your own code: the scatter matrices and the
projection of the multiclass Fisher discriminant, and the class Gaussians and
quadratic discriminants of QDA.  The rules are stated in the :ref:`Discriminants
<discriminant>` guide, in the course's :ref:`notation <notation>`.  A check compares
your matrices with patrec's one at a time, in the order the method builds them, and
names the first that differs and the classic mistake it looks like.
"""

# %%
import numpy as np

from patrec.exercises import check, template

# %%
# The multiclass Fisher discriminant
# ----------------------------------
# :math:`W` maximises :math:`J(W) = |W^T S_b W| / |W^T S_w W|`: its columns are the
# :math:`c - 1` leading solutions of :math:`S_b \mathbf{w} = \lambda S_w \mathbf{w}`.

print(template("fisher_lda"))


# %%


def fisher_lda(X, labels, n_classes):
    # Your code here.
    raise NotImplementedError


check("fisher_lda", fisher_lda)

# %%
# .. dropdown:: Hint 1: the means
#
#    :math:`\mathbf{m}_i` is the mean of the samples of class :math:`\omega_i`
#    (``X[labels == i].mean(axis=0)``); :math:`\mathbf{m}` is the mean of all
#    :math:`N` samples, which differs from the mean of the class means when the
#    classes have different sizes.
#
# .. dropdown:: Hint 2: the scatter matrices
#
#    :math:`S_w = \sum_i \sum_{\mathbf{x} \in \omega_i} (\mathbf{x} - \mathbf{m}_i)
#    (\mathbf{x} - \mathbf{m}_i)^T`: with ``D = X[labels == i] - m_i``, a class adds
#    ``D.T @ D``.  :math:`S_b = \sum_i N_i (\mathbf{m}_i - \mathbf{m})
#    (\mathbf{m}_i - \mathbf{m})^T`: each class's outer product weighted by its size.
#    Both are sums, divided by nothing.
#
# .. dropdown:: Hint 3: the directions
#
#    ``scipy.linalg.eigh(S_b, S_w)`` solves :math:`S_b \mathbf{w} = \lambda S_w
#    \mathbf{w}` and returns the :math:`\lambda` in increasing order: take the last
#    :math:`c - 1` columns, largest first.

# %%
# Quadratic discriminants
# -----------------------
# Each class gets its own mean and covariance; :math:`g_i(\mathbf{x})` is the
# logarithm of :math:`P(\omega_i) \, p(\mathbf{x} \mid \omega_i)` up to a constant.

print(template("qda"))


# %%


def qda(X, labels, n_classes, X_test):
    # Your code here.
    raise NotImplementedError


check("qda", qda)

# %%
# .. dropdown:: Hint 1: the estimates
#
#    The course divides by :math:`N_i - 1`: ``np.cov(X[labels == i], rowvar=False)``
#    does exactly that (``bias=False`` is its default).
#
# .. dropdown:: Hint 2: the quadratic form
#
#    For each class, with ``D = X_test - m_i``, the squared Mahalanobis distances
#    are ``np.einsum("qf,fg,qg->q", D, inv(Sigma_i), D)``, or better
#    ``(D * np.linalg.solve(Sigma_i, D.T).T).sum(axis=1)``.
#
# .. dropdown:: Hint 3: the whole discriminant
#
#    :math:`g_i(\mathbf{x}) = -\frac{1}{2} (\mathbf{x} - \mathbf{m}_i)^T
#    \Sigma_i^{-1} (\mathbf{x} - \mathbf{m}_i) - \frac{1}{2} \ln |\Sigma_i| +
#    \ln P(\omega_i)`, with :math:`P(\omega_i) = N_i / N` and
#    ``np.linalg.slogdet`` for :math:`\ln |\Sigma_i|`.

# %%
# Questions to discuss
# --------------------
# - Why are there at most :math:`c - 1` Fisher directions, and what do they show of
#   data with many features?  (:example:`discriminant/plot_fisher_digits`,
#   :example:`discriminant/plot_fisher_wine`.)
# - When should you choose QDA instead of LDA?  The course's answer: a large training
#   set, roughly normal classes, covariances that differ between classes.
#   (:example:`discriminant/plot_lda_vs_qda`, :example:`discriminant/plot_qda_boundaries`.)
# - How many parameters does QDA estimate for :math:`c` classes in :math:`d`
#   dimensions, and what happens when a class has fewer than :math:`d + 1` samples?

r"""
=====================================================
What the branch-and-bound search saves; error bounds
=====================================================

Brute force compares a query with all :math:`N` training samples.  The
Fukunaga–Narendra tree groups the samples by hierarchical k-means and compares the
query with node means first: rule 1 drops a whole node when
:math:`D(\mathbf{x}, M_p) > B + r_p`, rule 2 drops a single sample when
:math:`D(\mathbf{x}, M_p) > B + D(\mathbf{x}_i, M_p)`.
``query(..., return_counts=True)`` counts the distances that were still computed.  In
two dimensions the count grows far more slowly than :math:`N`; the answers are exactly
brute force's.

The second figure draws the Cover–Hart bounds on the asymptotic 1-NN error,
:math:`P^* \le P_1 \le P^* (2 - \frac{c}{c-1} P^*)`, for :math:`c = 2` and 10 classes.
(What editing does to the error is drawn in ``plot_edited_error``, against the Bayes
error of a known distribution: the editing formula is written in the 1-NN error
:math:`P_1`, not in :math:`P^*`.)
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec.neighbors import (
    BranchBoundTree,
    BruteForce,
    cover_hart_bounds,
)

rng = np.random.default_rng(0)
sizes = [1000, 3000, 10000, 30000]
queries = rng.uniform(size=(200, 2))
mean_counts = []
for n in sizes:
    X = rng.uniform(size=(n, 2))
    tree = BranchBoundTree(X, partition="kmeans", random_state=0)
    distances, indices, counts = tree.query(queries, k=1, return_counts=True)
    assert np.array_equal(indices, BruteForce(X).query(queries, k=1)[1])
    mean_counts.append(counts.mean())

fig, left = plt.subplots(figsize=(5.5, 4.2))
left.loglog(sizes, sizes, "o-", label="brute force: $N$")
left.loglog(sizes, mean_counts, "s-", label="branch and bound")
left.set_xlabel("training samples $N$")
left.set_ylabel("distances computed per query")
left.set_title("1-NN search in two dimensions")
left.legend()
fig.tight_layout()
plt.show()

# %%
# The asymptotic error bounds of the nearest-neighbour rule.
fig, right = plt.subplots(figsize=(5.5, 4.2))
bayes = np.linspace(0, 0.5, 101)
for c in (2, 10):
    upper = [cover_hart_bounds(p, c)[1] for p in bayes]
    right.plot(bayes, upper, label=f"1-NN upper bound, $c$ = {c}")
right.plot(bayes, bayes, "k--", label="Bayes error $P^*$ (lower bound)")
right.set_xlabel("Bayes error $P^*$")
right.set_ylabel("asymptotic error")
right.set_title("Cover–Hart bounds")
right.legend(fontsize="small")
fig.tight_layout()
plt.show()

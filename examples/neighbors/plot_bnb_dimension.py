r"""
=====================================================
Branch and bound against the curse of dimensionality
=====================================================

The Fukunaga–Narendra search compares a query :math:`\mathbf{x}` with node means
:math:`M_p` before it looks at any sample, and skips a whole node when
:math:`D(\mathbf{x}, M_p) > B + r_p` (rule 1) and a single sample :math:`\mathbf{x}_i`
when :math:`D(\mathbf{x}, M_p) > B + D(\mathbf{x}_i, M_p)` (rule 2), :math:`B` being
the distance to the nearest sample found so far.
``BranchBoundTree.query(..., return_counts=True)`` returns the number of distances
each query still computed, node means included; brute force computes :math:`N`.

The rules pay off only when :math:`B` is small compared with the radii :math:`r_p`,
that is when the nearest neighbour is much closer than most other samples.  In two
dimensions, with :math:`N` uniform samples, the count grows far more slowly than
:math:`N`.  As the dimension :math:`d` grows, the nearest neighbour moves away and
all distances become alike (right panel: the ratio of the nearest to the average
distance climbs towards 1), so the rules prune less and less; from 16 dimensions on
the tree computes nearly all :math:`N` distances, and more than :math:`N` for small
:math:`N`, the node means coming on top.  Far more samples would be needed before the
pruning paid off again: the curse of dimensionality.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec.neighbors import BranchBoundTree, pairwise_distances

rng = np.random.default_rng(0)
sizes = [1000, 4000, 16000]
dimensions = [2, 4, 8, 16, 32]

fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
left.loglog(sizes, sizes, "k--", label="brute force: N")
contrast = []
for d in dimensions:
    queries = rng.uniform(size=(100, d))
    counts = []
    for n in sizes:
        X = rng.uniform(size=(n, d))
        tree = BranchBoundTree(X, partition="kmeans", random_state=0)  # the course's
        distances, _, evaluations = tree.query(queries, k=1, return_counts=True)
        counts.append(evaluations.mean())
    (line,) = left.loglog(sizes, counts, "o-", label=f"branch and bound, d = {d}")
    # How much nearer is the nearest sample than the average one (largest N)?
    average = pairwise_distances(queries, X).mean(axis=1)
    contrast.append(np.mean(distances[:, 0] / average))
    right.plot(
        d, contrast[-1], "o", color=line.get_color(), markersize=8, label=f"d = {d}"
    )
left.set_xlabel("training samples N (uniform in the unit cube)")
left.set_ylabel("distances computed per query")
left.set_title("Distance evaluations of a 1-NN query")
left.legend(fontsize="small", loc="upper left")

right.plot(dimensions, contrast, "k-", linewidth=0.8, zorder=0)
right.legend(fontsize="small")
right.set_xscale("log", base=2)
right.set_xticks(dimensions, [str(d) for d in dimensions])
right.set_ylim(0, 1)
right.set_xlabel("dimension d")
right.set_ylabel("nearest distance / average distance")
right.set_title(f"The nearest neighbour is not near (N = {sizes[-1]})")
fig.tight_layout()
plt.show()

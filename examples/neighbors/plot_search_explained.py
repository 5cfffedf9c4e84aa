"""
=========================================================
One branch-and-bound search, step by step
=========================================================

The Fukunaga–Narendra tree stores, for every node p, the mean M_p of its samples and
its radius r_p = max D(x_i, M_p).  A query x walks the tree nearest child first,
keeping B, the distance to the best sample found so far, and prunes with two rules
that follow from the triangle inequality:

- rule 1: if D(x, M_p) > B + r_p, no sample of node p can beat B: skip the node;
- rule 2: if D(x, M_p) > B + D(x_i, M_p), sample x_i cannot beat B: skip it, without
  computing D(x, x_i).

`BranchBoundTree.explain` repeats one search in Python and records every step; its
answer and its count of distance evaluations are exactly those of ``query``.
`~patrec.plotting.plot_search` draws it as the course draws the algorithm: the balls
(M_p, r_p) of the nodes entered (green) and pruned by rule 1 (red, dashed), the
samples whose distance was computed, those skipped by rule 2, and B around the query.
The numbers are the nodes', as in the listing below.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec.datasets import make_gaussian_classes
from patrec.neighbors import BranchBoundTree
from patrec.plotting import plot_search

X, _ = make_gaussian_classes([[0, 0], [3, 1], [1, 3], [4, 4]], 0.6, 60, random_state=0)
# the course's tree: hierarchical k-means (patrec's default partition is a k-d tree,
# searched with a box rule as well; the answers are the same)
tree = BranchBoundTree(X, partition="kmeans", branching=3, leaf_size=12, random_state=0)
x = np.array([0.5, 1.75])

fig, axes = plt.subplots(1, 2, figsize=(13, 6.6), layout="constrained")
plot_search(tree, x, k=1, ax=axes[0])
axes[0].set_title(f"1-NN: {axes[0].get_title()}", fontsize=10)
plot_search(tree, x, k=5, ax=axes[1])
axes[1].set_title(f"5-NN: {axes[1].get_title()}", fontsize=10)
plt.show()

# %%
# The same search as text: the nodes in the order they were entered, the nodes
# dropped by rule 1 with the numbers that decided it, and every improvement of B.
steps = tree.explain(x, k=1)
_, indices, counts = tree.query(x[None], k=1, return_counts=True)
assert steps.indices[0] == indices[0, 0]
assert len(steps.distance_evaluations) == counts[0]

print("entered:", " -> ".join(str(node) for node in steps.entered["node"]))
print("\nrule 1 (D(x, M_p) > B + r_p):")
for node, distance, bound, radius in steps.pruned:
    print(f"  node {node:3d}: {distance:.3f} > {bound:.3f} + {radius:.3f}")
print("\nB after each new best sample:")
for sample, distance, bound in steps.bound_updates:
    print(f"  sample {sample:4d} at {distance:.3f}: B = {bound:.3f}")
near = steps.skipped[~steps.skipped["far"]]
print(
    f"\nrule 2 skipped {len(steps.skipped)} samples of the leaves entered "
    f"({len(near)} by D(x, M_p) > B + D(x_i, M_p)); "
    f"{counts[0]} distances computed for {tree.n_samples} samples."
)

"""
===============================================
k nearest neighbours, and rejecting close votes
===============================================

The k-NN rule lets the k training samples nearest to x vote.  With k = 1 every
training sample owns the cell of points nearest to it, so the boundary follows each
stray sample of the overlapping classes; with k = 15 the vote smooths the boundary.

When the vote is close, say 8 against 7, the decision is little better than a coin
toss.  ``reject_threshold`` lets the classifier refuse to decide: points whose winning
class gets less than 80% of the vote are rejected (the dark grey band), which lowers the
error on the samples that are classified at the price of leaving some unclassified.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import KNeighborsClassifier
from patrec.plotting import plot_decision_regions

rng = np.random.default_rng(0)
X = np.vstack(
    [rng.normal([0, 0], 1.0, size=(150, 2)), rng.normal([2, 1.5], 1.0, size=(150, 2))]
)
y = np.repeat(["circle", "square"], 150)
X_test = np.vstack(
    [rng.normal([0, 0], 1.0, size=(500, 2)), rng.normal([2, 1.5], 1.0, size=(500, 2))]
)
y_test = np.repeat(["circle", "square"], 500)

k_values = (1, 15)
voters = {k: KNeighborsClassifier(n_neighbors=k).fit(X, y) for k in k_values}

# %%
# The reject option: the same 15-NN vote, refusing to decide when the winning class
# gets less than 80% of it.  `plot_decision_regions` fills the region where it
# rejects in dark grey (the ``reject_label`` of its predictions); the title reports
# the error on the test samples that were classified.  (The whole figure is drawn in
# this one cell, so that the gallery shows it complete.)
rejecting = KNeighborsClassifier(
    n_neighbors=15, reject_threshold=0.8, reject_label="reject"
).fit(X, y)
predicted = rejecting.predict(X_test)
kept = predicted != "reject"
error = np.mean(predicted[kept] != y_test[kept])

fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
for ax, k in zip(axes[:2], k_values):
    plot_decision_regions(voters[k], X, y, ax=ax, legend=ax is axes[0])
    ax.set_title(f"{k}-NN: test error {1 - voters[k].score(X_test, y_test):.3f}")

plot_decision_regions(rejecting, X, y, ax=axes[2])
axes[2].set_title(
    f"15-NN, reject below 0.8: {1 - kept.mean():.0%} rejected,\n"
    f"error on the rest {error:.3f}"
)
for ax in axes:
    ax.set_xlabel("feature 1")
    ax.set_ylabel("feature 2")
fig.tight_layout()
plt.show()

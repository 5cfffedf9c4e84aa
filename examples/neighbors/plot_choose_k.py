"""
=====================================================
Choosing k for k-NN by cross-validation
=====================================================

A small k follows every training sample, noise included (low bias, high variance); a
large k averages over a wide neighbourhood and blurs the boundary (the reverse).  The
training error says nothing about this trade-off: with k = 1 every training sample is
its own nearest neighbour, so the training error is zero.

Cross-validation estimates the error on new data from the training set alone:
``patrec.model_selection.cross_validate`` splits the samples into K stratified folds,
trains on K - 1 of them and counts the errors on the one left out, in turn.  Below,
10-fold cross-validation on 300 samples of the two "banana" crescents, for k from 1
to 99, beside the error on 5000 fresh samples, which a real application would not
have.  The cross-validated error follows the fresh error's U shape; the k it picks is
marked.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import KNeighborsClassifier
from patrec.datasets import make_banana
from patrec.model_selection import cross_validate

X, y = make_banana(n_samples=300, noise=0.35, random_state=0)
X_fresh, y_fresh = make_banana(n_samples=5000, noise=0.35, random_state=1)

ks = np.array([1, 2, 3, 5, 7, 9, 13, 17, 23, 31, 41, 55, 75, 99])
cv_mean, cv_std, training, fresh = [], [], [], []
for k in ks:
    clf = KNeighborsClassifier(n_neighbors=int(k))
    errors = cross_validate(clf, X, y, cv=10, random_state=0, scale=False)["error"]
    cv_mean.append(errors.mean())
    cv_std.append(errors.std())
    clf.fit(X, y)
    training.append(1 - clf.score(X, y))
    fresh.append(1 - clf.score(X_fresh, y_fresh))
cv_mean, cv_std = np.array(cv_mean), np.array(cv_std)
best = ks[np.argmin(cv_mean)]

fig, ax = plt.subplots(figsize=(7.5, 4.6))
ax.plot(ks, cv_mean, "o-", label="10-fold cross-validation error")
ax.fill_between(
    ks,
    cv_mean - cv_std,
    cv_mean + cv_std,
    alpha=0.2,
    label="± one standard deviation over the folds",
)
ax.plot(ks, fresh, "s--", label="error on 5000 fresh samples")
ax.plot(ks, training, "^:", label="training error")
ax.axvline(best, color="k", linewidth=0.8)
ax.annotate(
    f"chosen: k = {best}",
    (best, cv_mean.min()),
    xytext=(10, -30),
    textcoords="offset points",
    arrowprops={"arrowstyle": "->"},
)
ax.set_xscale("log")
ax.set_xticks(ks, [str(k) for k in ks], fontsize="small")
ax.set_xlabel("k (number of neighbours, log scale)")
ax.set_ylabel("error rate")
ax.set_title("k-NN on the banana data: choosing k by cross-validation")
ax.legend(fontsize="small")
fig.tight_layout()
plt.show()

r"""
=================================================
The 1-NN error after editing, as the data grow
=================================================

Cover and Hart bound the asymptotic error :math:`P_1` of the 1-NN rule by the Bayes
error :math:`P^*`: :math:`P^* \le P_1 \le P^* (2 - \frac{c}{c-1} P^*)`.  For two
classes, Wilson showed what editing the training set with the 1-NN rule itself (drop
every sample whose nearest other sample has another label) does to the 1-NN rule
trained on what is left: where the rule's conditional error is :math:`r(\mathbf{x})`,
the edited rule's is :math:`r(\mathbf{x}) / (2 (1 - r(\mathbf{x})))`.

Two Gaussian classes with equal priors and unit covariance, means :math:`\sqrt{5}`
apart: :math:`P^* = \Phi(-\sqrt{5}/2) = 0.132`.  The asymptotic 1-NN error is the mean
of the local error :math:`r(\mathbf{x}) = 2 p(\mathbf{x}) (1 - p(\mathbf{x}))` over the
data, :math:`p(\mathbf{x})` the posterior of one class; it is estimated below by Monte
Carlo, and so is the edited rule's, the mean of :math:`r / (2 (1 - r))`.

Applied to the *average* :math:`P_1` instead, as ``edited_nn_error`` does, the formula
:math:`P_1 / (2 (1 - P_1))` gives less (it is convex), here even less than :math:`P^*`,
which no rule can beat: it is a quick estimate for small :math:`P_1`, not a bound.  The
measured errors (mean of 10 training sets per size, 20 000 test samples) approach the
point-by-point limits as :math:`N` grows: the full set's towards :math:`P_1`, the edited
set's towards the mean of :math:`r / (2 (1 - r))`.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import norm

from patrec.neighbors import (
    KNeighborsClassifier,
    cover_hart_bounds,
    edit,
    edited_nn_error,
)

rng = np.random.default_rng(0)
means = np.array([[0.0, 0.0], [2.0, 1.0]])


def sample(n):
    y = rng.integers(0, 2, n)
    return means[y] + rng.standard_normal((n, 2)), y


def posterior(X):
    """P(class 1 | x) for the two Gaussians with equal priors."""
    log_ratio = X @ (means[1] - means[0]) - 0.5 * (means[1] @ means[1])
    return 1 / (1 + np.exp(-log_ratio))


bayes = norm.cdf(-np.linalg.norm(means[1] - means[0]) / 2)
p = posterior(sample(1_000_000)[0])
local_nn = 2 * p * (1 - p)
asymptotic_nn = np.mean(local_nn)
lower, upper = cover_hart_bounds(bayes, 2)
edited_of_mean = edited_nn_error(asymptotic_nn)
edited_limit = np.mean(local_nn / (2 * (1 - local_nn)))

X_test, y_test = sample(20000)
sizes = [20, 50, 100, 200, 500, 1000, 2000, 5000]
full_error, edited_error = [], []
for n in sizes:
    full, edited = [], []
    for _ in range(10):
        X, y = sample(n)
        nn = KNeighborsClassifier(n_neighbors=1)
        full.append(np.mean(nn.fit(X, y).predict(X_test) != y_test))
        kept = edit(X, y, n_neighbors=1)
        edited.append(np.mean(nn.fit(X[kept], y[kept]).predict(X_test) != y_test))
    full_error.append(np.mean(full))
    edited_error.append(np.mean(edited))

# %%
# The measured errors against the asymptotic values.
fig, ax = plt.subplots(figsize=(11, 5))
ax.semilogx(sizes, full_error, "o-", color="tab:red", label="1-NN, all samples")
ax.semilogx(sizes, edited_error, "s-", color="tab:green", label="1-NN after editing")
ax.axhline(
    upper, color="tab:red", linestyle=":", label=f"Cover-Hart upper bound {upper:.3f}"
)
ax.axhline(
    asymptotic_nn,
    color="tab:red",
    linestyle="--",
    label=f"asymptotic 1-NN error $P$ = {asymptotic_nn:.3f}",
)
ax.axhline(
    edited_limit,
    color="tab:green",
    linestyle="--",
    label=f"edited, asymptotic: mean of $r/(2(1-r))$ = {edited_limit:.3f}",
)
ax.axhline(
    edited_of_mean,
    color="tab:green",
    linestyle=":",
    label=f"edited_nn_error: $P/(2(1-P))$ = {edited_of_mean:.3f}",
)
ax.axhline(
    lower,
    color="k",
    linestyle="-",
    linewidth=1,
    label=f"Bayes error $P^*$ = {lower:.3f}",
)
ax.set_xlabel("training samples $n$")
ax.set_ylabel("test error")
ax.set_title("1-NN error with and without editing, two Gaussian classes")
ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
fig.tight_layout()
plt.show()

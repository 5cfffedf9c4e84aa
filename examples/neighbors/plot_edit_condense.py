"""
======================================================
Multi-edit, then condense: a small, clean training set
======================================================

Two Gaussian classes overlap.  The 1-NN rule trained on all 600 samples draws a
ragged boundary: every stray sample in the other class's region owns a small island
of its own label.

* **Condensing** alone (Hart) keeps a *consistent* subset, one on which 1-NN still
  classifies every training sample correctly.  Here that means keeping almost the
  whole overlap region, islands included: the error does not improve.
* **Multi-editing** (Devijver and Kittler) first removes the samples that 1-NN
  trained on another random subset misclassifies, round after round, until the
  classes no longer mix.  Its boundary is smooth and close to the Bayes boundary
  (the straight line halfway between the means; the Bayes error is 0.132).
* **Condensing the edited set** then keeps only the few samples that hold that
  boundary in place: a handful of samples, with the edited set's error.

Each panel shows the samples kept and the 1-NN regions they define, with the 1-NN
error measured on 10 000 fresh samples.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec.neighbors import KNeighborsClassifier, condense, multiedit

rng = np.random.default_rng(0)
means = np.array([[0.0, 0.0], [2.0, 1.0]])


def sample(n_per_class):
    X = np.vstack([rng.normal(m, 1.0, size=(n_per_class, 2)) for m in means])
    return X, np.repeat([0, 1], n_per_class)


X, y = sample(300)
X_test, y_test = sample(5000)

edited = multiedit(X, y, n_splits=3, random_state=0)
stages = {
    "all samples": np.arange(len(X)),
    "condensed": condense(X, y),
    "multi-edited": edited,
    "multi-edited, then condensed": edited[condense(X[edited], y[edited])],
}

# %%
# One panel per stage, drawn on the same grid.
xs, ys = np.meshgrid(np.linspace(-3.5, 5.5, 300), np.linspace(-3.5, 4.5, 300))
grid = np.column_stack([xs.ravel(), ys.ravel()])
colours = np.array(["tab:blue", "tab:orange"])

fig, axes = plt.subplots(2, 2, figsize=(10, 9), sharex=True, sharey=True)
for ax, (name, kept) in zip(axes.ravel(), stages.items()):
    nn = KNeighborsClassifier(n_neighbors=1).fit(X[kept], y[kept])
    regions = nn.predict(grid).reshape(xs.shape)
    ax.contourf(xs, ys, regions, levels=[-0.5, 0.5, 1.5], colors=colours, alpha=0.25)
    ax.scatter(*X[kept].T, c=colours[y[kept]], s=12, edgecolor="k", linewidth=0.3)
    ax.plot([-1.0, 3.0], [4.5, -3.5], "k--", linewidth=1)  # the Bayes boundary
    error = np.mean(nn.predict(X_test) != y_test)
    ax.set_title(f"{name}: {len(kept)} samples\n1-NN test error {error:.3f}")
    ax.set_xlim(-3.5, 5.5)
    ax.set_ylim(-3.5, 4.5)
for ax in axes[1]:
    ax.set_xlabel("feature 1")
for ax in axes[:, 0]:
    ax.set_ylabel("feature 2")
classes = [
    plt.Line2D([], [], marker="o", linestyle="", color=colour, label=f"class {label}")
    for label, colour in enumerate(colours)
]
axes[0, 0].legend(handles=classes, loc="upper left")
fig.suptitle("Two overlapping Gaussian classes; dashed: the Bayes boundary")
fig.tight_layout()
plt.show()

r"""
=====================================================
The two update rules of the multiclass perceptron
=====================================================

A linear machine keeps one augmented weight vector
:math:`\mathbf{a}_r = (\mathbf{w}_r, b_r)` per class and predicts the class with the
largest :math:`g_r(\mathbf{x}) = \mathbf{a}_r^T \mathbf{y}`, :math:`\mathbf{y} =
(\mathbf{x}, 1)`.  When a training sample of class :math:`\omega_i` is misclassified,
the true class always moves towards it,
:math:`\mathbf{a}_i \leftarrow \mathbf{a}_i + \rho \mathbf{y}`.  The two rules differ
in who pays for the mistake:

- ``update="winner"`` (the course's multi-class linear machine): only the wrongly
  predicted class :math:`\hat r = \operatorname{argmax}_r g_r(\mathbf{x})` moves away,
  :math:`\mathbf{a}_{\hat r} \leftarrow \mathbf{a}_{\hat r} - \rho \mathbf{y}`;
- ``update="all"``: every class in
  :math:`E = \{r \ne i : g_r(\mathbf{x}) \ge g_i(\mathbf{x})\}`, all those that scored
  at least as high as the truth, moves away by :math:`\rho \mathbf{y} / |E|`.

Both rules converge when the classes are linearly separable (Kesler's construction
turns either into a binary perceptron).  Below, four Gaussian classes, one of them in
the middle of the other three: the two rules find different separating machines, and
they get there along different paths.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from patrec import LinearMachine
from patrec.datasets import make_gaussian_classes
from patrec.plotting import plot_decision_regions

means = [[0.0, 0.0], [5.0, 0.0], [2.5, 4.5], [2.5, 1.6]]
X, y = make_gaussian_classes(
    means, [0.15 * np.eye(2)] * 4, n_per_class=60, random_state=0
)
names = np.array(["west", "east", "north", "centre"])
labels = names[y]

machines = {
    rule: LinearMachine(update=rule, shuffle=True, random_state=0).fit(X, labels)
    for rule in ("winner", "all")
}

fig, axes = plt.subplots(1, 2, figsize=(11, 4.8))
for ax, (rule, machine) in zip(axes, machines.items()):
    plot_decision_regions(machine, X, labels, ax=ax, legend=ax is axes[0])
    ax.set_title(
        f'update="{rule}": {machine.mistakes_.sum()} corrections in '
        f"{machine.n_iter_} epochs,\ntraining error "
        f"{1 - machine.score(X, labels):.3f}"
    )
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
fig.tight_layout()
plt.show()

# %%
# Mistakes per epoch: training stops after the first epoch without a mistake (the
# last point of each line, at zero).
fig, ax = plt.subplots(figsize=(6, 3.8))
for (rule, machine), marker in zip(machines.items(), "os"):
    epochs = np.arange(1, machine.n_iter_ + 1)
    ax.plot(epochs, machine.mistakes_, marker=marker, label=f'update="{rule}"')
ax.xaxis.get_major_locator().set_params(integer=True)
ax.set_xlabel("epoch")
ax.set_ylabel("mistakes (= corrections) in the epoch")
ax.set_title("Training the linear machine: the two update rules")
ax.legend()
fig.tight_layout()
plt.show()

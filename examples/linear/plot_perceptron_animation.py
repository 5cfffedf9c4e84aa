r"""
=====================================================
Watching the multiclass perceptron correct itself
=====================================================

The linear machine keeps one augmented weight vector
:math:`\mathbf{a}_r = (\mathbf{w}_r, b_r)` per class and predicts the class with the
largest :math:`g_r(\mathbf{x}) = \mathbf{a}_r^T \mathbf{y}`, :math:`\mathbf{y}` the
augmented sample :math:`(\mathbf{x}, 1)`.  It visits the training samples in turn; a
sample of class :math:`\omega_i` is a mistake when some other class scores at least as
high, and then the weights move:

- ``update="winner"``: :math:`\mathbf{a}_i \leftarrow \mathbf{a}_i + \rho \mathbf{y}`
  and the best-scoring wrong class :math:`\omega_r` loses as much,
  :math:`\mathbf{a}_r \leftarrow \mathbf{a}_r - \rho \mathbf{y}`;
- ``update="all"``: :math:`\mathbf{a}_i \leftarrow \mathbf{a}_i + \rho \mathbf{y}` and
  each of the :math:`|E|` classes that outscored :math:`\omega_i` loses
  :math:`\rho \mathbf{y} / |E|`.

Fitted with ``record_history=True``, the machine keeps every correction in
``history_``, and ``patrec.plotting.animate_training`` replays them: each frame is the
machine just after one correction, the corrected sample ringed.  Both rules start
from all-zero weights (every point goes to the first class) on the same three classes
and the same visiting order.
"""

# %%
import matplotlib.pyplot as plt

from patrec import LinearMachine
from patrec.datasets import make_gaussian_classes
from patrec.plotting import animate_training, plot_decision_regions, plot_history

X, y = make_gaussian_classes([[0, 0], [4, 0], [2, 3.5]], 0.8, 20, random_state=1)

winner = LinearMachine(update="winner", record_history=True, random_state=0).fit(X, y)
every = LinearMachine(update="all", record_history=True, random_state=0).fit(X, y)
print(
    f"winner rule: {len(winner.history_.corrections)} corrections in "
    f"{winner.n_iter_} epochs; all rule: {every.n_iter_} epochs"
)

# %%
# The "winner" rule, one frame per correction.  Each title names the corrected
# sample, its class and the class that outscored it.
animation_winner = animate_training(winner, X, y, interval=300)

# %%
# The "all" rule: the step taken from the wrong classes is shared among all of those
# that outscored the truth, so the first corrections move two boundaries at once.
animation_all = animate_training(every, X, y, interval=300)

# %%
# Where both rules ended, and how many corrections each epoch made (bars) with the
# training error of the weights after each epoch (line).
fig, axes = plt.subplots(2, 2, figsize=(10, 8.5))
for column, (clf, rule) in enumerate([(winner, "winner"), (every, "all")]):
    plot_decision_regions(clf, X, y, ax=axes[0, column], legend=column == 0)
    axes[0, column].set_title(f'update="{rule}": {clf.n_iter_} epochs')
    plot_history(clf, X, y, ax=axes[1, column])
    axes[1, column].set_title(f'update="{rule}": corrections and training error')
fig.tight_layout()
plt.show()

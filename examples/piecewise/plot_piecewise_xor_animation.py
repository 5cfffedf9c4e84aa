r"""
=======================================================
Watching a piecewise-linear machine learn XOR
=======================================================

No line separates the two classes of the XOR problem, so the linear machine never
stops correcting itself.  A piecewise-linear machine with two linear pieces per
class, :math:`g_i(\mathbf{x}) = \max_l \mathbf{a}_i^{l\,T} \mathbf{y}` with
:math:`\mathbf{y} = (\mathbf{x}, 1)`, can separate them, and the error-correction
rule finds such pieces: for a misclassified sample, the best piece :math:`m` of its own
class moves towards it,
:math:`\mathbf{a}^m \leftarrow \mathbf{a}^m + \rho \mathbf{y}`, and
the best piece :math:`n` of the other class moves away,
:math:`\mathbf{a}^n \leftarrow \mathbf{a}^n - \rho \mathbf{y}`.

Here the machine starts from all-zero weights (``init="zeros"``): at first only one
piece of each class ever wins, and the second pieces are recruited as the first ones
fail.  ``record_history=True`` keeps every correction; the animation replays them,
ringing the corrected sample and naming the class whose piece lost.
"""

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

from patrec import LinearMachine, PiecewiseLinearClassifier
from patrec.datasets import make_xor
from patrec.exceptions import ConvergenceWarning
from patrec.plotting import animate_training, plot_decision_regions, plot_history

X, y = make_xor(n_samples=80, noise=0.45, random_state=0)
machine = PiecewiseLinearClassifier(
    n_subclasses=2, init="zeros", record_history=True, random_state=0
).fit(X, y)
print(
    f"{len(machine.history_.corrections)} corrections in {machine.n_iter_} epochs; "
    f"the last epoch made {machine.corrections_[-1]}"
)

# %%
# The corrections one by one.
animation = animate_training(machine, X, y, interval=350)

# %%
# The linear machine on the same data never converges: after ``max_epochs`` it warns.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", ConvergenceWarning)
    linear = LinearMachine(averaged=True, random_state=0).fit(X, y)
print(caught[0].message)

# %%
# Where training ended: the pieces of the piecewise-linear machine (dashed: where the
# winning piece changes), the corrections and training error per epoch, and the best
# the averaged linear machine could do.
fig, axes = plt.subplots(1, 3, figsize=(14, 4.4))
plot_decision_regions(machine, X, y, ax=axes[0])
grid_x, grid_y = np.meshgrid(
    np.linspace(*axes[0].get_xlim(), 300), np.linspace(*axes[0].get_ylim(), 300)
)
piece = np.argmax(
    machine.subclass_decision_function(
        np.column_stack([grid_x.ravel(), grid_y.ravel()])
    ),
    axis=1,
)
axes[0].contour(
    grid_x,
    grid_y,
    piece.reshape(grid_x.shape),
    levels=[0.5, 1.5, 2.5],
    colors="k",
    linewidths=0.6,
    linestyles="dashed",
)
axes[0].set_title(
    f"piecewise-linear, 2 pieces per class: training error "
    f"{1 - machine.score(X, y):.2f}",
    fontsize=10,
)
plot_history(machine, X, y, ax=axes[1])
axes[1].set_title("corrections and training error per epoch", fontsize=10)
plot_decision_regions(linear, X, y, ax=axes[2], legend=False)
axes[2].set_title(
    f"linear machine (averaged): training error {1 - linear.score(X, y):.2f}",
    fontsize=10,
)
fig.tight_layout()
plt.show()

r"""
=====================================================
Three sectors: linear machines against one-vs-all
=====================================================

The course's example: three classes fill three equal sectors of the unit disc.  A
linear machine, one weight vector :math:`\mathbf{w}_r` per class and the prediction
:math:`\operatorname{argmax}_r \mathbf{w}_r^T \mathbf{x}`, separates them exactly:
take each :math:`\mathbf{w}_r` pointing into the middle of its sector.  Both the
multiclass perceptron (``LinearMachine``) and the multiclass SVM (``MulticlassSVM``)
find such weights.

One-vs-all trains the three weight vectors separately, each to split one sector from
the other two.  No straight line can do that, so every binary perceptron keeps making
mistakes; whether the argmax of their scores repairs them depends on where the lines
settle.  Here, with plain perceptrons, the fused classifier keeps 3% of the training
samples wrong (with its default, averaged base classifier ``OneVsAll()`` makes no
training error on these sectors: see the :ref:`linear` chapter).
"""

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

from patrec import LinearMachine, MulticlassSVM, OneVsAll, Perceptron
from patrec.datasets import make_sectors
from patrec.exceptions import ConvergenceWarning
from patrec.plotting import plot_decision_regions

# No line cuts one sector off from the other two, so one-vs-all's perceptrons
# never converge and say so in a ConvergenceWarning: that is the point of this
# example, and the warnings are silenced.
warnings.filterwarnings("ignore", category=ConvergenceWarning)

X, y = make_sectors(3, n_samples=300, random_state=4)

models = [
    ("LinearMachine", LinearMachine(random_state=0)),
    ("MulticlassSVM", MulticlassSVM(alpha=1e-4, max_epochs=50, random_state=0)),
    ("OneVsAll(Perceptron())", OneVsAll(Perceptron(random_state=0))),
]

fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
for ax, (name, clf) in zip(axes, models):
    clf.fit(X, y)
    plot_decision_regions(clf, X, y, ax=ax, legend=ax is axes[0])
    ax.set_title(f"{name}\ntraining error {1 - clf.score(X, y):.3f}")
fig.tight_layout()

# %%
# The binary problems of one-vs-all are not separable: each perceptron still makes
# mistakes in its last epoch.
ova = models[2][1]
for r, binary in enumerate(ova.estimators_):
    error = 1 - binary.score(X, np.where(y == r, 1, -1))
    print(
        f"sector {r} against the rest: {binary.mistakes_[-1]} mistakes in the last "
        f"epoch, training error {error:.3f}"
    )
plt.show()

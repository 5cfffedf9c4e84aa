"""
=====================================================
patrec compare on the breast-cancer data, as a chart
=====================================================

``patrec compare --data breast_cancer`` cross-validates every registered classifier
on the Wisconsin breast-cancer data (569 tumours, 30 measurements of their cell
nuclei, malignant or benign) and prints a table.  This script runs the same
comparison through the Python API behind the command: the classifiers listed in
``patrec.registry``, each with its default parameters and ``random_state=0``, scored
by ``patrec.model_selection.cross_validate`` over 5 stratified folds, with the
features standardised by each training fold's mean and standard deviation.

Left: the cross-validated error rate, mean and standard deviation over the folds.
Right: the time to fit on four folds and to predict the fifth, per fold.  The linear
models do about as well as k-NN and QDA here; the nearest-mean classifier, one
prototype per class, is the weakest.
"""

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

from patrec import registry
from patrec.datasets import load_breast_cancer
from patrec.exceptions import ConvergenceWarning
from patrec.model_selection import cross_validate

# The error-correcting learners (the perceptrons, the linear machine, the
# multiclass SVM) stop at their max_epochs on these overlapping classes and say so
# in a ConvergenceWarning: expected here, and silenced so that the table is read.
warnings.filterwarnings("ignore", category=ConvergenceWarning)

data = load_breast_cancer()
X, y = data.data, data.target_names[data.target]

results = {}
for name in registry.classifier_names():
    clf = registry.get_classifier(name)()
    if "random_state" in clf.get_params(deep=False):
        clf.set_params(random_state=0)
    results[name] = cross_validate(clf, X, y, cv=5, random_state=0, scale=True)

names = sorted(results, key=lambda name: results[name]["error"].mean(), reverse=True)
positions = np.arange(len(names))
mean = np.array([results[name]["error"].mean() for name in names])
std = np.array([results[name]["error"].std() for name in names])
fit_ms = np.array([1e3 * results[name]["fit_time"].mean() for name in names])
predict_ms = np.array([1e3 * results[name]["predict_time"].mean() for name in names])

fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2), sharey=True)
left.barh(positions, mean, xerr=std, color="tab:blue", alpha=0.8, capsize=3)
for position, value in zip(positions, mean):
    left.text(value + 0.002, position + 0.25, f"{value:.3f}", fontsize="small")
left.set_yticks(positions, names)
left.set_ylabel("classifier (registry name)")
left.set_xlabel("cross-validated error rate (5 folds, mean ± std)")
left.set_title("Error rate")

height = 0.4
right.barh(positions + height / 2, fit_ms, height, label="fit", color="tab:orange")
right.barh(
    positions - height / 2, predict_ms, height, label="predict", color="tab:green"
)
right.set_xscale("log")
right.set_xlabel("time per fold (ms, log scale)")
right.set_title("Fit and predict times")
right.legend()
fig.suptitle(
    f"patrec compare --data breast_cancer: {X.shape[0]} samples, "
    f"{X.shape[1]} features, classes {', '.join(data.target_names)}"
)
fig.tight_layout()
plt.show()

"""
================================================================
Evaluating a diagnosis: errors by class, and the reject option
================================================================

A classifier that tells malignant tumours from benign ones is judged by more than
its error rate: missing a malignant tumour costs more than a second look at a benign
one.  On the Wisconsin breast-cancer data (569 tumours, 30 measurements; two thirds
for training, one third for testing, the features standardised with the training
statistics) three classifiers are compared by

- the **confusion matrix**: row :math:`i`, column :math:`j` counts the tumours of
  class :math:`i` diagnosed as :math:`j`;
- the **sensitivity** :math:`TP / (TP + FN)`, the share of malignant tumours found,
  and the **specificity** :math:`TN / (TN + FP)`, the share of benign ones cleared;
- **Chow's error-reject curve**: reject a tumour (send it to a specialist) when the
  largest class probability is below a threshold :math:`t`; as :math:`t` grows,
  the reject rate :math:`R(t)` rises and the error :math:`E(t)` (accepted and
  wrong, as a share of all tumours) falls.  A curve that falls steeply at first
  belongs to a classifier whose probabilities know where it errs.
"""

# %%
import matplotlib.pyplot as plt

from patrec import QDA, KNeighborsClassifier, SoftmaxRegression
from patrec.datasets import load_breast_cancer
from patrec.model_selection import (
    error_rates,
    sensitivity_specificity,
    standardize,
    stratified_kfold,
)
from patrec.plotting import plot_confusion_matrix, plot_error_reject_curve

data = load_breast_cancer()
X, diagnosis = data.data, data.target_names[data.target]
train, test = next(stratified_kfold(diagnosis, 3, random_state=0))
X_train, X_test = standardize(X[train], X[test])
truth = diagnosis[test]

models = {
    "5-NN": KNeighborsClassifier(n_neighbors=5),
    "softmax": SoftmaxRegression(),
    "QDA": QDA(reg_param=0.1),
}
for name, model in models.items():
    predicted = model.fit(X_train, diagnosis[train]).predict(X_test)
    sensitivity, specificity = sensitivity_specificity(
        truth, predicted, positive="malignant"
    )
    print(
        f"{name:8s} error {error_rates(truth, predicted)['error']:.3f}  "
        f"sensitivity {sensitivity:.3f}  specificity {specificity:.3f}"
    )

# %%
# The 5-NN rule's confusion matrix, and the three error-reject curves.
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
plot_confusion_matrix(truth, models["5-NN"].predict(X_test), ax=left)
left.set_title("5-NN on the test third")
for name, model in models.items():
    plot_error_reject_curve(model, X_test, truth, ax=right, label=name)
right.set_title("Chow's error-reject trade-off")
right.set_xlim(0, 0.3)
right.legend()
fig.tight_layout()
plt.show()

# %%
# The reject option of the k-NN rule: with ``reject_threshold=0.8`` a tumour is
# diagnosed only when at least 4 of its 5 neighbours agree.  The rejected tumours
# get a column of their own, and the error among the accepted ones drops.
knn = KNeighborsClassifier(n_neighbors=5, reject_threshold=0.8)
predicted = knn.fit(X_train, diagnosis[train]).predict(X_test)
rates = error_rates(truth, predicted, reject_label=knn.reject_label_)
print(
    f"rejected {rates['reject_rate']:.3f} of the tumours; error among the accepted "
    f"{rates['accepted_error']:.3f} (without rejecting: "
    f"{error_rates(truth, models['5-NN'].predict(X_test))['error']:.3f})"
)
fig, ax = plt.subplots(figsize=(5.2, 4.2))
plot_confusion_matrix(truth, predicted, reject_label=knn.reject_label_, ax=ax)
ax.set_title("5-NN with a reject option")
fig.tight_layout()
plt.show()

for label, error in zip(rates["labels"].tolist(), rates["class_error"].tolist()):
    print(f"{label}: error {error:.3f}")

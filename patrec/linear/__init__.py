"""Multi-category linear classifiers.

- `Perceptron`: the binary perceptron (augmented weights, margin, averaging);
- `LinearMachine`: the multiclass perceptron, with `kesler_construct`;
- `MulticlassSVM`: the Crammer-Singer multiclass SVM trained by SGD;
- `SoftmaxRegression`: multinomial logistic regression;
- `OneVsAll`, `AllPairs`, `OutputCodes` (with `decode` and `code_matrix`):
  reductions of a multiclass problem to binary ones.
"""

from .all_pairs import AllPairs
from .linear_machine import LinearMachine, kesler_construct
from .multiclass_svm import MulticlassSVM
from .one_vs_all import OneVsAll
from .output_codes import OutputCodes, code_matrix, decode
from .perceptron import Perceptron
from .softmax import SoftmaxRegression

__all__ = [
    "Perceptron",
    "LinearMachine",
    "kesler_construct",
    "MulticlassSVM",
    "SoftmaxRegression",
    "OneVsAll",
    "AllPairs",
    "OutputCodes",
    "decode",
    "code_matrix",
]

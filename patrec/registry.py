"""The one list of patrec's classifiers.

The command line (`patrec compare`) and the test suite (scikit-learn's estimator
checks, labels of any type, pickling) read this list, so a classifier registered here
with one line is compared and checked like every other.  Each entry maps the name
used on the command line to ``"module:Class"``; the module is imported only when the
class is asked for.
"""

from importlib import import_module

__all__ = ["CLASSIFIERS", "classifier_names", "get_classifier"]

CLASSIFIERS = {
    "perceptron": "patrec.linear:Perceptron",
    "linear-machine": "patrec.linear:LinearMachine",
    "multiclass-svm": "patrec.linear:MulticlassSVM",
    "softmax": "patrec.linear:SoftmaxRegression",
    "one-vs-all": "patrec.linear:OneVsAll",
    "all-pairs": "patrec.linear:AllPairs",
    "output-codes": "patrec.linear:OutputCodes",
    "minimum-distance": "patrec.piecewise:MinimumDistanceClassifier",
    "piecewise-linear": "patrec.piecewise:PiecewiseLinearClassifier",
    "fisher-lda": "patrec.discriminant:FisherLDA",
    "qda": "patrec.discriminant:QDA",
    "knn": "patrec.neighbors:KNeighborsClassifier",
}


def classifier_names():
    """The registered classifier names, in registration order."""
    return list(CLASSIFIERS)


def get_classifier(name):
    """The class registered under ``name``."""
    try:
        target = CLASSIFIERS[name]
    except KeyError:
        known = ", ".join(CLASSIFIERS)
        raise ValueError(f"Unknown classifier {name!r}; registered: {known}.") from None
    module, _, attribute = target.partition(":")
    return getattr(import_module(module), attribute)

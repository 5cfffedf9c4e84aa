"""No parameter is accepted and silently ignored.

For every parameter of every registered classifier, a second value is tried (in the
setting where the parameter applies, e.g. ``leaf_size`` with the tree) and the fitted
model must differ from the default one in something observable: a fitted attribute,
a prediction, a score, the text written to standard error.  Parameters that only
change the speed are listed apart, must say so in their documentation and must
leave every answer unchanged.
"""

import contextlib
import inspect
import io
import warnings

import numpy as np
import pytest

from patrec.linear import Perceptron
from patrec.registry import classifier_names, get_classifier

PERCEPTRON = Perceptron(random_state=0)
MAHALANOBIS = {"metric": "mahalanobis", "metric_params": {"VI": np.eye(4)}}

# name -> {parameter: (other value, setting in which it applies)}
VARIATIONS = {
    "Perceptron": {
        "averaged": True,
        "learning_rate": 0.5,
        "margin": 1.0,
        "max_epochs": 1,
        "random_state": 1,
        "shuffle": False,
    },
    "LinearMachine": {
        "averaged": True,
        "learning_rate": 0.5,
        "margin": 1.0,
        "max_epochs": 1,
        "random_state": 1,
        "shuffle": False,
        "update": "all",
    },
    "MulticlassSVM": {
        "alpha": 0.1,
        "averaged": False,
        "max_epochs": 2,
        "random_state": 1,
        "shuffle": False,
    },
    "SoftmaxRegression": {"C": 0.01, "fit_intercept": False, "max_iter": 2, "tol": 0.5},
    "OneVsAll": {"estimator": PERCEPTRON, "normalize": False},
    "AllPairs": {"decision": "vote", "estimator": PERCEPTRON, "normalize": False},
    "OutputCodes": {
        "code": "all-pairs",
        "decoding": "hamming",
        "estimator": PERCEPTRON,
        "loss": "exp",
        "random_state": (1, {"code": "dense-random"}),
        "code_size": (3.0, {"code": "dense-random"}),
    },
    "MinimumDistanceClassifier": {
        "metric": "cityblock",
        "n_prototypes": 2,
        "metric_params": ({"VI": np.diag([1.0, 4.0, 1.0, 9.0])}, MAHALANOBIS),
        "p": (1, {"metric": "minkowski"}),
        "random_state": (1, {"n_prototypes": 3}),
    },
    "PiecewiseLinearClassifier": {
        "averaged": True,
        "init": "zeros",
        "learning_rate": 0.5,
        "margin": 1.0,
        "max_epochs": 1,
        "n_subclasses": 3,
        "random_state": 1,
        "shuffle": False,
    },
    "FisherLDA": {
        "n_components": 1,
        "priors": [0.5, 0.25, 0.25],
        "solver": "eigen",
        "shrinkage": (0.5, {"solver": "eigen"}),
        "store_covariance": True,
        "tol": 0.5,
    },
    "QDA": {"priors": [0.5, 0.25, 0.25], "reg_param": 0.5, "store_covariance": True},
    "KNeighborsClassifier": {
        "algorithm": "bnb",
        "metric": "cityblock",
        "n_neighbors": 1,
        "p": 1,
        "weights": "distance",
        "reject_threshold": 0.9,
        "reject_label": (99, {"reject_threshold": 0.9}),
        "leaf_size": (8, {"algorithm": "bnb"}),
        "metric_params": ({"VI": np.diag([1.0, 4.0, 1.0, 9.0])}, MAHALANOBIS),
    },
}
# parameters any estimator may have, with the value that must show an effect
GENERIC = {"verbose": 1, "random_state": 1, "record_history": True}
# parameters that change only the speed: their documentation says so (this phrase)
SPEED_ONLY = {"n_jobs": "Threads"}


@pytest.fixture(scope="module")
def data():
    """Three classes in four features, the last nearly a copy of the first (a small
    singular value of the within-class data, which FisherLDA's tol can drop)."""
    rng = np.random.default_rng(0)
    means = np.array([[0, 0, 0], [2, 1, 0], [0, 2, 1]], dtype=float)
    X = np.vstack([m + rng.normal(size=(60, 3)) for m in means])
    X = np.column_stack([X, X[:, 0] + 0.05 * rng.normal(size=len(X))])
    y = np.repeat([0, 1, 2], 60)
    probe = rng.normal(scale=2.0, size=(300, 4)) + [1, 1, 0.5, 1]
    return X, y, probe


def fingerprint(cls, params, X, y, probe):
    """Everything observable about a model fitted with ``params``."""
    model = cls(**params)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
        seen = {"stderr": err.getvalue()}
        for method in ("predict", "decision_function", "predict_proba", "transform"):
            if hasattr(model, method):
                seen[method] = np.asarray(getattr(model, method)(probe))
        seen["stderr"] = err.getvalue()
    for name, value in vars(model).items():
        if name.endswith("_") and not name.startswith("_"):
            if (
                isinstance(value, (list, tuple))
                and value
                and hasattr(value[0], "get_params")
            ):
                value = [vars(inner).get("coef_", repr(inner)) for inner in value]
            seen[name] = value
    index = getattr(model, "_index", None)
    if index is not None:
        seen["index"] = (type(index).__name__, getattr(index, "n_leaves", None))
    return seen


def same(a, b):
    if a.keys() != b.keys():
        return False
    for key in a:
        x, y = a[key], b[key]
        try:
            if np.asarray(x).shape != np.asarray(y).shape or not np.array_equal(
                np.asarray(x), np.asarray(y)
            ):
                return False
        except (TypeError, ValueError):
            if repr(x) != repr(y):
                return False
    return True


def cases():
    for name in classifier_names():
        cls = get_classifier(name)
        for param in sorted(cls().get_params(deep=False)):
            yield pytest.param(cls, param, id=f"{cls.__name__}-{param}")


@pytest.mark.parametrize("cls, param", list(cases()))
def test_every_parameter_changes_something(cls, param, data):
    X, y, probe = data
    base = {"random_state": 0} if "random_state" in cls().get_params() else {}
    if param in SPEED_ONLY:
        # cleandoc: Python 3.13 strips the docstring's indentation, older ones keep it
        doc = inspect.cleandoc(cls.__doc__).split(f"\n{param} :", 1)[1].split("\n", 2)
        assert SPEED_ONLY[param] in " ".join(doc[:2]), f"{param} must say what it does"
        assert same(
            fingerprint(cls, base, X, y, probe),
            fingerprint(cls, {**base, param: 2}, X, y, probe),
        )
        return
    table = VARIATIONS.get(cls.__name__, {})
    if param in table:
        variation = table[param]
    elif param in GENERIC:
        variation = GENERIC[param]
    else:
        pytest.fail(
            f"{cls.__name__}.{param}: no variation known; add one to VARIATIONS "
            "(a value and the setting in which the parameter acts)"
        )
    value, context = variation if isinstance(variation, tuple) else (variation, {})
    baseline = {**base, **context}
    varied = {**baseline, param: value}
    assert not same(
        fingerprint(cls, baseline, X, y, probe), fingerprint(cls, varied, X, y, probe)
    ), (
        f"{cls.__name__}({param}={value!r}) fitted the same model as the default "
        f"in the setting {context}: the parameter is ignored"
    )

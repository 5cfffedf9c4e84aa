"""scikit-learn's estimator checks, run over every classifier in the registry."""

import pickle

import numpy as np
import pytest
import sklearn
from packaging.version import Version
from sklearn.utils.estimator_checks import parametrize_with_checks

from patrec import NearestNeighbors
from patrec.base import clone
from patrec.registry import CLASSIFIERS, classifier_names, get_classifier

# every registered classifier, and the estimators that are no classifiers
ESTIMATORS = [get_classifier(name)() for name in classifier_names()]
ESTIMATORS.append(NearestNeighbors())

# Parameters that one check needs, as scikit-learn's own suite sets them: the array-API
# check and three sample-weight checks fit on data with collinear or constant features
# within a class (or 3 samples for 30 features), where QDA without regularisation must
# (and does) refuse the singular class covariances.
CHECK_PARAMS = {
    ("QDA", check): {"reg_param": 0.1}
    for check in (
        "check_array_api_input",
        "check_sample_weights_shape",
        "check_sample_weights_not_overwritten",
        "check_sample_weight_equivalence_on_dense_data",
    )
}
# Before scikit-learn 1.8 two more checks drew the classes at random, leaving a class
# fewer samples than features: QDA needs its regularisation there too.
if Version(sklearn.__version__) < Version("1.8"):
    for check in ("check_dtype_object", "check_n_features_in_after_fitting"):
        CHECK_PARAMS["QDA", check] = {"reg_param": 0.1}

# Checks that fail by design, with the reason (each class's Notes say the same).
_SCALED_STEPS = (
    "sample_weight scales the steps of the error-correcting rule; an "
    "integer weight is not the same as visiting repeated samples one by one"
)
EXPECTED_FAILURES = {
    name: {
        "check_sample_weight_equivalence_on_dense_data": _SCALED_STEPS,
        "check_sample_weight_equivalence_on_sparse_data": _SCALED_STEPS,
    }
    for name in ("Perceptron", "LinearMachine", "MulticlassSVM")
}


def expected_failed_checks(estimator):
    return EXPECTED_FAILURES.get(type(estimator).__name__, {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    name = getattr(check, "func", check).__name__
    params = CHECK_PARAMS.get((type(estimator).__name__, name))
    if params:
        estimator = clone(estimator).set_params(**params)
    check(estimator)


@pytest.mark.parametrize("name", classifier_names())
def test_registry_entries_are_public(name):
    import patrec

    cls = get_classifier(name)
    assert getattr(patrec, cls.__name__) is cls
    assert CLASSIFIERS[name].startswith("patrec.")


@pytest.mark.parametrize("name", classifier_names())
def test_any_hashable_labels_and_pickle(name):
    rng = np.random.default_rng(0)
    centers = np.array([[0, 0], [6, 0], [0, 6]], dtype=float)
    X = np.vstack([c + rng.normal(size=(30, 2)) for c in centers])
    for labels in (np.array([3, 7, 100]), np.array(["cat", "dog", "eel"])):
        y = np.repeat(labels, 30)
        clf = get_classifier(name)().fit(X, y)
        assert set(clf.classes_) == set(labels)
        assert np.mean(clf.predict(X) == y) > 0.9
        clone = pickle.loads(pickle.dumps(clf))
        np.testing.assert_array_equal(clone.predict(X), clf.predict(X))

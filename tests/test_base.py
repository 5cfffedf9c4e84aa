"""The estimator base: parameters, repr, fitted checks, feature names, sklearn bridge."""

import pickle
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from patrec import MinimumDistanceClassifier, NotFittedError
from patrec.base import clone


def test_params_roundtrip_and_repr():
    clf = MinimumDistanceClassifier(n_prototypes=3, metric="cityblock")
    assert clf.get_params()["n_prototypes"] == 3
    assert repr(clf) == "MinimumDistanceClassifier(metric='cityblock', n_prototypes=3)"
    assert repr(MinimumDistanceClassifier()) == "MinimumDistanceClassifier()"
    clf.set_params(metric="chebyshev")
    assert clf.metric == "chebyshev"
    with pytest.raises(ValueError, match="Invalid parameter 'bogus'"):
        clf.set_params(bogus=1)
    copy = clone(clf)
    assert copy is not clf and copy.get_params() == clf.get_params()


def test_not_fitted_error_is_value_and_attribute_error():
    clf = MinimumDistanceClassifier()
    with pytest.raises(NotFittedError, match="not fitted yet"):
        clf.predict([[0.0, 1.0]])
    assert issubclass(NotFittedError, ValueError)
    assert issubclass(NotFittedError, AttributeError)


def test_not_fitted_error_bridges_to_sklearn_when_loaded():
    from sklearn.exceptions import NotFittedError as SklearnNotFittedError

    with pytest.raises(SklearnNotFittedError):
        MinimumDistanceClassifier().decision_function([[0.0]])


def test_patrec_never_imports_sklearn():
    code = (
        "import sys, numpy as np, patrec, patrec.cli, patrec.plotting\n"
        "c = patrec.MinimumDistanceClassifier().fit([[0], [1]], [0, 1])\n"
        "c.predict([[2]])\n"
        "try:\n    patrec.MinimumDistanceClassifier().predict([[0]])\n"
        "except patrec.NotFittedError: pass\n"
        "assert not any(m.startswith('sklearn') for m in sys.modules), 'sklearn'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_n_features_checked_at_predict():
    clf = MinimumDistanceClassifier().fit([[0, 0], [1, 1]], [0, 1])
    with pytest.raises(
        ValueError,
        match="X has 3 features, but MinimumDistanceClassifier is expecting 2 features",
    ):
        clf.predict([[0, 0, 0]])


def test_feature_names():
    X = pd.DataFrame({"a": [0.0, 1.0, 5.0, 6.0], "b": [0.0, 1.0, 5.0, 6.0]})
    clf = MinimumDistanceClassifier().fit(X, [0, 0, 1, 1])
    assert clf.feature_names_in_.tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="same order"):
        clf.predict(X[["b", "a"]])
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        clf.predict(X.to_numpy())
    refit = clf.fit(X.to_numpy(), [0, 0, 1, 1])
    assert not hasattr(refit, "feature_names_in_")


def test_refit_forgets_old_state_and_pickles():
    clf = MinimumDistanceClassifier().fit([[0, 0], [1, 1], [2, 2]], ["a", "b", "c"])
    clf.fit([[0, 0], [1, 1]], [0, 1])
    assert clf.classes_.tolist() == [0, 1]
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.prototypes_, clf.prototypes_)


def test_sklearn_tools_accept_patrec_estimators():
    from sklearn.base import is_classifier
    from sklearn.model_selection import GridSearchCV, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from patrec.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    assert is_classifier(MinimumDistanceClassifier())
    scores = cross_val_score(
        make_pipeline(StandardScaler(), MinimumDistanceClassifier()), X, y, cv=5
    )
    assert scores.mean() > 0.8
    search = GridSearchCV(
        MinimumDistanceClassifier(random_state=0),
        {"n_prototypes": [1, 2], "metric": ["euclidean", "cityblock"]},
        cv=3,
    ).fit(X, y)
    assert search.best_score_ > 0.8


def test_failed_fit_leaves_no_half_fitted_model():
    X, y = [[0, 0], [1, 1], [5, 5], [6, 6]], [0, 0, 1, 1]
    clf = MinimumDistanceClassifier(metric="bogus")
    with pytest.raises(ValueError, match="is not one of patrec.s metrics"):
        clf.fit(X, y)
    assert not hasattr(clf, "classes_") and not hasattr(clf, "n_features_in_")
    with pytest.raises(NotFittedError):
        clf.predict(X)


def test_failed_refit_restores_the_previous_model():
    """A refit that fails (bad data, bad parameter, Ctrl-C) leaves the estimator as it
    was before the call: the earlier model, attribute for attribute."""
    X, y = [[0, 0], [1, 1], [5, 5], [6, 6]], [0, 0, 1, 1]
    clf = MinimumDistanceClassifier().fit(X, y)
    before = {name: value for name, value in vars(clf).items() if name.endswith("_")}
    with pytest.raises(ValueError, match="is not one of patrec.s metrics"):
        clf.set_params(metric="bogus").fit([[0, 0, 0], [9, 9, 9]], ["a", "b"])
    clf.set_params(metric="euclidean")
    after = {name: value for name, value in vars(clf).items() if name.endswith("_")}
    assert after.keys() == before.keys()
    assert all(after[name] is before[name] for name in before)
    np.testing.assert_array_equal(clf.predict(X), y)


def test_bridged_not_fitted_error_pickles():
    import sklearn.exceptions  # noqa: F401  (loaded, so the error is bridged)

    try:
        MinimumDistanceClassifier().predict([[0.0]])
    except NotFittedError as error:
        again = pickle.loads(pickle.dumps(error))
    assert isinstance(again, NotFittedError)
    assert isinstance(again, sklearn.exceptions.NotFittedError)
    assert "not fitted yet" in str(again)


def test_nested_parameters_and_deep_clone():
    from patrec import OneVsAll, Perceptron

    model = OneVsAll(Perceptron(max_epochs=7))
    params = model.get_params(deep=True)
    assert params["estimator__max_epochs"] == 7
    assert isinstance(params["estimator"], Perceptron)
    model.set_params(estimator__max_epochs=3, normalize=False)
    assert model.estimator.max_epochs == 3 and model.normalize is False
    copy = clone(model)
    assert copy.estimator is not model.estimator
    assert copy.get_params(deep=True)["estimator__max_epochs"] == 3
    with pytest.raises(ValueError, match="is not an estimator"):
        MinimumDistanceClassifier().set_params(metric_params__VI=1)
    shared = {"VI": np.eye(2)}
    original = MinimumDistanceClassifier(metric="mahalanobis", metric_params=shared)
    assert clone(original).metric_params is not shared


def test_score_checks_y_and_weights():
    clf = MinimumDistanceClassifier().fit([[0], [1], [5], [6]], [0, 0, 1, 1])
    X, y = [[0], [6], [5.9]], [0, 1, 0]
    assert clf.score(X, y) == pytest.approx(2 / 3)
    assert clf.score(X, y, sample_weight=[1, 1, 2]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        clf.score(X, y[:1])
    with pytest.raises(ValueError, match="sample_weight"):
        clf.score(X, y, sample_weight=[1, -1, 1])


@pytest.mark.parametrize("thing", [None, 3, "knn", MinimumDistanceClassifier])
def test_clone_refuses_what_is_not_an_estimator(thing):
    # found by tests/test_hypothesis_functions.py: clone(None) raised AttributeError
    with pytest.raises(TypeError, match="estimator instance"):
        clone(thing)


def test_two_class_scores_whose_difference_overflows_are_refused():
    import numpy as np

    from patrec.base import decision_from_scores

    scores = np.array([[-3e38, 3e38], [1.0, 2.0]], dtype=np.float32)
    with pytest.raises(ValueError, match="overflows float32"):
        decision_from_scores(scores)
    wide = scores.astype(np.float64)  # the same scores in float64: no overflow
    np.testing.assert_array_equal(decision_from_scores(wide), wide[:, 1] - wide[:, 0])

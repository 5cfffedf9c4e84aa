"""Evaluating predictions: the confusion matrix, error rates per class, sensitivity
and specificity, and Chow's error-reject curve, against scikit-learn and brute
force."""

import numpy as np
import pytest
from sklearn import metrics

from patrec import KNeighborsClassifier, SoftmaxRegression
from patrec.datasets import load_breast_cancer, make_gaussian_classes
from patrec.model_selection import (
    confusion_matrix,
    error_rates,
    error_reject_curve,
    sensitivity_specificity,
)


@pytest.fixture
def predictions():
    rng = np.random.default_rng(0)
    y_true = rng.choice(np.array(["cat", "dog", "eel"]), size=200)
    y_pred = np.where(rng.random(200) < 0.7, y_true, rng.choice(["cat", "dog"], 200))
    return y_true, y_pred


def test_confusion_matrix_equals_scikit_learn(predictions):
    y_true, y_pred = predictions
    np.testing.assert_array_equal(
        confusion_matrix(y_true, y_pred), metrics.confusion_matrix(y_true, y_pred)
    )
    order = ["eel", "cat", "dog"]
    np.testing.assert_array_equal(
        confusion_matrix(y_true, y_pred, labels=order),
        metrics.confusion_matrix(y_true, y_pred, labels=order),
    )
    # a predicted class that never occurs in y_true gets its row and column
    C = confusion_matrix([0, 0, 1], [0, 2, 1])
    np.testing.assert_array_equal(C, metrics.confusion_matrix([0, 0, 1], [0, 2, 1]))


def test_error_rates_equal_their_definitions(predictions):
    y_true, y_pred = predictions
    rates = error_rates(y_true, y_pred)
    assert rates["labels"].tolist() == ["cat", "dog", "eel"]
    assert rates["error"] == pytest.approx(1 - metrics.accuracy_score(y_true, y_pred))
    recall = metrics.recall_score(y_true, y_pred, average=None)
    np.testing.assert_allclose(rates["class_error"], 1 - recall)
    assert rates["reject_rate"] == 0 and rates["accepted_error"] == rates["error"]
    assert (rates["class_reject_rate"] == 0).all()


def test_a_reject_option_counts_apart():
    y_true = [0, 0, 0, 1, 1, 1, 1]
    y_pred = [0, -1, 1, 1, -1, -1, 0]
    C = confusion_matrix(y_true, y_pred, reject_label=-1)
    np.testing.assert_array_equal(C, [[1, 1, 1], [1, 1, 2]])
    rates = error_rates(y_true, y_pred, reject_label=-1)
    assert rates["error"] == pytest.approx(2 / 7)  # wrong and accepted, of all
    assert rates["reject_rate"] == pytest.approx(3 / 7)
    assert rates["accepted_error"] == pytest.approx(2 / 4)
    np.testing.assert_allclose(rates["class_error"], [1 / 3, 1 / 4])
    np.testing.assert_allclose(rates["class_reject_rate"], [1 / 3, 2 / 4])
    np.testing.assert_allclose(rates["class_accepted_error"], [1 / 2, 1 / 2])
    # without reject_label it is one more label (as in scikit-learn), unless the
    # labels are given: then the message says what to set
    assert confusion_matrix(y_true, y_pred).shape == (3, 3)
    with pytest.raises(ValueError, match="set reject_label"):
        confusion_matrix(y_true, y_pred, labels=[0, 1])
    with pytest.raises(ValueError, match="among the true labels"):
        confusion_matrix([0, -1], [0, 0], reject_label=-1)


def test_sensitivity_and_specificity_on_the_medical_data():
    X, y = load_breast_cancer(return_X_y=True)
    names = np.array(["malignant", "benign"])[y]
    predicted = KNeighborsClassifier().fit(X[::2], names[::2]).predict(X[1::2])
    truth = names[1::2]
    sensitivity, specificity = sensitivity_specificity(
        truth, predicted, positive="malignant"
    )
    assert sensitivity == pytest.approx(
        metrics.recall_score(truth, predicted, pos_label="malignant")
    )
    assert specificity == pytest.approx(
        metrics.recall_score(truth, predicted, pos_label="benign")
    )
    with pytest.raises(ValueError, match="not one of the classes"):
        sensitivity_specificity(truth, predicted, positive="ill")
    with pytest.raises(ValueError, match="two classes"):
        sensitivity_specificity([0, 1, 2], [0, 1, 2], positive=0)


def test_sensitivity_among_accepted_samples():
    y_true = ["ill", "ill", "ill", "well", "well"]
    y_pred = ["ill", "?", "well", "?", "?"]
    sensitivity, specificity = sensitivity_specificity(
        y_true, y_pred, positive="ill", reject_label="?"
    )
    assert sensitivity == 0.5 and np.isnan(specificity)


@pytest.mark.parametrize("make", [KNeighborsClassifier, SoftmaxRegression])
def test_error_reject_curve_by_brute_force(make):
    X, y = make_gaussian_classes([[0, 0], [1.5, 0], [0, 1.5]], 1.0, 60, random_state=1)
    clf = make().fit(X[::2], y[::2])
    X_test, y_test = X[1::2], y[1::2]
    curve = error_reject_curve(clf, X_test, y_test)
    proba = clf.predict_proba(X_test)
    confidence = proba.max(axis=1)
    wrong = clf.classes_[proba.argmax(axis=1)] != y_test
    assert curve["threshold"][0] == 0 and curve["reject_rate"][-1] == 1
    assert (np.diff(curve["threshold"]) > 0).all()
    assert (np.diff(curve["reject_rate"]) >= 0).all()
    assert (np.diff(curve["error"]) <= 0).all()
    for t, r, e in zip(curve["threshold"], curve["reject_rate"], curve["error"]):
        rejected = confidence < t
        assert r == rejected.mean()
        assert e == (wrong & ~rejected).mean()


def test_the_curve_matches_knn_reject_threshold():
    X, y = make_gaussian_classes([[0, 0], [1, 1]], 1.0, 100, random_state=2)
    clf = KNeighborsClassifier(n_neighbors=7).fit(X[::2], y[::2])
    curve = error_reject_curve(clf, X[1::2], y[1::2])
    for t, r, e in zip(curve["threshold"], curve["reject_rate"], curve["error"]):
        if t > 1:
            continue
        clf.set_params(reject_threshold=t)
        rates = error_rates(y[1::2], clf.predict(X[1::2]), reject_label=-1)
        assert rates["reject_rate"] == pytest.approx(r)
        assert rates["error"] == pytest.approx(e)


def test_error_reject_curve_needs_probabilities():
    with pytest.raises(TypeError, match="predict_proba"):
        error_reject_curve(object(), [[0.0]], [0])

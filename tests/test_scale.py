"""Every registered classifier at any scale: data multiplied by 1e-150 or 1e150.

Squares of features near 1e155 overflow float64 and those near 1e-155 underflow, so a
method that takes covariances or sums of squares must rescale internally.  Where the
method is scale-invariant the predictions must be exactly those on the unscaled data.
"""

import warnings

import numpy as np
import pytest

from patrec.exceptions import ConvergenceWarning
from patrec.registry import classifier_names, get_classifier

# the learners' own convergence notes are not what these tests look at
pytestmark = pytest.mark.filterwarnings("ignore::patrec.exceptions.ConvergenceWarning")

# Methods whose decision does not change when every feature is multiplied by the same
# positive number.  The linear learners are not: their bias moves in steps of 1
# (perceptron rules) or is weighed against a penalty (SVM, softmax) whatever the scale
# of the features.
SCALE_INVARIANT = {"minimum-distance", "piecewise-linear", "fisher-lda", "qda", "knn"}


def _data():
    rng = np.random.default_rng(0)
    centers = np.array([[0, 0, 0], [6, 0, 1], [0, 6, 2]], dtype=float)
    X = np.vstack([c + rng.normal(size=(30, 3)) for c in centers])
    return X, np.repeat(["a", "b", "c"], 30)


def _make(name):
    """The registered classifier with its defaults, made deterministic."""
    clf = get_classifier(name)()
    if "random_state" in clf.get_params():
        clf.set_params(random_state=0)
    return clf


@pytest.mark.parametrize("scale", [1e-150, 1e150])
@pytest.mark.parametrize("name", classifier_names())
def test_every_estimator_fits_and_predicts_at_any_scale(name, scale):
    X, y = _data()
    expected = _make(name).fit(X, y).predict(X)
    with warnings.catch_warnings():
        # softmax regression at 1e150: L-BFGS may stop and say so, loudly
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = _make(name).fit(X * scale, y)
    predicted = clf.predict(X * scale)
    assert set(predicted) <= set(clf.classes_)
    for method in ("decision_function", "predict_proba"):
        if hasattr(clf, method):
            assert np.all(np.isfinite(getattr(clf, method)(X * scale)))
    if name in SCALE_INVARIANT:
        np.testing.assert_array_equal(predicted, expected)

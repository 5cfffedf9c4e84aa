import numpy as np
import pytest

from patrec import MinimumDistanceClassifier
from patrec.datasets import load_iris
from patrec.model_selection import cross_validate, standardize, stratified_kfold


def test_folds_partition_and_stratify():
    y = np.repeat([0, 1, 2], [30, 20, 10])
    seen = []
    for train, test in stratified_kfold(y, 5, random_state=0):
        assert np.intersect1d(train, test).size == 0
        assert len(train) + len(test) == len(y)
        np.testing.assert_array_equal(np.bincount(y[test]), [6, 4, 2])
        seen.extend(test)
    assert sorted(seen) == list(range(len(y)))


def test_folds_deterministic_and_checked():
    y = np.repeat(["a", "b"], 6)
    a = [t.tolist() for _, t in stratified_kfold(y, 3, random_state=1)]
    b = [t.tolist() for _, t in stratified_kfold(y, 3, random_state=1)]
    assert a == b
    with pytest.raises(ValueError, match="class 'b' has 2"):
        list(stratified_kfold(np.array(["a"] * 5 + ["b"] * 2), 3))


def test_cross_validate_matches_manual_loop():
    X, y = load_iris(return_X_y=True)
    result = cross_validate(
        MinimumDistanceClassifier(), X, y, cv=5, random_state=0, scale=False
    )
    errors = []
    for train, test in stratified_kfold(y, 5, random_state=0):
        clf = MinimumDistanceClassifier().fit(X[train], y[train])
        errors.append(np.mean(clf.predict(X[test]) != y[test]))
    np.testing.assert_allclose(result["error"], errors)
    assert result["fit_time"].shape == (5,) and np.all(result["predict_time"] >= 0)


def test_standardize_centres_a_constant_feature_to_exactly_zero():
    # found by tests/test_hypothesis_functions.py: the mean of six equal values was
    # one unit in the last place off, and the feature came out as +-1 instead of 0
    X = np.full((6, 2), 1.5e32)
    X[:, 1] = np.arange(6.0)
    train, test = standardize(X, X[:2] * 2.0)
    assert (train[:, 0] == 0).all()
    np.testing.assert_array_equal(test[:, 0], 1.5e32)  # only centred
    np.testing.assert_allclose(train[:, 1], (X[:, 1] - 2.5) / np.std(X[:, 1]))


@pytest.mark.parametrize("scale", [1e-300, 1e154, 1e300])
def test_standardize_works_at_any_scale(scale):
    # found by tests/test_hypothesis_functions.py: the variance of features near
    # 1e154 overflowed and every value came out as 0
    X = np.array([[1.0, -2.0], [3.0, 5.0], [4.0, 1.0]])
    train, test = standardize(X * scale, X[:1] * scale)
    expected_train, expected_test = standardize(X, X[:1])
    np.testing.assert_allclose(train, expected_train, rtol=1e-12)
    np.testing.assert_allclose(test, expected_test, rtol=1e-12)


def test_standardize_validates_its_input():
    train, test = standardize([[1.0], [3.0]], [[2.0]])  # lists (an AttributeError)
    assert train.tolist() == [[-1.0], [1.0]] and test.tolist() == [[0.0]]
    with pytest.raises(ValueError, match="features"):
        standardize(np.ones((3, 2)), np.ones((1, 3)))
    with pytest.raises(ValueError):
        standardize(np.array([[np.nan], [1.0]]), np.ones((1, 1)))

import numpy as np
import pytest

from patrec import MinimumDistanceClassifier
from patrec.datasets import load_iris
from patrec.model_selection import cross_validate, stratified_kfold


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
    result = cross_validate(MinimumDistanceClassifier(), X, y, cv=5, random_state=0,
                            scale=False)
    errors = []
    for train, test in stratified_kfold(y, 5, random_state=0):
        clf = MinimumDistanceClassifier().fit(X[train], y[train])
        errors.append(np.mean(clf.predict(X[test]) != y[test]))
    np.testing.assert_allclose(result["error"], errors)
    assert result["fit_time"].shape == (5,) and np.all(result["predict_time"] >= 0)

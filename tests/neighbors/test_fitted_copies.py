"""A fitted index keeps no reference the caller can change: changing X (or y) after
fit leaves every answer as it was."""

import numpy as np
import pytest

from patrec.neighbors import BranchBoundTree, BruteForce, KNeighborsClassifier


def _data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(3000, 3)), rng.normal(size=(40, 3))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "build",
    [
        lambda X: BranchBoundTree(X),
        lambda X: BranchBoundTree(X, partition="kmeans", random_state=0),
        lambda X: BranchBoundTree(X, metric="cityblock"),
        lambda X: BruteForce(X),
    ],
    ids=["kd", "kmeans", "kd-cityblock", "brute"],
)
def test_an_index_ignores_later_changes_to_its_training_data(build, dtype):
    X, Q = (a.astype(dtype) for a in _data())
    index = build(X)
    before = index.query(Q, k=7)
    radius_before = index.query_radius(Q, 0.4)
    X[:] = 0.0  # the caller reuses its array
    after = index.query(Q, k=7)
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(radius_before, index.query_radius(Q, 0.4)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("algorithm", ["auto", "brute", "bnb"])
def test_a_classifier_ignores_later_changes_to_X_and_y(algorithm):
    X, Q = _data()
    y = (X[:, 0] > 0).astype(int)
    model = KNeighborsClassifier(5, algorithm=algorithm).fit(X, y)
    labels, neighbours = model.predict(Q), model.kneighbors(Q)
    X[:] = 0.0
    y[:] = 1 - y
    np.testing.assert_array_equal(model.predict(Q), labels)
    for a, b in zip(model.kneighbors(Q), neighbours):
        np.testing.assert_array_equal(a, b)

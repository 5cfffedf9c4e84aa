"""Editing (Wilson, multi-edit) and condensing (Hart) of a training set."""

import numpy as np
import pytest

from patrec.neighbors import KNeighborsClassifier, condense, edit, multiedit


def _blobs(n_per_class, centres, scale, seed):
    rng = np.random.default_rng(seed)
    centres = np.asarray(centres, dtype=float)
    X = np.concatenate([c + scale * rng.standard_normal((n_per_class, centres.shape[1]))
                        for c in centres])
    y = np.repeat(np.arange(len(centres)), n_per_class)
    return X, y


def _edit_reference(X, y, k):
    """Leave-one-out k-NN by plain numpy: stable sort, first maximal vote wins."""
    distances = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(distances, np.inf)
    n_classes = y.max() + 1
    kept = []
    for i in range(len(X)):
        neighbours = np.argsort(distances[i], kind="stable")[:k]
        votes = np.bincount(y[neighbours], minlength=n_classes)
        if np.argmax(votes) == y[i]:
            kept.append(i)
    return np.array(kept)


def _condense_reference(X, y, order):
    """Hart's rule, one sample at a time, refitting nothing but a plain argmin."""
    store = [order[0]]
    added = True
    while added:
        added = False
        for i in order:
            if i in store:
                continue
            distances = np.sqrt(((X[store] - X[i]) ** 2).sum(axis=1))
            if y[store[int(np.argmin(distances))]] != y[i]:
                store.append(i)
                added = True
    return np.sort(store)


def _one_nn_predict(X_train, y_train, X):
    return KNeighborsClassifier(n_neighbors=1).fit(X_train, y_train).predict(X)


@pytest.mark.parametrize("k", [1, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_edit_matches_leave_one_out_reference(k, seed):
    X, y = _blobs(25, [[0, 0], [1.5, 0], [0.5, 1.5]], 1.0, seed)
    kept = edit(X, y, n_neighbors=k)
    np.testing.assert_array_equal(kept, _edit_reference(X, y, k))
    assert 0 < len(kept) < len(X)


def test_edit_ties_follow_the_classifier():
    # small integer grid: duplicates, equal distances and tied votes (k even)
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(40, 2)).astype(float)
    y = rng.integers(0, 3, size=40)
    for k in (1, 2, 4, 6):
        np.testing.assert_array_equal(edit(X, y, n_neighbors=k),
                                      _edit_reference(X, y, k))


def test_edit_keeps_labels_of_any_type_and_leaves_input_alone():
    X, y = _blobs(15, [[0, 0], [2, 0]], 1.0, 4)
    labels = np.array(["left", "right"])[y]
    X_before, labels_before = X.copy(), labels.copy()
    np.testing.assert_array_equal(edit(X, labels), edit(X, y))
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(labels, labels_before)


def test_multiedit_is_deterministic_with_random_state():
    X, y = _blobs(60, [[0, 0], [1.5, 0]], 1.0, 5)
    first = multiedit(X, y, random_state=7)
    np.testing.assert_array_equal(first, multiedit(X, y, random_state=7))
    np.testing.assert_array_equal(
        first, multiedit(X, y, random_state=np.random.default_rng(7)))
    assert np.all(np.diff(first) > 0)


def test_multiedit_clears_the_overlap_region():
    # two overlapping Gaussians on the first axis; boundary at x = 1
    X, y = _blobs(200, [[0, 0], [2, 0]], 1.0, 6)
    kept = multiedit(X, y, n_splits=3, random_state=0)
    assert 0.3 * len(X) < len(kept) < len(X)
    near = np.abs(X[:, 0] - 1.0) < 0.5
    assert near[kept].mean() < 0.7 * near.mean()
    # on the edited set each class stays on its own side
    wrong_side = (X[kept, 0] > 1.0) != (y[kept] == 1)
    assert wrong_side.mean() < 0.05
    X_test, y_test = _blobs(2000, [[0, 0], [2, 0]], 1.0, 60)
    error_full = np.mean(_one_nn_predict(X, y, X_test) != y_test)
    error_edited = np.mean(_one_nn_predict(X[kept], y[kept], X_test) != y_test)
    assert error_edited <= error_full + 0.02


def test_multiedit_stops_when_nothing_is_discarded():
    X, y = _blobs(30, [[0, 0], [10, 0]], 0.5, 8)
    np.testing.assert_array_equal(multiedit(X, y, random_state=0), np.arange(60))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_condense_is_consistent(seed):
    X, y = _blobs(80, [[0, 0], [1.5, 0], [0.5, 1.5]], 0.8, seed)
    kept = condense(X, y, random_state=seed)
    np.testing.assert_array_equal(_one_nn_predict(X[kept], y[kept], X), y)


@pytest.mark.parametrize("seed", [0, 1])
def test_condense_matches_plain_reimplementation(seed):
    X, y = _blobs(30, [[0, 0], [1.5, 0]], 1.0, seed)
    np.testing.assert_array_equal(condense(X, y), _condense_reference(X, y, np.arange(60)))
    order = np.random.default_rng(seed).permutation(60)
    np.testing.assert_array_equal(condense(X, y, random_state=seed),
                                  _condense_reference(X, y, order))


def test_condense_ties_match_reimplementation():
    # integer grid: equal distances (first stored sample wins) and duplicates
    rng = np.random.default_rng(13)
    X = rng.integers(0, 5, size=(50, 2)).astype(float)
    y = rng.integers(0, 2, size=50)
    np.testing.assert_array_equal(condense(X, y), _condense_reference(X, y, np.arange(50)))


def test_condense_keeps_few_points_of_separated_blobs():
    X, y = _blobs(300, [[0, 0], [8, 0], [0, 8]], 1.0, 9)
    kept = condense(X, y)
    assert len(kept) < 0.05 * len(X)
    np.testing.assert_array_equal(_one_nn_predict(X[kept], y[kept], X), y)


def test_condense_other_metric_is_consistent():
    X, y = _blobs(50, [[0, 0], [1.5, 0]], 1.0, 10)
    kept = condense(X, y, metric="cityblock")
    predicted = KNeighborsClassifier(n_neighbors=1, metric="cityblock").fit(
        X[kept], y[kept]).predict(X)
    np.testing.assert_array_equal(predicted, y)


@pytest.mark.parametrize("reduce", [edit, multiedit, condense])
def test_bad_inputs(reduce):
    X, y = _blobs(10, [[0, 0], [3, 0]], 1.0, 11)
    with pytest.raises(ValueError, match="one class"):
        reduce(X, np.zeros(20, dtype=int))
    X_nan = X.copy()
    X_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        reduce(X_nan, y)
    with pytest.raises(ValueError, match="inconsistent"):
        reduce(X, y[:-1])
    with pytest.raises(ValueError):
        reduce(X, y, metric="no-such-metric")


def test_bad_parameters():
    X, y = _blobs(10, [[0, 0], [3, 0]], 1.0, 12)
    with pytest.raises(ValueError, match="n_neighbors"):
        edit(X, y, n_neighbors=0)
    with pytest.raises(ValueError, match="n_neighbors"):
        edit(X, y, n_neighbors=20)
    with pytest.raises(TypeError, match="n_neighbors"):
        edit(X, y, n_neighbors=2.5)
    with pytest.raises(ValueError, match="n_splits"):
        multiedit(X, y, n_splits=1)
    with pytest.raises(ValueError, match="n_splits"):
        multiedit(X, y, n_splits=11)  # more subsets than samples of a class
    with pytest.raises(ValueError, match="max_iter"):
        multiedit(X, y, max_iter=0)
    with pytest.raises(ValueError, match="random_state"):
        condense(X, y, random_state=-1)


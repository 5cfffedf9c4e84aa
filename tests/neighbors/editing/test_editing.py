"""Editing (Wilson, multi-edit) and condensing (Hart) of a training set."""

import numpy as np
import pytest

from patrec.neighbors import (
    KNeighborsClassifier,
    Metric,
    condense,
    edit,
    edit_condense,
    multiedit,
    pairwise_distances,
)
from patrec.neighbors.editing import condensing, editing


@pytest.fixture(params=["tree", "rows"])
def store_kind(request, monkeypatch):
    """The k-d tree of the growing store, or brute force / direct rows."""
    costs = (1.0, 0.0) if request.param == "tree" else (0.0, 1.0)
    for module in (editing, condensing):
        monkeypatch.setattr(module, "search_costs", lambda *args, **kwargs: costs)
    return request.param


def _blobs(n_per_class, centres, scale, seed):
    rng = np.random.default_rng(seed)
    centres = np.asarray(centres, dtype=float)
    X = np.concatenate(
        [
            c + scale * rng.standard_normal((n_per_class, centres.shape[1]))
            for c in centres
        ]
    )
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
def test_edit_matches_leave_one_out_reference(k, seed, store_kind):
    X, y = _blobs(25, [[0, 0], [1.5, 0], [0.5, 1.5]], 1.0, seed)
    kept = edit(X, y, n_neighbors=k)
    np.testing.assert_array_equal(kept, _edit_reference(X, y, k))
    assert 0 < len(kept) < len(X)


def test_edit_ties_follow_the_classifier(store_kind):
    # small integer grid: duplicates, equal distances and tied votes (k even)
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(40, 2)).astype(float)
    y = rng.integers(0, 3, size=40)
    for k in (1, 2, 4, 6):
        np.testing.assert_array_equal(
            edit(X, y, n_neighbors=k), _edit_reference(X, y, k)
        )


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
        first, multiedit(X, y, random_state=np.random.default_rng(7))
    )
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
    np.testing.assert_array_equal(
        condense(X, y), _condense_reference(X, y, np.arange(60))
    )
    order = np.random.default_rng(seed).permutation(60)
    np.testing.assert_array_equal(
        condense(X, y, random_state=seed), _condense_reference(X, y, order)
    )


def test_condense_ties_match_reimplementation():
    # integer grid: equal distances (first stored sample wins) and duplicates
    rng = np.random.default_rng(13)
    X = rng.integers(0, 5, size=(50, 2)).astype(float)
    y = rng.integers(0, 2, size=50)
    np.testing.assert_array_equal(
        condense(X, y), _condense_reference(X, y, np.arange(50))
    )


def test_condense_keeps_few_points_of_separated_blobs():
    X, y = _blobs(300, [[0, 0], [8, 0], [0, 8]], 1.0, 9)
    kept = condense(X, y)
    assert len(kept) < 0.05 * len(X)
    np.testing.assert_array_equal(_one_nn_predict(X[kept], y[kept], X), y)


def test_condense_other_metric_is_consistent():
    X, y = _blobs(50, [[0, 0], [1.5, 0]], 1.0, 10)
    kept = condense(X, y, metric="cityblock")
    predicted = (
        KNeighborsClassifier(n_neighbors=1, metric="cityblock")
        .fit(X[kept], y[kept])
        .predict(X)
    )
    np.testing.assert_array_equal(predicted, y)


@pytest.mark.parametrize("reduce", [edit, multiedit, condense, edit_condense])
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
        multiedit(X, y, n_splits=21)  # more subsets than samples
    with pytest.raises(ValueError, match="n_splits"):
        edit_condense(X, y, n_splits=21)
    with pytest.raises(ValueError, match="max_iter"):
        multiedit(X, y, max_iter=0)
    with pytest.raises(ValueError, match="random_state"):
        condense(X, y, random_state=-1)


# -- Hart's condensing at scale: the same kept set as a distance row per addition --


def _condense_rows(
    X, y, order, metric="euclidean", p=2, metric_params=None, seeds=None
):
    """The former implementation: one row of distances per stored sample, each
    sample keeping the label of its nearest stored sample (first stored on ties).
    Distances are compared reduced (squared for the euclidean family), on data
    mapped once for mahalanobis."""
    spec = Metric(metric, p, metric_params, n_features=X.shape[1])
    X = spec.prepare(X)
    reduced = {"euclidean": "sqeuclidean", "mahalanobis": "sqeuclidean"}.get(
        metric, metric
    )
    n = X.shape[0]
    stored = np.zeros(n, dtype=bool)
    nearest = np.full(n, np.inf)
    label = np.full(n, -1)

    def store(i):
        row = pairwise_distances(X[i : i + 1], X, reduced, p=p)[0]
        closer = row < nearest
        nearest[closer] = row[closer]
        label[closer] = y[i]
        nearest[i], label[i] = -1.0, y[i]
        stored[i] = True

    for i in order[:1] if seeds is None else seeds:
        store(i)
    added = True
    while added:
        added = False
        for i in order:
            if not stored[i] and label[i] != y[i]:
                store(i)
                added = True
    return np.flatnonzero(stored)


METRIC_CASES = [
    ("euclidean", {}),
    ("sqeuclidean", {}),
    ("cityblock", {}),
    ("chebyshev", {}),
    ("minkowski", {"p": 3}),
    ("minkowski", {"p": 1.5}),
    ("mahalanobis", "VI"),
]


@pytest.mark.parametrize("metric, params", METRIC_CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("seed", range(8))
def test_condense_equals_one_row_per_addition(metric, params, dtype, seed, store_kind):
    rng = np.random.default_rng(seed)
    n, d, n_classes = int(rng.integers(30, 400)), int(rng.integers(1, 6)), 2 + seed % 3
    y = rng.integers(0, n_classes, n)
    X = rng.standard_normal((n, d)) + 0.8 * y[:, None]
    if seed % 2:
        X = np.round(X * 2) / 2  # a grid: duplicates and equal distances
    X = X.astype(dtype)
    if params == "VI":
        params = {"metric_params": {"VI": np.eye(d) * 2 + 0.5}}
    random_state = None if seed % 4 < 2 else seed
    order = (
        np.arange(n)
        if random_state is None
        else np.random.default_rng(seed).permutation(n)
    )
    np.testing.assert_array_equal(
        condense(X, y, metric, random_state=random_state, **params),
        _condense_rows(X, y, order, metric, **params),
    )


def test_condense_large_equals_one_row_per_addition(store_kind):
    # many batches, several passes, the store growing in every part of the tree
    X, y = _blobs(1500, [[0, 0], [1.2, 0], [0.4, 1.0]], 1.0, 21)
    for random_state in (None, 3):
        order = (
            np.arange(len(X))
            if random_state is None
            else np.random.default_rng(3).permutation(len(X))
        )
        expected = _condense_rows(X, y, order)
        np.testing.assert_array_equal(
            condense(X, y, random_state=random_state), expected
        )
        np.testing.assert_array_equal(
            condense(X, y, random_state=random_state, n_jobs=2), expected
        )


def test_condense_is_consistent_with_duplicates_of_other_labels():
    X, y = _blobs(60, [[0, 0], [1, 0]], 1.0, 22)
    X = np.r_[X, X[:10]]  # ten duplicates carrying the other label
    y = np.r_[y, 1 - y[:10]]
    kept = condense(X, y)
    conflicting = np.zeros(len(X), dtype=bool)
    conflicting[:10] = conflicting[-10:] = True
    nearest = np.argmin(pairwise_distances(X, X[kept]), axis=1)
    np.testing.assert_array_equal(y[kept][nearest][~conflicting], y[~conflicting])
    # a conflicting sample is itself stored or has a stored twin with its label
    for i in np.flatnonzero(conflicting):
        twins = kept[(X[kept] == X[i]).all(axis=1)]
        assert y[i] in y[twins]


def test_condense_history_replays_hart():
    X, y = _blobs(120, [[0, 0], [1.2, 0]], 1.0, 23)
    kept, history = condense(X, y, random_state=4, return_history=True)
    np.testing.assert_array_equal(np.sort(history.stored), kept)
    np.testing.assert_array_equal(
        history.order, np.random.default_rng(4).permutation(len(X))
    )
    # replay: walk the order pass by pass; a sample enters the store exactly when
    # the stored sample nearest to it (first stored on ties) has another label
    store = list(history.seeds)
    for moved in history.passes:
        expected = []
        for i in history.order:
            if i in store:
                continue
            distances = ((X[store] - X[i]) ** 2).sum(axis=1)
            if y[store[int(np.argmin(distances))]] != y[i]:
                store.append(i)
                expected.append(i)
        np.testing.assert_array_equal(moved, expected)
    assert history.passes[-1].shape[0] == 0
    assert history.n_passes >= 2


def test_condense_target_classes_keeps_the_others():
    X, y = _blobs(80, [[0, 0], [1.5, 0], [0.5, 1.5]], 0.8, 24)
    labels = np.array(["a", "b", "c"])[y]
    kept = condense(X, labels, target_classes=["a"])
    assert set(np.flatnonzero(labels != "a")) <= set(kept)
    assert 0 < np.sum(labels[kept] == "a") < 80
    seeds = np.flatnonzero(labels != "a")
    np.testing.assert_array_equal(
        kept, _condense_rows(X, y, np.arange(len(X)), seeds=seeds)
    )
    nearest = np.argmin(pairwise_distances(X, X[kept]), axis=1)
    np.testing.assert_array_equal(labels[kept][nearest], labels)
    with pytest.raises(ValueError, match="not a class"):
        condense(X, labels, target_classes=["z"])
    with pytest.raises(TypeError, match="target_classes"):
        condense(X, labels, target_classes="a")


def test_condense_overflowing_distances_are_reported():
    X = np.array([[0.0], [1e300], [-1e300], [5.0]])
    with pytest.raises(ValueError, match="overflow"):
        condense(X, [0, 1, 0, 1])


@pytest.mark.parametrize("dtype, scale", [(np.float64, 1e-170), (np.float32, 1e-25)])
def test_distances_underflowing_to_zero_are_reported(dtype, scale):
    """Distinct samples at distance 0 would be ties broken by order."""
    rng = np.random.default_rng(0)
    X = (rng.normal(size=(60, 2)) * scale).astype(dtype)
    labels = np.arange(60) % 2
    for method in (edit, condense, multiedit):
        with pytest.raises(
            ValueError, match=f"underflow the range of {dtype.__name__}"
        ):
            method(X, labels)


# -- repeated editing, kind_sel, target classes, histories --


def test_repeated_edit_repeats_until_nothing_is_removed(store_kind):
    X, y = _blobs(60, [[0, 0], [1.2, 0], [0.5, 1.0]], 1.0, 25)
    kept, history = edit(X, y, n_neighbors=3, max_iter=50, return_history=True)
    alive = np.arange(len(X))
    for removed in history.removed:
        once = alive[_edit_reference(X[alive], y[alive], 3)]
        np.testing.assert_array_equal(removed, np.setdiff1d(alive, once))
        alive = once
    np.testing.assert_array_equal(kept, alive)
    assert history.removed[-1].shape[0] == 0 and history.n_rounds > 2
    np.testing.assert_array_equal(
        edit(X, y, max_iter=1), np.setdiff1d(np.arange(len(X)), history.removed[0])
    )
    two = edit(X, y, max_iter=2)
    np.testing.assert_array_equal(
        two,
        np.setdiff1d(np.arange(len(X)), np.r_[history.removed[0], history.removed[1]]),
    )


def test_edit_kind_sel_all_needs_every_neighbour_to_agree(store_kind):
    X, y = _blobs(40, [[0, 0], [1.5, 0]], 1.0, 26)
    distances = pairwise_distances(X)
    np.fill_diagonal(distances, np.inf)
    neighbours = np.argsort(distances, axis=1, kind="stable")[:, :3]
    expected = np.flatnonzero((y[neighbours] == y[:, None]).all(axis=1))
    np.testing.assert_array_equal(edit(X, y, kind_sel="all"), expected)
    with pytest.raises(ValueError, match="kind_sel"):
        edit(X, y, kind_sel="most")


def test_edit_target_classes_removes_only_from_them():
    X, y = _blobs(50, [[0, 0], [1.0, 0]], 1.0, 27)
    kept = edit(X, y, target_classes=[1])
    assert set(np.flatnonzero(y == 0)) <= set(kept)
    full = edit(X, y)
    np.testing.assert_array_equal(kept, np.union1d(np.flatnonzero(y == 0), full))


def test_multiedit_history_replays_the_rounds(store_kind):
    X, y = _blobs(90, [[0, 0], [1.2, 0]], 1.0, 28)
    kept, history = multiedit(X, y, n_splits=3, random_state=5, return_history=True)
    alive = np.arange(len(X))
    for step in history.rounds:
        np.testing.assert_array_equal(np.sort(np.concatenate(step.subsets)), alive)
        for i, judged in enumerate(step.subsets):
            judge = step.subsets[(i + 1) % len(step.subsets)]
            distances = pairwise_distances(X[judged], X[judge])
            nearest = judge[np.argmin(distances, axis=1)]
            np.testing.assert_array_equal(
                step.discarded[i], judged[y[nearest] != y[judged]]
            )
        alive = np.setdiff1d(alive, np.concatenate(step.discarded))
    np.testing.assert_array_equal(kept, alive)
    assert (
        history.rounds[-1].discarded
        and sum(map(len, history.rounds[-1].discarded)) == 0
    )
    np.testing.assert_array_equal(kept, multiedit(X, y, n_splits=3, random_state=5))


def test_edit_condense_is_multiedit_then_condense():
    X, y = _blobs(150, [[0, 0], [1.5, 0]], 1.0, 29)
    rng = np.random.default_rng(6)
    edited = multiedit(X, y, random_state=rng)
    order = rng.permutation(len(edited))
    kept, history = edit_condense(X, y, random_state=6, return_history=True)
    np.testing.assert_array_equal(
        kept, edited[_condense_rows(X[edited], y[edited], order)]
    )
    np.testing.assert_array_equal(
        np.sort(
            np.concatenate(
                [np.concatenate(r.discarded) for r in history.multiedit.rounds]
            )
        ),
        np.setdiff1d(np.arange(len(X)), edited),
    )
    np.testing.assert_array_equal(np.sort(history.condense.stored), kept)
    assert len(kept) < 0.2 * len(X)
    # the condensed set classifies every edited sample correctly
    np.testing.assert_array_equal(
        _one_nn_predict(X[kept], y[kept], X[edited]), y[edited]
    )
    # with a seed, the edited samples are visited in a random order
    np.testing.assert_array_equal(
        edit_condense(X, y, random_state=np.random.default_rng(6)), kept
    )


def test_a_class_edited_away_warns_and_is_gone():
    # one "b" sample deep inside the "a" class
    X = np.r_[np.linspace(0, 1, 30), [0.5]].reshape(-1, 1)
    y = np.r_[np.zeros(30, dtype=int), [1]]
    with pytest.warns(UserWarning, match=r"every sample of 1 class\(es\) \(1\)"):
        kept = edit(X, y)
    np.testing.assert_array_equal(kept, np.arange(30))
    with pytest.warns(UserWarning, match="every sample of 1 class"):
        kept = edit_condense(X, y, n_splits=2, random_state=0)
    np.testing.assert_array_equal(y[kept], [0])


def test_nothing_is_modified():
    X, y = _blobs(40, [[0, 0], [2.0, 0]], 1.0, 30)
    X = X.astype(np.float32)
    labels = np.array(["p", "q"])[y]
    X_before, labels_before = X.copy(), labels.copy()
    for reduce in (edit, multiedit, condense, edit_condense):
        reduce(X, labels)
        np.testing.assert_array_equal(X, X_before)
        np.testing.assert_array_equal(labels, labels_before)


@pytest.mark.parametrize(
    "reduce, name",
    [
        (edit, "edit"),
        (multiedit, "multiedit"),
        (condense, "condense"),
        (edit_condense, "edit_condense"),
    ],
)
def test_verbose_reports_to_stderr(reduce, name, capsys):
    X, y = _blobs(40, [[0, 0], [1.0, 0]], 1.0, 31)
    kept = reduce(X, y, verbose=2)
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines and all(line.startswith(f"[{name}] ") for line in lines)
    assert f"kept {len(kept)} of 80 samples" in lines[-1]
    step = "pass" if reduce is condense else "round"
    assert any(line.startswith(f"[{name}] {step} 1:") for line in lines)
    reduce(X, y, verbose=1)
    summary = capsys.readouterr().err.splitlines()
    assert len(summary) == (3 if reduce is edit_condense else 1)
    reduce(X, y)
    assert capsys.readouterr().err == ""
    with pytest.raises(ValueError, match="verbose"):
        reduce(X, y, verbose=-1)


def test_growing_store_nearest_equals_brute_force():
    from patrec.neighbors import BruteForce
    from patrec.neighbors.editing._store import GrowingStore

    rng = np.random.default_rng(40)
    X = np.round(rng.normal(size=(600, 3)), 1)  # ties between equal distances
    for metric in ("euclidean", "cityblock", "chebyshev"):
        store = GrowingStore(X, Metric(metric), n_jobs=2)
        for _ in range(2):  # the store is emptied and refilled
            judge, judged = np.split(rng.permutation(600), [250])
            store.clear()
            store.add(judge)
            expected = BruteForce(X[judge], metric).query(
                X[judged], 1, return_distance=False
            )[:, 0]
            np.testing.assert_array_equal(store.nearest(judged), judge[expected])


@pytest.mark.parametrize("d", [2, 12])
def test_threads_give_the_same_result(d):
    X, y = _blobs(700, [[0] * d, [1.0] + [0] * (d - 1)], 1.0, 41)
    for reduce, params in (
        (edit, {"max_iter": 3}),
        (multiedit, {"random_state": 1}),
        (condense, {"random_state": 1}),
        (edit_condense, {"random_state": 1}),
    ):
        np.testing.assert_array_equal(
            reduce(X, y, n_jobs=2, **params), reduce(X, y, **params)
        )
    with pytest.raises(ValueError, match="n_jobs"):
        condense(X, y, n_jobs=0)

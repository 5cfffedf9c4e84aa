"""Arrays in the other byte order (big-endian on a little-endian machine).

Issue 37: such arrays reached the compiled kernels, which refused them with Cython's
"Big-endian buffer not supported on little-endian compiler".  Validation now gives the
kernels the same numbers in the machine's byte order, of the same type, so every entry
point answers exactly what it answers for the native arrays, and leaves the caller's
arrays as they were.
"""

import inspect

import numpy as np
import pytest

from patrec.datasets import load_iris
from patrec.neighbors import (
    BranchBoundTree,
    BruteForce,
    Condensing,
    EditCondensing,
    Editing,
    KNeighborsClassifier,
    MultiEditing,
    condense,
    edit,
    edit_condense,
    multiedit,
    pairwise_distances,
)
from patrec.registry import classifier_names, get_classifier

pytestmark = pytest.mark.filterwarnings("ignore::patrec.exceptions.ConvergenceWarning")

DTYPES = [np.float64, np.float32]


def swapped(array):
    """The same numbers stored in the other byte order than the machine's."""
    array = np.asarray(array)
    return array.astype(array.dtype.newbyteorder("S"))


def _iris(dtype):
    X, y = load_iris(return_X_y=True)
    return X.astype(dtype), y


def _assert_same(got, expected):
    """Equal values, bit for bit, recursing into tuples and lists."""
    if isinstance(expected, (tuple, list)):
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            _assert_same(a, b)
    elif isinstance(expected, np.ndarray) and expected.dtype == object:
        assert got.shape == expected.shape
        for a, b in zip(got.ravel(), expected.ravel()):
            _assert_same(a, b)
    else:
        np.testing.assert_array_equal(got, expected, strict=True)


def _kept(*arrays):
    """Copies to compare with afterwards: the caller's arrays must not change."""
    return [array.copy() for array in arrays]


def _assert_kept(arrays, copies):
    for array, copy in zip(arrays, copies):
        assert array.dtype == copy.dtype
        assert array.tobytes() == copy.tobytes()


def _answers(clf, X):
    answers = [clf.predict(X), clf.score(X, clf.predict(X))]
    for method in ("decision_function", "predict_proba"):
        if hasattr(clf, method):
            answers.append(getattr(clf, method)(X))
    return answers


def _make(name):
    clf = get_classifier(name)()
    if "random_state" in clf.get_params():
        clf.set_params(random_state=0)
    return clf


def test_the_test_arrays_are_in_the_other_byte_order():
    assert not swapped(np.ones(2)).dtype.isnative
    assert swapped(np.ones(2, np.float32)).dtype.type is np.float32


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize("name", classifier_names())
def test_every_classifier_answers_as_for_native_arrays(name, dtype):
    X, y = _iris(dtype)
    expected = _answers(_make(name).fit(X, y), X)
    X_other, y_other = swapped(X), swapped(y)
    copies = _kept(X_other, y_other)
    clf = _make(name).fit(X_other, y_other)
    _assert_same(_answers(clf, X_other), expected)
    _assert_same(_answers(clf, X), expected)
    assert clf.classes_.dtype.isnative
    _assert_kept([X_other, y_other], copies)


@pytest.mark.parametrize(
    "name",
    [
        name
        for name in classifier_names()
        if "sample_weight" in inspect.signature(get_classifier(name).fit).parameters
    ],
)
def test_sample_weight_in_the_other_byte_order(name):
    X, y = _iris(np.float64)
    weights = np.random.default_rng(0).integers(1, 4, size=len(y)).astype(float)
    expected = _answers(_make(name).fit(X, y, sample_weight=weights), X)
    other = swapped(weights)
    copies = _kept(other)
    clf = _make(name).fit(X, y, sample_weight=other)
    _assert_same(_answers(clf, X), expected)
    _assert_kept([other], copies)


def test_string_labels_in_the_other_byte_order():
    X, y = _iris(np.float64)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    expected = _make("knn").fit(X, names).predict(X)
    clf = _make("knn").fit(X, swapped(names))
    assert clf.classes_.dtype.isnative
    _assert_same(clf.predict(X), expected)


def _mahalanobis_matrix():
    X, _ = _iris(np.float64)
    return np.linalg.inv(np.cov(X.T))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize("algorithm", ["auto", "brute", "bnb"])
@pytest.mark.parametrize("metric", ["minkowski", "mahalanobis"])
def test_knn_searches_and_metric_params(algorithm, metric, dtype):
    X, y = _iris(dtype)
    VI = _mahalanobis_matrix()

    def fitted(X, y, VI):
        params = {"VI": VI} if metric == "mahalanobis" else None
        return KNeighborsClassifier(
            algorithm=algorithm, metric=metric, metric_params=params
        ).fit(X, y)

    expected = fitted(X, y, VI)
    other = [swapped(X), swapped(y), swapped(VI)]
    copies = _kept(*other)
    clf = fitted(*other)
    _assert_same(_answers(clf, other[0]), _answers(expected, X))
    _assert_same(clf.kneighbors(other[0]), expected.kneighbors(X))
    _assert_kept(other, copies)


def _index_answers(index, X):
    return [
        index.query(X, k=3),
        index.query_radius(X, 0.5, return_distance=True),
        index.query_ball_point(X[0], 0.5),
        index.query_others(2),
    ]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize(
    "make",
    [
        BruteForce,
        BranchBoundTree,
        lambda X, **kw: BranchBoundTree(X, partition="kmeans", random_state=0, **kw),
    ],
    ids=["brute", "tree-kd", "tree-kmeans"],
)
@pytest.mark.parametrize("metric", ["euclidean", "cityblock", "mahalanobis"])
def test_indexes_answer_as_for_native_arrays(make, metric, dtype):
    X, _ = _iris(dtype)
    VI = _mahalanobis_matrix()
    params = (lambda VI: {"VI": VI}) if metric == "mahalanobis" else (lambda VI: None)
    expected = _index_answers(make(X, metric=metric, metric_params=params(VI)), X)
    X_other, VI_other = swapped(X), swapped(VI)
    copies = _kept(X_other, VI_other)
    index = make(X_other, metric=metric, metric_params=params(VI_other))
    assert index.dtype == dtype
    _assert_same(_index_answers(index, X_other), expected)
    _assert_same(_index_answers(index, X), expected)
    _assert_kept([X_other, VI_other], copies)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
def test_a_tree_explains_a_query_in_the_other_byte_order(dtype):
    X, _ = _iris(dtype)
    expected = BranchBoundTree(X).explain(X[7], k=2)
    got = BranchBoundTree(swapped(X)).explain(swapped(X[7]), k=2)
    assert repr(got) == repr(expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize("metric", ["euclidean", "chebyshev", "minkowski"])
def test_pairwise_distances(metric, dtype):
    X, _ = _iris(dtype)
    expected = pairwise_distances(X[:40], X[100:], metric=metric, p=3)
    other = [swapped(X[:40]), swapped(X[100:])]
    copies = _kept(*other)
    _assert_same(pairwise_distances(*other, metric=metric, p=3), expected)
    _assert_kept(other, copies)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize(
    "select",
    [
        edit,
        lambda X, y: condense(X, y, random_state=0),
        lambda X, y: multiedit(X, y, random_state=0),
        lambda X, y: edit_condense(X, y, random_state=0),
    ],
    ids=["edit", "condense", "multiedit", "edit_condense"],
)
def test_editing_and_condensing(select, dtype):
    X, y = _iris(dtype)
    expected = select(X, y)
    other = [swapped(X), swapped(y)]
    copies = _kept(*other)
    _assert_same(select(*other), expected)
    _assert_kept(other, copies)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize(
    "resampler", [Editing, Condensing, MultiEditing, EditCondensing]
)
def test_resamplers_keep_the_same_rows(resampler, dtype):
    X, y = _iris(dtype)
    params = {"random_state": 0} if "random_state" in resampler().get_params() else {}
    X_kept, y_kept = resampler(**params).fit_resample(X, y)
    other = [swapped(X), swapped(y)]
    copies = _kept(*other)
    X_got, y_got = resampler(**params).fit_resample(*other)
    # (the caller's own rows, in the caller's byte order)
    np.testing.assert_array_equal(X_got, X_kept)
    np.testing.assert_array_equal(y_got, y_kept)
    _assert_kept(other, copies)

"""Tests of patrec.datasets: the bundled loaders and the synthetic generators."""

import csv
import pickle
import subprocess
import sys

import numpy as np
import pytest
import sklearn.datasets
from scipy.optimize import linprog

from patrec import datasets
from patrec.datasets import (
    Bunch,
    load_breast_cancer,
    load_iris,
    load_wine,
    make_banana,
    make_gaussian_classes,
    make_rings,
    make_sectors,
    make_xor,
)

# ---------------------------------------------------------------------------------
# bundled data

LOADERS = [
    pytest.param(
        load_iris, sklearn.datasets.load_iris, (150, 4), [50, 50, 50], id="iris"
    ),
    pytest.param(
        load_wine, sklearn.datasets.load_wine, (178, 13), [59, 71, 48], id="wine"
    ),
    pytest.param(
        load_breast_cancer,
        sklearn.datasets.load_breast_cancer,
        (569, 30),
        [212, 357],
        id="breast_cancer",
    ),
]


@pytest.mark.parametrize("load, reference, shape, counts", LOADERS)
def test_loader_matches_scikit_learn(load, reference, shape, counts):
    ours, theirs = load(), reference()
    assert isinstance(ours, Bunch)
    assert set(ours) == {
        "data",
        "target",
        "feature_names",
        "target_names",
        "DESCR",
        "filename",
    }
    assert ours.data.shape == shape
    assert ours.data.dtype == np.float64
    assert ours.target.dtype == np.intp
    assert np.array_equal(ours.data, theirs.data)
    assert np.array_equal(ours.target, theirs.target)
    assert np.bincount(ours.target).tolist() == counts
    assert list(ours.feature_names) == list(theirs.feature_names)
    # a list or an array, as scikit-learn's loader gives it
    assert type(ours.feature_names) is type(theirs.feature_names)
    assert ours.target_names.tolist() == list(theirs.target_names)


@pytest.mark.parametrize("load, reference, shape, counts", LOADERS)
def test_return_X_y(load, reference, shape, counts):
    X, y = load(return_X_y=True)
    bunch = load()
    assert np.array_equal(X, bunch.data) and np.array_equal(y, bunch.target)
    assert X.shape == shape and y.shape == (shape[0],)
    with pytest.raises(TypeError, match="return_X_y"):
        load(return_X_y="yes")


@pytest.mark.parametrize("load, reference, shape, counts", LOADERS)
def test_description_names_source_and_licence(load, reference, shape, counts):
    descr = load().DESCR
    assert "UCI Machine Learning Repository" in descr
    assert "CC BY 4.0" in descr
    assert "https://doi.org/10.24432/" in descr
    assert str(shape[0]) in descr


@pytest.mark.parametrize("load, reference, shape, counts", LOADERS)
def test_csv_file_is_a_plain_csv_with_a_target_column(load, reference, shape, counts):
    """The file the CLI reads with ``--data FILE --target target``."""
    bunch = load()
    with open(bunch.filename, newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == shape[0]
    assert list(rows[0]) == [*bunch.feature_names, "target"]
    names = [row["target"] for row in rows]
    assert names == bunch.target_names[bunch.target].tolist()
    values = np.array(
        [[row[name] for name in bunch.feature_names] for row in rows], dtype=np.float64
    )
    assert np.array_equal(values, bunch.data)


def test_loaders_return_fresh_arrays():
    first = load_iris()
    first.data[0, 0] = -1.0
    assert load_iris().data[0, 0] == 5.1


def test_bunch_attribute_access():
    b = Bunch(a=1)
    b.b = 2
    assert b["b"] == 2 and b.a == 1
    b["c"] = 3
    assert b.c == 3
    del b.c
    assert "c" not in b
    with pytest.raises(AttributeError):
        _ = b.missing
    with pytest.raises(AttributeError):
        del b.missing
    assert "a" in dir(b)
    copy = pickle.loads(pickle.dumps(b))
    assert copy == b and isinstance(copy, Bunch) and copy.b == 2


def test_no_scikit_learn_or_pandas_at_run_time():
    code = (
        "import sys, patrec.datasets as d; d.load_iris(); d.make_sectors(); "
        "print('sklearn' in sys.modules, 'pandas' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "False"]


# ---------------------------------------------------------------------------------
# synthetic data: what every generator promises

GENERATORS = [
    pytest.param(make_sectors, {"n_classes": 3, "n_samples": 301}, 3, id="sectors"),
    pytest.param(make_sectors, {"n_classes": 5, "n_samples": 52}, 5, id="sectors5"),
    pytest.param(
        make_gaussian_classes,
        {"means": [[0, 0, 0], [1, 1, 1]], "covariances": 1.0, "n_per_class": 7},
        2,
        id="gaussian",
    ),
    pytest.param(make_xor, {"n_samples": 203}, 2, id="xor"),
    pytest.param(make_rings, {"n_samples": 101, "n_classes": 4}, 4, id="rings"),
    pytest.param(make_banana, {"n_samples": 99}, 2, id="banana"),
]


@pytest.mark.parametrize("make, kwargs, n_classes", GENERATORS)
def test_generator_output(make, kwargs, n_classes):
    X, y = make(**kwargs, random_state=0)
    assert X.dtype == np.float64 and X.flags.c_contiguous and X.ndim == 2
    assert y.dtype == np.intp and y.shape == (X.shape[0],)
    assert np.isfinite(X).all()
    counts = np.bincount(y, minlength=n_classes)
    assert counts.shape == (n_classes,)
    assert counts.max() - counts.min() <= 1
    assert not (np.diff(y) >= 0).all(), "the rows should come shuffled"


@pytest.mark.parametrize("make, kwargs, n_classes", GENERATORS)
def test_generator_is_reproducible(make, kwargs, n_classes):
    X1, y1 = make(**kwargs, random_state=7)
    X2, y2 = make(**kwargs, random_state=7)
    X3, y3 = make(**kwargs, random_state=np.random.default_rng(7))
    X4, _ = make(**kwargs, random_state=8)
    assert np.array_equal(X1, X2) and np.array_equal(y1, y2)
    assert np.array_equal(X1, X3) and np.array_equal(y1, y3)
    assert not np.array_equal(X1, X4)


@pytest.mark.parametrize("make, kwargs, n_classes", GENERATORS)
def test_generator_rejects_bad_random_state(make, kwargs, n_classes):
    with pytest.raises(TypeError, match="random_state"):
        make(**kwargs, random_state="seed")


# ---------------------------------------------------------------------------------
# make_sectors


def _angles(X):
    return np.mod(np.arctan2(X[:, 1], X[:, 0]), 2 * np.pi)


def _middle_directions(n_classes):
    middle = 2 * np.pi * (np.arange(n_classes) + 0.5) / n_classes
    return np.column_stack([np.cos(middle), np.sin(middle)])


def _linearly_separable(X, positive):
    """Whether some (w, b) gives sign(X @ w + b) = +1 on ``positive``, -1 elsewhere."""
    sign = np.where(positive, 1.0, -1.0)
    A = -sign[:, None] * np.column_stack([X, np.ones(X.shape[0])])
    result = linprog(
        np.zeros(X.shape[1] + 1),
        A_ub=A,
        b_ub=-np.ones(X.shape[0]),
        bounds=[(None, None)] * (X.shape[1] + 1),
        method="highs",
    )
    assert result.status in (0, 2)  # 0: a separator found, 2: none exists
    return result.status == 0


@pytest.mark.parametrize(
    "n_classes, gap", [(2, 0.3), (3, None), (3, 0.0), (3, 1.0), (4, 0.5), (7, None)]
)
def test_sectors_labels_follow_angles_and_leave_the_gap(n_classes, gap):
    X, y = make_sectors(n_classes=n_classes, n_samples=2000, gap=gap, random_state=1)
    width = 2 * np.pi / n_classes
    angle = _angles(X)
    assert np.array_equal(np.floor(angle / width).astype(np.intp), y)
    assert (np.hypot(X[:, 0], X[:, 1]) <= 1).all()
    expected_gap = np.pi / (4 * n_classes) if gap is None else gap
    inside = angle - width * y  # angle within the sector, in [0, width)
    to_boundary = np.minimum(inside, width - inside)
    assert to_boundary.min() >= expected_gap - 1e-12
    assert to_boundary.min() < expected_gap + 0.01  # and the gap is not wider


def test_sectors_radius_is_uniform_in_the_disc():
    X, _ = make_sectors(n_samples=20000, random_state=2)
    area_fraction = np.hypot(X[:, 0], X[:, 1]) ** 2  # uniform on [0, 1)
    assert np.quantile(area_fraction, [0.25, 0.5, 0.75]) == pytest.approx(
        [0.25, 0.5, 0.75], abs=0.02
    )


@pytest.mark.parametrize("n_classes, gap", [(3, None), (3, 0.2), (5, None), (8, 0.1)])
def test_sectors_are_separated_by_the_middle_directions(n_classes, gap):
    X, y = make_sectors(n_classes=n_classes, n_samples=600, gap=gap, random_state=3)
    gap = np.pi / (4 * n_classes) if gap is None else gap
    scores = X @ _middle_directions(n_classes).T
    own = scores[np.arange(y.shape[0]), y]
    scores[np.arange(y.shape[0]), y] = -np.inf
    margin = own - scores.max(axis=1)
    radius = np.hypot(X[:, 0], X[:, 1])
    bound = 2 * radius * np.sin(np.pi / n_classes) * np.sin(gap)
    assert (margin > 0).all()
    assert (margin >= bound - 1e-12).all()


@pytest.mark.parametrize("bias", [False, True])
def test_sectors_multiclass_perceptron_converges_in_a_few_epochs(bias):
    X, y = make_sectors(random_state=4)
    if bias:
        X = np.column_stack([X, np.ones(X.shape[0])])
    W = np.zeros((3, X.shape[1]))
    for _epoch in range(1, 11):
        mistakes = 0
        for x, label in zip(X, y):
            guess = np.argmax(W @ x)
            if guess != label:
                W[label] += x
                W[guess] -= x
                mistakes += 1
        if mistakes == 0:
            break
    assert mistakes == 0, "no separating linear machine found in 10 epochs"


def test_sectors_one_versus_rest_is_not_linearly_separable_by_default():
    X, y = make_sectors(n_classes=3, random_state=0)
    for k in range(3):
        assert not _linearly_separable(X, y == k)
    mid = _middle_directions(3)[y]
    projection = np.einsum("ij,ij->i", X, mid)
    # the points inside the convex hull of the other two sectors (see the Notes)
    assert (projection < np.cos(np.pi / 3 + np.pi / 12)).sum() > 10


@pytest.mark.parametrize("n_classes, gap", [(2, 0.0), (2, None), (3, 0.6)])
def test_sectors_one_versus_rest_separable_cases(n_classes, gap):
    X, y = make_sectors(n_classes=n_classes, gap=gap, random_state=0)
    for k in range(n_classes):
        assert _linearly_separable(X, y == k)


# ---------------------------------------------------------------------------------
# make_gaussian_classes


@pytest.mark.parametrize(
    "covariances, expected",
    [
        (0.5, [0.5 * np.eye(2)] * 3),
        ([0.5, 1.0, 2.0], [0.5 * np.eye(2), np.eye(2), 2 * np.eye(2)]),
        ([[1.0, 0.6], [0.6, 2.0]], [np.array([[1.0, 0.6], [0.6, 2.0]])] * 3),
        (
            [
                [[1.0, 0.0], [0.0, 1.0]],
                [[2.0, -0.5], [-0.5, 1.0]],
                [[0.3, 0.0], [0.0, 3.0]],
            ],
            None,
        ),
    ],
)
def test_gaussian_classes_moments(covariances, expected):
    means = np.array([[0.0, 0.0], [5.0, -1.0], [-3.0, 4.0]])
    if expected is None:
        expected = np.asarray(covariances)
    X, y = make_gaussian_classes(means, covariances, 20000, random_state=5)
    assert X.shape == (60000, 2)
    for k in range(3):
        Xk = X[y == k]
        assert Xk.mean(axis=0) == pytest.approx(means[k], abs=0.05)
        assert np.cov(Xk.T) == pytest.approx(np.asarray(expected[k]), abs=0.08)


def test_gaussian_classes_sizes_and_dimension():
    X, y = make_gaussian_classes(np.zeros((3, 5)), np.eye(5), [2, 3, 4], random_state=0)
    assert X.shape == (9, 5)
    assert np.bincount(y).tolist() == [2, 3, 4]


def test_gaussian_classes_singular_covariance():
    cov = np.array([[1.0, 1.0], [1.0, 1.0]])  # rank 1: the line x1 = x2
    X, _ = make_gaussian_classes([[0.0, 0.0], [2.0, 2.0]], cov, 50, random_state=0)
    assert np.allclose(X[:, 0], X[:, 1])
    X, y = make_gaussian_classes([[1.0, 2.0], [3.0, 4.0]], 0.0, 4, random_state=0)
    assert np.array_equal(X, np.array([[1.0, 2.0], [3.0, 4.0]])[y])


def test_gaussian_classes_does_not_modify_inputs():
    means = np.array([[0.0, 0.0], [1.0, 1.0]])
    cov = np.array([[[1.0, 0.2], [0.2, 1.0]]] * 2)
    means_copy, cov_copy = means.copy(), cov.copy()
    make_gaussian_classes(means, cov, 5, random_state=0)
    assert np.array_equal(means, means_copy) and np.array_equal(cov, cov_copy)


# ---------------------------------------------------------------------------------
# make_xor, make_rings, make_banana


def test_xor_labels_are_the_exclusive_or_of_the_blob_signs():
    X, y = make_xor(n_samples=100, noise=0.0, random_state=0)
    assert set(map(tuple, X.tolist())) == {
        (1.0, 1.0),
        (-1.0, 1.0),
        (-1.0, -1.0),
        (1.0, -1.0),
    }
    assert np.array_equal(y, (X[:, 0] * X[:, 1] < 0).astype(np.intp))
    assert np.unique(X, axis=0, return_counts=True)[1].tolist() == [25] * 4
    X, y = make_xor(noise=0.3, random_state=0)
    assert ((X[:, 0] * X[:, 1] < 0) == y).mean() > 0.95
    assert not _linearly_separable(X, y == 1)


def test_rings_radii():
    X, y = make_rings(
        n_samples=400, n_classes=4, noise=0.0, factor=0.25, random_state=0
    )
    radius = np.hypot(X[:, 0], X[:, 1])
    assert radius == pytest.approx(np.array([1.0, 0.75, 0.5, 0.25])[y])
    X, y = make_rings(n_samples=2000, noise=0.05, random_state=0)
    radius = np.hypot(X[:, 0], X[:, 1])
    assert (y == (radius < 0.75)).mean() > 0.99
    assert not _linearly_separable(X, y == 1)


def test_banana_shape():
    X, y = make_banana(n_samples=400, noise=0.0, random_state=0)
    upper, lower = X[y == 0], X[y == 1]
    assert np.hypot(upper[:, 0] + 0.5, upper[:, 1] + 0.25) == pytest.approx(1.0)
    assert (upper[:, 1] >= -0.25 - 1e-12).all()
    assert np.hypot(lower[:, 0] - 0.5, lower[:, 1] - 0.25) == pytest.approx(1.0)
    assert (lower[:, 1] <= 0.25 + 1e-12).all()
    assert not _linearly_separable(X, y == 1)


# ---------------------------------------------------------------------------------
# parameter checks

BAD_PARAMETERS = [
    (make_sectors, {"n_classes": 1}, ValueError, "n_classes"),
    (make_sectors, {"n_classes": 2.5}, TypeError, "n_classes"),
    (make_sectors, {"n_classes": True}, TypeError, "n_classes"),
    (make_sectors, {"n_classes": 4, "n_samples": 3}, ValueError, "n_samples"),
    (make_sectors, {"n_samples": "300"}, TypeError, "n_samples"),
    (make_sectors, {"gap": -0.1}, ValueError, "gap"),
    (make_sectors, {"n_classes": 3, "gap": np.pi / 3}, ValueError, "gap"),
    (make_sectors, {"gap": np.nan}, ValueError, "gap"),
    (make_sectors, {"gap": "wide"}, TypeError, "gap"),
    (make_xor, {"n_samples": 3}, ValueError, "n_samples"),
    (make_xor, {"noise": -1.0}, ValueError, "noise"),
    (make_rings, {"n_classes": 1}, ValueError, "n_classes"),
    (make_rings, {"factor": 1.0}, ValueError, "factor"),
    (make_rings, {"factor": 0.0}, ValueError, "factor"),
    (make_rings, {"noise": np.inf}, ValueError, "noise"),
    (make_banana, {"n_samples": 1}, ValueError, "n_samples"),
    (make_banana, {"noise": None}, TypeError, "noise"),
]


@pytest.mark.parametrize("make, kwargs, error, match", BAD_PARAMETERS)
def test_bad_parameters_rejected(make, kwargs, error, match):
    with pytest.raises(error, match=match):
        make(**kwargs)


GOOD_MEANS = [[0.0, 0.0], [1.0, 1.0]]
BAD_GAUSSIAN = [
    ({"means": [0.0, 1.0]}, ValueError, "means must be a 2-D"),
    ({"means": [[0.0, np.nan], [1.0, 1.0]]}, ValueError, "means must be finite"),
    ({"means": [["a", "b"], ["c", "d"]]}, TypeError, "means"),
    ({"covariances": [[1.0, 2.0], [2.0, 1.0]]}, ValueError, "not positive semi-def"),
    ({"covariances": [[1.0, 0.5], [0.0, 1.0]]}, ValueError, "not symmetric"),
    ({"covariances": -1.0}, ValueError, "variances must be >= 0"),
    ({"covariances": [1.0, 1.0, 1.0]}, ValueError, "2 values"),
    ({"covariances": np.eye(3)}, ValueError, "got shape"),
    ({"covariances": np.ones((2, 2, 2, 2))}, ValueError, "got shape"),
    ({"covariances": [[1.0, np.inf], [np.inf, 1.0]]}, ValueError, "finite"),
    ({"n_per_class": 0}, ValueError, "n_per_class"),
    ({"n_per_class": 2.0}, TypeError, "n_per_class"),
    ({"n_per_class": [3]}, ValueError, "n_per_class"),
    ({"n_per_class": [3, 0]}, ValueError, r"n_per_class\[1\]"),
    ({"n_per_class": [3, 1.5]}, TypeError, r"n_per_class\[1\]"),
    ({"n_per_class": True}, TypeError, "n_per_class"),
    ({"n_per_class": [[3, 3]]}, ValueError, "n_per_class"),
]


@pytest.mark.parametrize("kwargs, error, match", BAD_GAUSSIAN)
def test_gaussian_classes_bad_parameters_rejected(kwargs, error, match):
    arguments = {"means": GOOD_MEANS, "covariances": 1.0, "n_per_class": 3, **kwargs}
    with pytest.raises(error, match=match):
        make_gaussian_classes(**arguments)


def test_gaussian_classes_names_the_class_with_a_bad_covariance():
    cov = [np.eye(2), [[1.0, 0.0], [0.0, -0.5]]]
    with pytest.raises(ValueError, match="class 1 is not positive semi-definite"):
        make_gaussian_classes(GOOD_MEANS, cov, 3)


# ---------------------------------------------------------------------------------
# the examples in the docstrings


def test_public_names():
    assert sorted(datasets.__all__) == sorted(
        [
            "Bunch",
            "load_iris",
            "load_wine",
            "load_breast_cancer",
            "make_sectors",
            "make_gaussian_classes",
            "make_xor",
            "make_rings",
            "make_banana",
        ]
    )
    for name in datasets.__all__:
        assert getattr(datasets, name).__doc__


def test_default_gaussian_classes_three_overlapping_classes_in_the_plane():
    X, y = make_gaussian_classes(random_state=0)
    assert X.shape == (300, 2) and np.bincount(y).tolist() == [100, 100, 100]
    means = np.array([X[y == k].mean(axis=0) for k in range(3)])
    np.testing.assert_allclose(means, [[0, 0], [3, 0], [0, 3]], atol=0.3)
    # overlapping: the nearest-true-mean (Bayes) rule errs about 9% of the time
    big, labels = make_gaussian_classes(n_per_class=20000, random_state=1)
    nearest = np.argmin(
        ((big[:, None] - np.array([[0, 0], [3, 0], [0, 3]])) ** 2).sum(axis=2), axis=1
    )
    assert 0.08 < np.mean(nearest != labels) < 0.10


def test_default_banana_overlaps_enough_to_teach():
    from patrec import FisherLDA, KNeighborsClassifier

    X_test, y_test = make_banana(20000, random_state=100)
    knn, linear = [], []
    for seed in range(3):
        X, y = make_banana(random_state=seed)
        knn.append(1 - KNeighborsClassifier(5).fit(X, y).score(X_test, y_test))
        linear.append(1 - FisherLDA().fit(X, y).score(X_test, y_test))
    # k-NN errs, but clearly less than a linear rule on the curved boundary
    assert 0.04 < np.mean(knn) < 0.11
    assert np.mean(linear) > np.mean(knn) + 0.04

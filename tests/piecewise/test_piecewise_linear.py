"""PiecewiseLinearClassifier: the course's rule, the linear machine as a special case,
the minimum-distance start, convergence where no line suffices, and bad input."""

import numpy as np
import pytest
import scipy.sparse as sp

from patrec import LinearMachine, MinimumDistanceClassifier, PiecewiseLinearClassifier
from patrec.datasets import load_iris, make_banana, make_gaussian_classes, make_xor


def course_rule(X, codes, alphas, owners, rate, n_epochs):
    """The course's algorithm in plain numpy, visiting the rows in order.

    ``alphas`` holds one augmented weight vector per row, ``owners`` the class of
    each.  Returns the weights after ``n_epochs`` epochs (or the first epoch without
    a correction) and the corrections made in each epoch.
    """
    alphas = np.array(alphas, dtype=np.float64)
    Y = np.hstack([X.astype(np.float64), np.ones((len(X), 1))])
    corrections = []
    for _ in range(n_epochs):
        count = 0
        for y_k, j in zip(Y, codes):
            discriminants = alphas @ y_k
            own = np.flatnonzero(owners == j)
            others = np.flatnonzero(owners != j)
            m = own[np.argmax(discriminants[own])]
            n = others[np.argmax(discriminants[others])]
            if discriminants[m] > discriminants[n]:
                continue  # correctly classified: no change
            alphas[m] += rate * y_k
            alphas[n] -= rate * y_k
            count += 1
        corrections.append(count)
        if count == 0:
            break
    return alphas, corrections


def weights_of(clf):
    return np.column_stack([clf.coef_, clf.intercept_])


@pytest.mark.parametrize("averaged", [False, True])
@pytest.mark.parametrize("margin", [0.0, 0.5])
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_one_subclass_per_class_is_the_linear_machine(
    averaged, margin, shuffle, dtype, n_classes
):
    X, y = load_iris(return_X_y=True)
    keep = y < n_classes
    X, y = X[keep].astype(dtype), y[keep]
    params = dict(
        learning_rate=0.7,
        margin=margin,
        averaged=averaged,
        max_epochs=25,
        shuffle=shuffle,
        random_state=3,
    )
    machine = PiecewiseLinearClassifier(1, init="zeros", **params).fit(X, y)
    linear = LinearMachine(update="winner", **params).fit(X, y)
    np.testing.assert_array_equal(machine.coef_, linear.coef_)
    np.testing.assert_array_equal(machine.intercept_, linear.intercept_)
    np.testing.assert_array_equal(machine.corrections_, linear.mistakes_)
    assert machine.n_iter_ == linear.n_iter_
    np.testing.assert_array_equal(
        machine.decision_function(X), linear.decision_function(X)
    )
    np.testing.assert_array_equal(machine.predict(X), linear.predict(X))


@pytest.mark.parametrize("n_epochs", [1, 2, 3, 50])
@pytest.mark.parametrize("rate", [1.0, 0.25])
def test_follows_the_course_rule_step_by_step(n_epochs, rate):
    """Three classes, two with two subclasses: the weights after each epoch match the
    plain-numpy version of the course's algorithm."""
    centres = np.array([[0, 0], [4, 4], [0, 4], [4, 0], [2, 2]], dtype=float)
    X, blob = make_gaussian_classes(centres, 0.7, 12, random_state=1)
    codes = np.array([0, 0, 1, 1, 2])[blob]
    clf = PiecewiseLinearClassifier(
        {0: 2, 1: 2},
        learning_rate=rate,
        shuffle=False,
        max_epochs=n_epochs,
        random_state=5,
    ).fit(X, codes)
    # the starting weights: the subclass means of the minimum-distance classifier
    start = MinimumDistanceClassifier({0: 2, 1: 2}, random_state=5).fit(X, codes)
    means = start.prototypes_
    alphas = np.column_stack([means, -0.5 * (means**2).sum(axis=1)])
    owners = np.repeat([0, 1, 2], [2, 2, 1])
    expected, corrections = course_rule(X, codes, alphas, owners, rate, n_epochs)
    assert clf.corrections_.tolist() == corrections
    assert corrections[0] > 0  # the rule has work to do
    np.testing.assert_allclose(weights_of(clf), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(clf.subclass_labels_, owners)


def test_course_rule_exactly_on_integer_data_from_zero():
    """Integer data and zero start: every step is exact, so the weights agree to the
    bit with the reference, subclass by subclass."""
    rng = np.random.default_rng(0)
    X = rng.integers(-5, 6, size=(40, 3)).astype(float)
    codes = (X[:, 0] * X[:, 1] > 0).astype(np.intp) + (X[:, 2] > 2)
    clf = PiecewiseLinearClassifier(
        {0: 3, 1: 2}, init="zeros", shuffle=False, max_epochs=7
    ).fit(X, codes)
    owners = np.repeat([0, 1, 2], [3, 2, 1])
    expected, corrections = course_rule(X, codes, np.zeros((6, 4)), owners, 1.0, 7)
    np.testing.assert_array_equal(weights_of(clf), expected)
    assert clf.corrections_.tolist() == corrections


def test_starts_from_the_minimum_distance_classifier():
    """Where the nearest subclass mean already classifies every training sample, the
    first epoch corrects nothing: the machine is the minimum-distance classifier."""
    X, y = make_xor(n_samples=200, noise=0.15, random_state=0)
    clf = PiecewiseLinearClassifier(2, random_state=4).fit(X, y)
    nearest = MinimumDistanceClassifier(2, random_state=4).fit(X, y)
    assert clf.corrections_.tolist() == [0]
    np.testing.assert_array_equal(clf.coef_, nearest.prototypes_)
    np.testing.assert_allclose(
        clf.intercept_, -0.5 * (nearest.prototypes_**2).sum(axis=1)
    )
    grid = np.random.default_rng(1).uniform(-2, 2, size=(500, 2))
    np.testing.assert_array_equal(clf.predict(grid), nearest.predict(grid))


def test_separates_the_banana_where_no_linear_machine_does():
    X, y = make_banana(n_samples=400, noise=0.1, random_state=0)
    linear = LinearMachine(random_state=0).fit(X, y)
    nearest = MinimumDistanceClassifier(2, random_state=0).fit(X, y)
    clf = PiecewiseLinearClassifier(2, random_state=0).fit(X, y)
    assert linear.score(X, y) < 0.95
    assert nearest.score(X, y) < 1.0  # the start makes mistakes ...
    assert clf.corrections_[0] > 0
    assert clf.corrections_[-1] == 0  # ... which training removes
    assert clf.score(X, y) == 1.0
    assert clf.n_iter_ == len(clf.corrections_) < clf.max_epochs


@pytest.mark.parametrize("init", ["kmeans", "zeros"])
def test_solves_xor_with_two_pieces_per_class(init):
    X, y = make_xor(n_samples=300, noise=0.2, random_state=2)
    clf = PiecewiseLinearClassifier(2, init=init, random_state=0, max_epochs=500).fit(
        X, y
    )
    assert clf.corrections_[-1] == 0
    assert clf.score(X, y) == 1.0
    assert LinearMachine(random_state=0).fit(X, y).score(X, y) < 0.8


def test_from_zero_the_learning_rate_only_scales_the_weights():
    X, y = make_banana(n_samples=200, noise=0.2, random_state=0)
    params = dict(init="zeros", max_epochs=10, random_state=0)
    unit = PiecewiseLinearClassifier(3, **params).fit(X, y)
    quarter = PiecewiseLinearClassifier(3, learning_rate=0.25, **params).fit(X, y)
    np.testing.assert_array_equal(weights_of(quarter), 0.25 * weights_of(unit))
    np.testing.assert_array_equal(quarter.corrections_, unit.corrections_)


def test_decision_function_is_the_best_subclass_score():
    X, y = make_gaussian_classes(
        np.array([[0, 0], [3, 0], [0, 3]]), 1.0, 30, random_state=3
    )
    clf = PiecewiseLinearClassifier({0: 3, 2: 2}, random_state=0).fit(X, y)
    assert clf.n_subclasses_.tolist() == [3, 1, 2]
    assert clf.coef_.shape == (6, 2) and clf.intercept_.shape == (6,)
    queries = np.random.default_rng(0).normal(scale=3, size=(50, 2))
    subclass = clf.subclass_decision_function(queries)
    np.testing.assert_allclose(subclass, queries @ clf.coef_.T + clf.intercept_)
    expected = np.column_stack(
        [subclass[:, clf.subclass_labels_ == c].max(axis=1) for c in clf.classes_]
    )
    np.testing.assert_array_equal(clf.decision_function(queries), expected)
    np.testing.assert_array_equal(
        clf.predict(queries), clf.classes_[np.argmax(expected, axis=1)]
    )


def test_binary_decision_function_is_one_column():
    X, y = make_xor(n_samples=100, random_state=0)
    labels = np.array(["no", "yes"])[y]
    clf = PiecewiseLinearClassifier(random_state=0).fit(X, labels)
    scores = clf.decision_function(X)
    assert scores.shape == (100,)
    subclass = clf.subclass_decision_function(X)
    np.testing.assert_allclose(
        scores, subclass[:, 2:].max(axis=1) - subclass[:, :2].max(axis=1)
    )
    np.testing.assert_array_equal(clf.predict(X), np.where(scores > 0, "yes", "no"))


def test_per_class_counts_and_string_labels():
    X, y = make_banana(n_samples=120, random_state=1)
    names = np.array(["left", "right"])[y]
    clf = PiecewiseLinearClassifier({"right": 3}, random_state=0).fit(X, names)
    assert clf.subclass_labels_.tolist() == ["left"] + ["right"] * 3
    assert set(clf.predict(X)) <= {"left", "right"}


def test_random_state_makes_fits_repeatable():
    X, y = make_banana(n_samples=200, noise=0.2, random_state=0)
    first = PiecewiseLinearClassifier(3, max_epochs=20, random_state=7).fit(X, y)
    again = PiecewiseLinearClassifier(3, max_epochs=20, random_state=7).fit(X, y)
    np.testing.assert_array_equal(weights_of(first), weights_of(again))
    np.testing.assert_array_equal(first.corrections_, again.corrections_)
    generator = PiecewiseLinearClassifier(
        3, max_epochs=20, random_state=np.random.default_rng(7)
    ).fit(X, y)
    np.testing.assert_array_equal(weights_of(generator), weights_of(first))
    other = PiecewiseLinearClassifier(3, max_epochs=20, random_state=8).fit(X, y)
    assert not np.array_equal(weights_of(other), weights_of(first))


def test_stops_after_max_epochs_on_overlapping_classes():
    X, y = make_xor(n_samples=200, noise=0.8, random_state=0)
    clf = PiecewiseLinearClassifier(2, max_epochs=6, random_state=0).fit(X, y)
    assert clf.n_iter_ == 6 and clf.corrections_.shape == (6,)
    assert (clf.corrections_ > 0).all()


def test_averaging_keeps_a_steadier_machine():
    X, y = make_xor(n_samples=300, noise=0.7, random_state=0)
    plain = PiecewiseLinearClassifier(2, max_epochs=30, random_state=0).fit(X, y)
    mean = PiecewiseLinearClassifier(
        2, max_epochs=30, averaged=True, random_state=0
    ).fit(X, y)
    np.testing.assert_array_equal(plain.corrections_, mean.corrections_)
    assert not np.allclose(weights_of(plain), weights_of(mean))
    assert mean.score(X, y) >= plain.score(X, y) - 0.02


def test_float32_is_read_as_float32():
    """float32 data enter the loop unchanged and the weights are float64: fitting
    float32 data equals fitting their exact float64 copy."""
    X, y = make_banana(n_samples=150, noise=0.2, random_state=0)
    X32 = X.astype(np.float32)
    clf32 = PiecewiseLinearClassifier(
        2, init="zeros", max_epochs=15, random_state=0
    ).fit(X32, y)
    clf64 = PiecewiseLinearClassifier(
        2, init="zeros", max_epochs=15, random_state=0
    ).fit(X32.astype(np.float64), y)
    assert clf32.coef_.dtype == np.float64
    np.testing.assert_array_equal(weights_of(clf32), weights_of(clf64))
    assert clf32.decision_function(X32).dtype == np.float32
    kmeans32 = PiecewiseLinearClassifier(2, random_state=0).fit(X32, y)
    kmeans64 = PiecewiseLinearClassifier(2, random_state=0).fit(X, y)
    np.testing.assert_allclose(kmeans32.predict(X), kmeans64.predict(X))


def test_leaves_the_callers_arrays_alone():
    X, y = make_banana(n_samples=100, random_state=0)
    X_before, y_before = X.copy(), y.copy()
    PiecewiseLinearClassifier(random_state=0).fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"n_subclasses": 0}, ValueError, "n_subclasses for class 0"),
        (
            {"n_subclasses": 2.0},
            TypeError,
            "n_subclasses for class 0 must be an integer",
        ),
        ({"n_subclasses": True}, TypeError, "n_subclasses"),
        ({"n_subclasses": [2, 2]}, TypeError, "n_subclasses"),
        ({"n_subclasses": 11}, ValueError, "has only 10 training sample"),
        ({"n_subclasses": {7: 2}}, ValueError, "n_subclasses names classes not in y"),
        ({"n_subclasses": {1: -1}}, ValueError, "n_subclasses for class 1"),
        ({"init": "random"}, ValueError, "init must be one of"),
        ({"init": None}, ValueError, "init must be one of"),
        ({"learning_rate": 0}, ValueError, "learning_rate"),
        ({"learning_rate": -1.0}, ValueError, "learning_rate"),
        ({"learning_rate": np.inf}, ValueError, "learning_rate must be finite"),
        ({"learning_rate": "1"}, TypeError, "learning_rate"),
        ({"margin": -0.1}, ValueError, "margin"),
        ({"averaged": 1}, TypeError, "averaged must be True or False"),
        ({"shuffle": "yes"}, TypeError, "shuffle must be True or False"),
        ({"max_epochs": 0}, ValueError, "max_epochs"),
        ({"max_epochs": 2.5}, TypeError, "max_epochs"),
        ({"random_state": -1}, ValueError, "random_state"),
        ({"random_state": "seed"}, TypeError, "random_state"),
    ],
)
def test_bad_parameters_are_refused(params, error, match):
    X = np.arange(40, dtype=float).reshape(20, 2)
    y = np.repeat([0, 1], 10)
    clf = PiecewiseLinearClassifier(**params)
    with pytest.raises(error, match=match):
        clf.fit(X, y)
    assert not hasattr(clf, "coef_")


def test_sparse_input_is_refused():
    X = sp.random(20, 4, density=0.5, format="csr", random_state=0)
    with pytest.raises(TypeError, match="Sparse input is not supported"):
        PiecewiseLinearClassifier().fit(X, np.repeat([0, 1], 10))
    clf = PiecewiseLinearClassifier(random_state=0).fit(
        X.toarray(), np.repeat([0, 1], 10)
    )
    with pytest.raises(TypeError, match="Sparse input"):
        clf.predict(X)


@pytest.mark.parametrize("init", ["kmeans", "zeros"])
def test_overflowing_features_raise_a_clear_error(init):
    X = np.array([[1e200, 0], [2e200, 1], [-1e200, 0], [-2e200, 1]])
    with pytest.raises(ValueError, match="overflowed float64"):
        PiecewiseLinearClassifier(1, init=init).fit(X, [0, 0, 1, 1])


def test_refit_forgets_the_previous_model():
    X, y = make_gaussian_classes(
        np.array([[0, 0], [3, 0], [0, 3]]), 1.0, 20, random_state=0
    )
    clf = PiecewiseLinearClassifier(3, random_state=0).fit(X, y)
    clf.set_params(n_subclasses=1).fit(X[y < 2], y[y < 2])
    assert clf.coef_.shape == (2, 2) and clf.decision_function(X).shape == (60,)
    with pytest.raises(ValueError, match="n_subclasses"):
        clf.set_params(n_subclasses=0).fit(X, y)
    assert clf.coef_.shape == (2, 2)  # a failed refit restores the previous model

"""What the one epoch driver gives every error-correcting learner: the warning when
training stops still making mistakes, ``verbose`` progress, and ``sample_weight``."""

import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from patrec import (
    LinearMachine,
    MulticlassSVM,
    Perceptron,
    PiecewiseLinearClassifier,
    SoftmaxRegression,
)
from patrec.datasets import load_iris, load_wine
from patrec.exceptions import ConvergenceWarning

LEARNERS = [Perceptron, LinearMachine, MulticlassSVM, PiecewiseLinearClassifier]
WEIGHTED = [Perceptron, LinearMachine, MulticlassSVM]


@pytest.fixture(scope="module")
def wine():
    return load_wine(return_X_y=True)


@pytest.fixture(scope="module")
def separable():
    rng = np.random.default_rng(0)
    centers = np.array([[0, 0], [8, 0], [0, 8]], dtype=float)
    X = np.vstack([c + rng.uniform(-1, 1, size=(20, 2)) for c in centers])
    return X, np.repeat([0, 1, 2], 20)


def standardised(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


# -- the warning ------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [Perceptron, LinearMachine, PiecewiseLinearClassifier])
def test_stopping_while_still_wrong_warns_with_the_count(wine, cls):
    X, y = wine
    with pytest.warns(ConvergenceWarning) as caught:
        clf = cls(max_epochs=10, random_state=0).fit(X, y)
    counts = getattr(clf, "mistakes_", getattr(clf, "corrections_", None))
    message = str(caught[0].message)
    noun = "corrections" if cls is PiecewiseLinearClassifier else "mistakes"
    assert (
        f"{cls.__name__} reached max_epochs=10 still making "
        f"{counts[-1]} {noun} in its last epoch" in message
    )
    assert "standardise the features" in message and "StandardScaler" in message
    assert counts[-1] > 0 and clf.n_iter_ == 10
    assert caught[0].filename == __file__  # points at the caller's fit


def test_svm_warns_with_the_training_samples_it_misclassifies(wine):
    X, y = wine
    with pytest.warns(ConvergenceWarning) as caught:
        clf = MulticlassSVM(random_state=0).fit(X, y)
    wrong = int(np.sum(clf.predict(X) != y))
    assert wrong > 0
    assert (
        f"MulticlassSVM ran its max_epochs=20 epochs and its weights still "
        f"misclassify {wrong} of the {len(y)} training samples"
    ) in str(caught[0].message)
    assert "standardised features" in str(caught[0].message)


@pytest.mark.parametrize("cls", LEARNERS)
def test_training_that_separates_the_classes_is_silent(separable, cls):
    X, y = separable
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = cls(random_state=0).fit(X, y)
    assert clf.score(X, y) == 1.0


def test_standardising_wine_is_the_cure(wine):
    X, y = wine
    with pytest.warns(ConvergenceWarning):
        LinearMachine(random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = LinearMachine(random_state=0).fit(standardised(X), y)
    assert clf.mistakes_[-1] == 0


# -- verbose ----------------------------------------------------------------------------


@pytest.mark.parametrize("cls", LEARNERS)
def test_verbose_reports_to_stderr(wine, cls, capsys):
    X, y = wine
    X = standardised(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        cls(max_epochs=4, random_state=0).fit(X, y)
        assert capsys.readouterr() == ("", "")
        clf = cls(max_epochs=4, random_state=0, verbose=1).fit(X, y)
        out, err = capsys.readouterr()
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"[{cls.__name__}] ")
        assert re.search(rf"\b{clf.n_iter_} epochs\b", lines[0])
        assert (
            "misclassified" in lines[0]
            or "converged" in lines[0]
            or re.search(r"\d+ (mistake|correction)s? in the last$", lines[0])
        )
        clf = cls(max_epochs=4, random_state=0, verbose=2).fit(X, y)
        lines = capsys.readouterr().err.splitlines()
    assert len(lines) == clf.n_iter_ + 1
    counts = getattr(clf, "mistakes_", getattr(clf, "corrections_", None))
    for epoch, line in enumerate(lines[:-1], start=1):
        assert line.startswith(f"[{cls.__name__}] epoch {epoch}: ")
        if counts is not None:
            assert int(line.split()[-2]) == counts[epoch - 1]


def test_verbose_summary_says_how_training_ended(separable, wine, capsys):
    X, y = separable
    clf = LinearMachine(random_state=0, verbose=1).fit(X, y)
    assert (
        capsys.readouterr().err
        == f"[LinearMachine] converged after {clf.n_iter_} epochs\n"
    )
    X, y = wine
    with pytest.warns(ConvergenceWarning):
        clf = LinearMachine(random_state=0, max_epochs=3, verbose=1).fit(X, y)
    assert capsys.readouterr().err == (
        "[LinearMachine] stopped after 3 epochs, "
        f"{clf.mistakes_[-1]} mistakes in the last\n"
    )


def test_softmax_verbose(wine, capsys):
    X, y = wine
    clf = SoftmaxRegression(verbose=2).fit(standardised(X), y)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == clf.n_iter_ + 1
    assert lines[0].startswith("[SoftmaxRegression] iteration 1: objective ")
    assert lines[-1].startswith(
        f"[SoftmaxRegression] L-BFGS converged after {clf.n_iter_} iterations"
    )
    SoftmaxRegression(verbose=0).fit(standardised(X), y)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("cls", LEARNERS + [SoftmaxRegression])
@pytest.mark.parametrize(
    "verbose, error", [(-1, ValueError), ("2", TypeError), (1.5, TypeError)]
)
def test_bad_verbose_is_refused(separable, cls, verbose, error):
    X, y = separable
    with pytest.raises(error, match="verbose must be"):
        cls(verbose=verbose).fit(X, y)


# -- sample_weight ----------------------------------------------------------------------

WEIGHT_CASES = [
    Perceptron(random_state=0, max_epochs=6),
    Perceptron(averaged=True, margin=0.5, random_state=0, max_epochs=6),
    LinearMachine(random_state=0, max_epochs=6),
    LinearMachine(update="all", averaged=True, random_state=0, max_epochs=6),
    MulticlassSVM(random_state=0, max_epochs=6),
    MulticlassSVM(averaged=False, shuffle=False, max_epochs=6),
]


@pytest.mark.parametrize("clf", WEIGHT_CASES, ids=repr)
@pytest.mark.parametrize("sparse", [False, True])
def test_weight_zero_is_removing_the_sample(wine, clf, sparse):
    X, y = wine
    X = standardised(X)
    weights = np.ones(len(y))
    weights[::7] = 0.0
    kept = weights > 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        Xw, Xk = (sp.csr_matrix(X), sp.csr_matrix(X[kept])) if sparse else (X, X[kept])
        weighted = clf.fit(Xw, y, sample_weight=weights)
        coef, intercept = weighted.coef_.copy(), weighted.intercept_.copy()
        n_iter = weighted.n_iter_
        removed = clf.fit(Xk, y[kept])
    np.testing.assert_array_equal(coef, removed.coef_)
    np.testing.assert_array_equal(intercept, removed.intercept_)
    assert n_iter == removed.n_iter_


@pytest.mark.parametrize("cls", [Perceptron, LinearMachine])
def test_equal_weights_are_a_longer_step(wine, cls):
    X, y = wine
    X = standardised(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        weighted = cls(learning_rate=0.5, margin=0.3, max_epochs=5, random_state=0).fit(
            X, y, sample_weight=np.full(len(y), 3.0)
        )
        longer = cls(learning_rate=1.5, margin=0.3, max_epochs=5, random_state=0).fit(
            X, y
        )
    np.testing.assert_array_equal(weighted.coef_, longer.coef_)
    np.testing.assert_array_equal(weighted.intercept_, longer.intercept_)


def test_svm_objective_is_a_weighted_mean(wine):
    """Scaling every weight changes nothing: the hinge terms are averaged."""
    X, y = wine
    X = standardised(X)
    plain = MulticlassSVM(random_state=0, max_epochs=4).fit(X, y)
    scaled = MulticlassSVM(random_state=0, max_epochs=4).fit(
        X, y, sample_weight=np.full(len(y), 3.0)
    )
    np.testing.assert_allclose(scaled.coef_, plain.coef_, rtol=1e-12)
    np.testing.assert_allclose(scaled.objective_, plain.objective_, rtol=1e-12)


def test_messages_count_in_the_singular_too(capsys):
    X = np.array([[2.0, 1.0], [-1.0, -2.0]])
    with pytest.warns(ConvergenceWarning, match="still making 1 mistake in its"):
        Perceptron(shuffle=False, max_epochs=1, verbose=2).fit(X, [1, 0])
    assert capsys.readouterr().err == (
        "[Perceptron] epoch 1: 1 mistake\n"
        "[Perceptron] stopped after 1 epoch, 1 mistake in the last\n"
    )


def test_a_weighted_correction_is_weight_times_the_step():
    """Two samples, one epoch in order, from zero weights: the first sample (weight
    3) is a mistake (a tie), so a = 3 rho y (x, 1); the second is then right."""
    X = np.array([[2.0, 1.0], [-1.0, -2.0]])
    y = np.array([1, 0])
    clf = Perceptron(learning_rate=0.5, shuffle=False, max_epochs=1).fit(
        X, y, sample_weight=[3.0, 1.0]
    )
    np.testing.assert_array_equal(clf.coef_, [[3.0, 1.5]])
    np.testing.assert_array_equal(clf.intercept_, [1.5])
    lm = LinearMachine(learning_rate=0.5, shuffle=False, max_epochs=1).fit(
        X, y, sample_weight=[3.0, 1.0]
    )
    np.testing.assert_array_equal(lm.coef_, [[-3.0, -1.5], [3.0, 1.5]])
    np.testing.assert_array_equal(lm.intercept_, [-1.5, 1.5])


def test_svm_update_is_weight_times_the_step():
    """First step, t = 1: W = eta_1 s (x, 1) for the true class, eta_1 = 1 / lambda,
    with s rescaled to mean 1 over the samples of positive weight."""
    X = np.array([[2.0, 1.0], [-1.0, -2.0], [0.0, 5.0]])
    y = np.array([0, 1, 2])
    weights = np.array([3.0, 1.0, 0.0])
    clf = MulticlassSVM(
        alpha=0.5, averaged=False, shuffle=False, max_epochs=1, record_history=True
    ).fit(X, y, sample_weight=weights)
    first = clf.history_.corrections[0]
    assert (first["sample"], first["t"]) == (0, 1)
    assert first["step"] == 1.5 / 0.5  # s = 3 * 2 / 4, eta_1 = 1 / 0.5
    assert (clf.history_.corrections["sample"] != 2).all()


@pytest.mark.parametrize("cls", WEIGHTED)
@pytest.mark.parametrize(
    "weights, match",
    [
        ([1.0, -1.0, 1.0, 1.0, 1.0, 1.0], "negative"),
        ([1.0, np.nan, 1.0, 1.0, 1.0, 1.0], "NaN or infinite"),
        ([1.0, np.inf, 1.0, 1.0, 1.0, 1.0], "NaN or infinite"),
        ([1.0, 1.0], r"shape \(6,\)"),
        (np.zeros(6), "zero for every sample"),
    ],
)
def test_bad_weights_are_refused(cls, weights, match):
    X = np.arange(12.0).reshape(6, 2)
    y = [0, 0, 1, 1, 2, 2]
    with pytest.raises(ValueError, match=match):
        cls().fit(X, y, sample_weight=weights)


@pytest.mark.parametrize("cls", WEIGHTED)
def test_the_callers_weights_are_left_alone(separable, cls):
    X, y = separable
    weights = np.linspace(0.5, 2.0, len(y))
    before = weights.copy()
    cls(random_state=0).fit(X, y, sample_weight=weights)
    np.testing.assert_array_equal(weights, before)


def test_piecewise_takes_no_weights(separable):
    X, y = separable
    with pytest.raises(TypeError, match="sample_weight"):
        PiecewiseLinearClassifier().fit(X, y, sample_weight=np.ones(len(y)))


def test_iris_weights_shift_the_boundary():
    """Up-weighting one class's samples makes the perceptron favour it."""
    X, y = load_iris(return_X_y=True)
    X = standardised(X)[:, :2]
    keep = y > 0
    X, y = X[keep], y[keep]
    heavy = np.where(y == 2, 10.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        plain = LinearMachine(averaged=True, random_state=0).fit(X, y)
        weighted = LinearMachine(averaged=True, random_state=0).fit(
            X, y, sample_weight=heavy
        )
    assert np.mean(weighted.predict(X) == 2) > np.mean(plain.predict(X) == 2)

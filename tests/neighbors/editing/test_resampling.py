"""The resamplers: imbalanced-learn's protocol, its own checks, pipelines, and
equality with the editing functions."""

import warnings

import numpy as np
import pandas as pd
import pytest
from imblearn.pipeline import make_pipeline
from imblearn.under_sampling import CondensedNearestNeighbour, EditedNearestNeighbours
from imblearn.utils.estimator_checks import parametrize_with_checks
from sklearn.model_selection import cross_val_score

from patrec.neighbors import (
    Condensing,
    EditCondensing,
    Editing,
    KNeighborsClassifier,
    MultiEditing,
    condense,
    edit,
    edit_condense,
    multiedit,
)

SAMPLERS = [
    Editing(),
    Editing(max_iter=10),
    MultiEditing(random_state=0),
    Condensing(),
    Condensing(random_state=0),
    EditCondensing(random_state=0),
]


@parametrize_with_checks(SAMPLERS)
def test_imbalanced_learn_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # classes edited away
        check(estimator)


def _imbalanced(seed=0):
    rng = np.random.default_rng(seed)
    sizes = (400, 250, 100)
    X = np.concatenate(
        [rng.normal(c, 1.0, (n, 2)) for c, n in zip((0, 2.0, 4.0), sizes)]
    )
    y = np.repeat(np.array(["big", "mid", "small"]), sizes)
    return X, y


PAIRS = [
    (Editing, edit, {}),
    (Editing, edit, {"max_iter": 5, "kind_sel": "all"}),
    (MultiEditing, multiedit, {"random_state": 3}),
    (Condensing, condense, {}),
    (Condensing, condense, {"random_state": 3}),
    (EditCondensing, edit_condense, {"random_state": 3}),
]


@pytest.mark.parametrize("sampler, function, params", PAIRS)
def test_resamplers_equal_their_functions(sampler, function, params):
    X, y = _imbalanced()
    resampler = sampler(sampling_strategy="all", **params)
    X_kept, y_kept = resampler.fit_resample(X, y)
    kept = function(X, y, **params)
    np.testing.assert_array_equal(resampler.sample_indices_, kept)
    np.testing.assert_array_equal(X_kept, X[kept])
    np.testing.assert_array_equal(y_kept, y[kept])
    # a list of classes is the functions' target_classes
    resampler = sampler(sampling_strategy=["mid"], **params).fit(X, y)
    np.testing.assert_array_equal(
        resampler.sample_indices_, function(X, y, target_classes=["mid"], **params)
    )
    assert resampler.sampling_strategy_ == {"mid": 100}


@pytest.mark.parametrize(
    "strategy, targeted",
    [
        ("auto", {"big", "mid"}),
        ("not minority", {"big", "mid"}),
        ("all", {"big", "mid", "small"}),
        ("majority", {"big"}),
        ("not majority", {"mid", "small"}),
        (["small", "big"], {"small", "big"}),
    ],
)
def test_sampling_strategy_chooses_the_classes(strategy, targeted):
    X, y = _imbalanced(1)
    sampler = Editing(sampling_strategy=strategy).fit(X, y)
    assert set(sampler.sampling_strategy_) == targeted
    kept = sampler.sample_indices_
    for label in ("big", "mid", "small"):
        before, after = np.sum(y == label), np.sum(y[kept] == label)
        assert (after < before) if label in targeted else (after == before)


def test_default_keeps_the_minority_like_imbalanced_learn():
    # the case: swapping imbalanced-learn's ENN for Editing keeps the
    # minority class whole
    rng = np.random.default_rng(2)
    X = np.r_[rng.normal(0, 1, (900, 2)), rng.normal(1, 1, (100, 2))]
    y = np.repeat([0, 1], [900, 100])
    _, ours = Editing(kind_sel="all").fit_resample(X, y)
    _, theirs = EditedNearestNeighbours().fit_resample(X, y)
    assert np.sum(ours == 1) == np.sum(theirs == 1) == 100
    # kind_sel="all" is imbalanced-learn's rule (ties aside, the same samples)
    theirs = EditedNearestNeighbours()
    theirs.fit_resample(X, y)
    np.testing.assert_array_equal(
        Editing(kind_sel="all").fit(X, y).sample_indices_, theirs.sample_indices_
    )
    assert np.sum(y[edit(X, y)] == 1) < 100  # the function thins every class


def test_condensing_keeps_untargeted_classes_and_is_consistent():
    X, y = _imbalanced(3)
    sampler = Condensing(random_state=0)
    X_kept, y_kept = sampler.fit_resample(X, y)
    assert np.sum(y_kept == "small") == 100
    predicted = KNeighborsClassifier(n_neighbors=1).fit(X_kept, y_kept).predict(X)
    np.testing.assert_array_equal(predicted, y)
    # imbalanced-learn's CNN keeps the minority whole as well
    _, theirs = CondensedNearestNeighbour(random_state=0).fit_resample(X, y)
    assert np.sum(theirs == "small") == 100


@pytest.mark.parametrize(
    "sampler",
    [
        Editing(),
        MultiEditing(random_state=0),
        Condensing(),
        EditCondensing(random_state=0),
    ],
)
def test_in_an_imbalanced_learn_pipeline(sampler):
    X, y = _imbalanced(4)
    model = make_pipeline(sampler, KNeighborsClassifier(n_neighbors=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        scores = cross_val_score(model, X, y, cv=3)
    assert scores.mean() > 0.5
    model.fit(X, y)
    fitted = model.steps[0][1]
    n_kept = len(fitted.sample_indices_)
    assert model.steps[1][1].n_samples_fit_ == n_kept
    assert len(model.predict(X)) == len(X)  # prediction skips the sampler


def test_output_types_follow_the_input():
    X, y = _imbalanced(5)
    frame = pd.DataFrame(X, columns=["a", "b"])
    series = pd.Series(y, name="label")
    X_kept, y_kept = Editing().fit_resample(frame, series)
    assert list(X_kept.columns) == ["a", "b"] and y_kept.name == "label"
    sampler = Editing().fit(frame, series)
    np.testing.assert_array_equal(sampler.get_feature_names_out(), ["a", "b"])
    X_list, y_list = Editing().fit_resample(X.tolist(), y.tolist())
    assert isinstance(X_list, list) and isinstance(y_list, list)
    np.testing.assert_array_equal(X_list, X_kept.to_numpy())
    X32, y32 = Editing().fit_resample(
        X.astype(np.float32), np.unique(y, return_inverse=True)[1].astype(np.int32)
    )
    assert X32.dtype == np.float32 and y32.dtype == np.int32


def test_bad_inputs_are_refused():
    X, y = _imbalanced(6)
    with pytest.raises(ValueError, match="one class"):
        Editing().fit_resample(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="sampling_strategy"):
        Editing(sampling_strategy="minority").fit_resample(X, y)
    with pytest.raises(ValueError, match="not classes"):
        Editing(sampling_strategy=["nope"]).fit_resample(X, y)
    with pytest.raises(TypeError, match="sampling_strategy"):
        Editing(sampling_strategy={"big": 10}).fit_resample(X, y)
    with pytest.raises(ValueError, match="Multilabel"):
        Editing().fit_resample(X[:20], np.random.default_rng(0).integers(0, 2, (20, 3)))
    with pytest.raises(ValueError, match="n_splits"):
        MultiEditing(n_splits=5).fit_resample(X[[0, 1, 700, 701]], y[[0, 1, 700, 701]])
    with pytest.raises(ValueError, match="kind_sel"):
        Editing(kind_sel="any").fit_resample(X, y)
    X_before, y_before = X.copy(), y.copy()
    for sampler in (Editing(), MultiEditing(), Condensing(), EditCondensing()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            sampler.fit_resample(X, y)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


@pytest.mark.parametrize(
    "sampler, bad",
    [
        (Editing(), {"n_neighbors": 50}),
        (MultiEditing(), {"n_splits": 50}),
        (Condensing(), {"metric": "nope"}),
        (EditCondensing(), {"n_splits": 50}),
    ],
    ids=["Editing", "MultiEditing", "Condensing", "EditCondensing"],
)
def test_a_refused_refit_leaves_the_fitted_resampler_as_it_was(sampler, bad):
    # the editing function checks its parameters after the data: the attributes of
    # the earlier fit used to be dropped (and half replaced) by then
    X, y = _imbalanced(6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        sampler.fit_resample(X, y)
    before = dict(vars(sampler))
    sampler.set_params(**bad)
    with pytest.raises(ValueError):
        sampler.fit_resample(pd.DataFrame(X[::20], columns=["a", "b"]), y[::20])
    after = {name: value for name, value in vars(sampler).items() if name.endswith("_")}
    assert after.keys() == {name for name in before if name.endswith("_")}
    assert all(after[name] is before[name] for name in after)


def test_verbose_reaches_stderr(capsys):
    X, y = _imbalanced(7)
    Condensing(verbose=1).fit_resample(X, y)
    assert capsys.readouterr().err.startswith("[condense] kept ")

"""FisherLDA and QDA alike: awkward inputs, numerical range, bad priors."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine

from patrec import QDA, FisherLDA

ESTIMATORS = {
    "lda-svd": lambda: FisherLDA(solver="svd"),
    "lda-eigen": lambda: FisherLDA(solver="eigen"),
    "lda-auto": lambda: FisherLDA(solver="eigen", shrinkage="auto"),
    "qda": lambda: QDA(),
}
each_estimator = pytest.mark.parametrize("make", ESTIMATORS.values(), ids=ESTIMATORS)


@each_estimator
@pytest.mark.parametrize(
    "offset, dtype, atol", [(1e8, np.float64, 1e-6), (1e2, np.float32, 1e-4)]
)
def test_translating_the_data_changes_nothing(make, offset, dtype, atol):
    """Both models are translation invariant.  Features far from zero must not cancel
    away the digits of the discriminants (scikit-learn's eigen solver loses every
    digit at an offset of 1e8)."""
    X, y = load_wine(return_X_y=True)
    expected = make().fit(X, y).predict_proba(X)
    shifted = (X + offset).astype(dtype)
    np.testing.assert_allclose(
        make().fit(shifted, y).predict_proba(shifted), expected, atol=atol
    )


@each_estimator
def test_tiny_float32_features_are_scored_without_overflow(make):
    """Features around 1e-38 (float32's smallest normal numbers) give weights or
    inverse Cholesky factors beyond the float32 range: the scores must then be
    computed in float64 rather than come out as NaN."""
    X, y = load_iris(return_X_y=True)
    expected = make().fit(X, y).predict_proba(X)
    tiny = (X * 1e-38).astype(np.float32)
    clf = make().fit(tiny, y)
    np.testing.assert_allclose(clf.predict_proba(tiny), expected, atol=1e-4)
    if hasattr(clf, "transform"):
        assert np.all(np.isfinite(clf.transform(tiny)))


@pytest.mark.parametrize(
    "make",
    [ESTIMATORS["lda-eigen"], ESTIMATORS["lda-auto"]],
    ids=["lda-eigen", "lda-auto"],
)
@pytest.mark.parametrize("scale, word", [(1e160, "too large"), (1e-200, "too small")])
def test_covariance_beyond_the_float64_range_is_refused(make, scale, word):
    """The eigen solver stores covariance_, whose entries near 1e320 or 1e-400 have
    no float64 value; the svd solver and QDA need no such attribute."""
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=f"{word} to represent covariance_.*Rescale"):
        make().fit(X * scale, y)


@each_estimator
@pytest.mark.parametrize("scale", [1e-300, 1e-310, 1e-320])
def test_subnormal_features_are_refused_or_fitted_never_nan(make, scale):
    # features of 1e-320 keep three digits; whatever a method cannot represent of
    # them is refused by name, and nothing infinite or NaN is ever stored
    X, y = load_iris(return_X_y=True)
    try:
        clf = make().fit(X * scale, y)
    except ValueError as error:
        assert "too small" in str(error) and "Rescale" in str(error)
        return
    for name in ("coef_", "intercept_", "scalings_", "means_"):
        if hasattr(clf, name):
            assert np.all(np.isfinite(getattr(clf, name))), name
    assert np.all(np.isfinite(clf.predict_proba(X * scale)))
    assert clf.score(X * scale, y) > 0.9


def test_qda_refuses_a_regularisation_that_swamps_tiny_features():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="too small for reg_param > 0"):
        QDA(reg_param=0.1).fit(X * 1e-200, y)


@pytest.mark.parametrize(
    "make, scale",
    [
        *[
            (ESTIMATORS[name], scale)
            for name in ESTIMATORS
            for scale in (1e150, 1e-150)
        ],
        *[
            (ESTIMATORS[name], scale)
            for name in ("lda-svd", "qda")
            for scale in (1e300, 1e-300, 1e160, 1e-200)
        ],
    ],
)
def test_large_but_representable_features(make, scale):
    """Features near 1e150 (whose squares overflow) are rescaled internally by powers
    of two: the same posteriors as on the unscaled data."""
    X, y = load_iris(return_X_y=True)
    expected = make().fit(X, y).predict_proba(X)
    clf = make().fit(X * scale, y)
    np.testing.assert_allclose(clf.predict_proba(X * scale), expected, atol=1e-10)


@pytest.mark.parametrize("scale", [1e150, 1e-150])
@pytest.mark.parametrize("solver", ["svd", "eigen"])
def test_fisher_attributes_are_in_the_units_of_X(solver, scale):
    X, y = load_iris(return_X_y=True)
    plain = FisherLDA(solver=solver).fit(X, y)
    scaled = FisherLDA(solver=solver).fit(X * scale, y)
    np.testing.assert_allclose(scaled.means_, plain.means_ * scale, rtol=1e-10)
    np.testing.assert_allclose(scaled.coef_, plain.coef_ / scale, rtol=1e-8)
    np.testing.assert_allclose(scaled.intercept_, plain.intercept_, rtol=1e-8)
    # the directions with eigenvalue zero (beyond c - 1) are not unique
    np.testing.assert_allclose(
        scaled.scalings_[:, :2], plain.scalings_[:, :2] / scale, rtol=1e-8
    )
    if solver == "eigen":
        np.testing.assert_allclose(
            scaled.covariance_, plain.covariance_ * scale**2, rtol=1e-10
        )
    else:
        np.testing.assert_allclose(scaled.xbar_, plain.xbar_ * scale, rtol=1e-10)
    np.testing.assert_allclose(
        scaled.transform(X * scale), plain.transform(X), atol=1e-8
    )


@pytest.mark.parametrize("scale", [1e150, 1e-150])
def test_qda_attributes_are_in_the_units_of_X(scale):
    X, y = load_iris(return_X_y=True)
    plain = QDA(store_covariance=True).fit(X, y)
    scaled = QDA(store_covariance=True).fit(X * scale, y)
    np.testing.assert_allclose(scaled.means_, plain.means_ * scale, rtol=1e-10)
    np.testing.assert_allclose(
        scaled.covariance_, plain.covariance_ * scale**2, rtol=1e-10
    )
    np.testing.assert_allclose(
        scaled.precision_factors_, plain.precision_factors_ / scale, rtol=1e-8, atol=0
    )
    d = X.shape[1]
    np.testing.assert_allclose(
        scaled.log_determinants_,
        plain.log_determinants_ + 2 * d * np.log(scale),
        rtol=1e-12,
    )


@each_estimator
def test_unusual_arrays_give_the_same_model_and_are_not_modified(make):
    pd = pytest.importorskip("pandas")
    X, y = load_wine(return_X_y=True)
    expected = make().fit(X, y).predict_proba(X)
    readonly = X.copy()
    readonly.setflags(write=False)
    strided = np.repeat(X, 2, axis=1)[:, ::2]
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    for data in (readonly, np.asfortranarray(X), strided, frame):
        before = np.array(data, copy=True)
        clf = make().fit(data, y)
        np.testing.assert_allclose(clf.predict_proba(data), expected, atol=1e-12)
        np.testing.assert_array_equal(np.asarray(data), before)
    assert list(make().fit(frame, y).feature_names_in_) == list(frame.columns)


@each_estimator
def test_priors_given_as_an_array_are_not_modified(make):
    X, y = load_iris(return_X_y=True)
    priors = np.array([0.2, 0.3, 0.5])
    clf = make().set_params(priors=priors).fit(X, y)
    np.testing.assert_array_equal(priors, [0.2, 0.3, 0.5])
    np.testing.assert_allclose(clf.priors_, priors)
    assert not np.shares_memory(clf.priors_, priors)


@each_estimator
def test_not_fitted_and_wrong_feature_count(make):
    X, y = load_iris(return_X_y=True)
    methods = ["predict", "predict_proba", "predict_log_proba", "decision_function"]
    if hasattr(make(), "transform"):
        methods.append("transform")
    for method in methods:
        with pytest.raises(ValueError, match="not fitted"):
            getattr(make(), method)(X)
    clf = make().fit(X, y)
    for method in methods:
        with pytest.raises(ValueError, match="X has 3 features.*expecting 4"):
            getattr(clf, method)(X[:, :3])


@each_estimator
@pytest.mark.parametrize(
    "priors, message",
    [
        ([0.5, 0.6, 0.1], "sum to 1"),
        ([0.5, 0.5], "one entry per class"),
        ([0.2, 0.3, 0.3, 0.2], "one entry per class"),
        ([[0.2, 0.3, 0.5]], "one entry per class"),
        ([1.2, -0.1, -0.1], "positive"),
        ([0.0, 0.5, 0.5], "positive"),
        ([np.nan, 0.5, 0.5], "finite"),
        (["a", "b", "c"], "numbers"),
        (0.5, "sequence"),
        ("abc", "sequence"),
    ],
)
def test_bad_priors(make, priors, message):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=message):
        make().set_params(priors=priors).fit(X, y)


@each_estimator
def test_a_failed_refit_restores_the_previous_model(make):
    """A refit that fails (or is interrupted) leaves the estimator as it was before."""
    X, y = load_iris(return_X_y=True)
    clf = make().fit(X, y)
    expected = clf.predict_proba(X)
    with pytest.raises(ValueError, match="priors"):
        clf.set_params(priors=[0.5, 0.6, 0.1]).fit(X, y)
    np.testing.assert_array_equal(clf.predict_proba(X), expected)
    X_bad = X.copy()
    X_bad[y == 2, 3] = 1.0  # constant within class 2: QDA's covariance is singular
    if isinstance(clf, QDA):
        with pytest.raises(ValueError, match="class 2 is singular"):
            clf.set_params(priors=None).fit(X_bad, y)
        np.testing.assert_array_equal(clf.predict_proba(X), expected)

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
@pytest.mark.parametrize("offset, dtype, atol", [(1e8, np.float64, 1e-6),
                                                 (1e2, np.float32, 1e-4)])
def test_translating_the_data_changes_nothing(make, offset, dtype, atol):
    """Both models are translation invariant.  Features far from zero must not cancel
    away the digits of the discriminants (scikit-learn's eigen solver loses every
    digit at an offset of 1e8)."""
    X, y = load_wine(return_X_y=True)
    expected = make().fit(X, y).predict_proba(X)
    shifted = (X + offset).astype(dtype)
    np.testing.assert_allclose(make().fit(shifted, y).predict_proba(shifted), expected,
                               atol=atol)


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


@each_estimator
@pytest.mark.parametrize("scale, word", [(1e160, "too large"), (1e-200, "too small")])
def test_features_beyond_the_float64_range_are_refused(make, scale, word):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=f"{word}.*Rescale the features"):
        make().fit(X * scale, y)


@each_estimator
@pytest.mark.parametrize("scale", [1e150, 1e-150])
def test_large_but_representable_features(make, scale):
    X, y = load_iris(return_X_y=True)
    expected = make().fit(X, y).predict_proba(X)
    clf = make().fit(X * scale, y)
    np.testing.assert_allclose(clf.predict_proba(X * scale), expected, atol=1e-10)


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
def test_a_failed_fit_leaves_no_model_behind(make):
    """A refit that fails must not leave the previous model for predict to use."""
    X, y = load_iris(return_X_y=True)
    clf = make().fit(X, y)
    with pytest.raises(ValueError, match="priors"):
        clf.set_params(priors=[0.5, 0.6, 0.1]).fit(X, y)
    with pytest.raises(AttributeError):
        clf.predict(X)
    X_bad = X.copy()
    X_bad[y == 2, 3] = 1.0  # constant within class 2: QDA's covariance is singular
    if isinstance(clf, QDA):
        with pytest.raises(ValueError, match="class 2 is singular"):
            clf.set_params(priors=None).fit(X_bad, y)
        assert not hasattr(clf, "means_")


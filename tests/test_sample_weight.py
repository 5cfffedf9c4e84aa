"""sample_weight in fit: integer weights are the samples repeated, zero is leaving out.

Softmax regression, Fisher LDA, QDA and the minimum-distance classifier define their
weighted estimates so that a weight of w counts a sample exactly w times: the fitted
model equals the one fitted on ``np.repeat(X, w, axis=0)``.
"""

import numpy as np
import pytest

from patrec import (
    QDA,
    FisherLDA,
    LinearMachine,
    MinimumDistanceClassifier,
    MulticlassSVM,
    Perceptron,
    SoftmaxRegression,
)
from patrec.linear.softmax import SoftmaxObjective

WEIGHTED = [SoftmaxRegression, FisherLDA, QDA, MinimumDistanceClassifier]


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    means = np.array([[0.0, 0.0, 0.0], [2.0, 1.0, 0.0], [0.0, 2.5, 1.0]])
    X = np.vstack(
        [m + rng.normal(size=(25, 3)) @ np.diag([1.0, 0.7, 1.3]) for m in means]
    )
    y = np.repeat(["a", "b", "c"], 25)
    weights = rng.integers(0, 4, size=len(y))
    weights[::25] = 2  # every class keeps some weight
    return X, y, weights


def repeated(X, y, weights):
    return np.repeat(X, weights, axis=0), np.repeat(y, weights)


def test_softmax_objective_of_integer_weights_is_that_of_repeated_samples(data):
    X, y, w = data
    codes = np.searchsorted(np.unique(y), y)
    X_rep, codes_rep = repeated(X, codes, w)
    weighted = SoftmaxObjective(X, codes, 3, 0.7, True, w.astype(float))
    plain = SoftmaxObjective(X_rep, codes_rep, 3, 0.7, True)
    theta = np.random.default_rng(1).normal(size=weighted.size)
    (loss_w, grad_w), (loss_r, grad_r) = weighted(theta), plain(theta)
    assert loss_w == pytest.approx(loss_r, rel=1e-13)
    np.testing.assert_allclose(grad_w, grad_r, rtol=1e-12, atol=1e-14)


def test_softmax_fit_with_integer_weights_equals_repeated_samples(data):
    X, y, w = data
    fitted = SoftmaxRegression(C=0.7, tol=1e-10).fit(X, y, sample_weight=w)
    reference = SoftmaxRegression(C=0.7, tol=1e-10).fit(*repeated(X, y, w))
    np.testing.assert_allclose(fitted.coef_, reference.coef_, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(fitted.intercept_, reference.intercept_, atol=1e-7)
    np.testing.assert_allclose(
        fitted.predict_proba(X), reference.predict_proba(X), atol=1e-8
    )


@pytest.mark.parametrize(
    "params",
    [
        {"solver": "svd"},
        {"solver": "eigen"},
        {"solver": "eigen", "shrinkage": 0.3},
        {"solver": "eigen", "shrinkage": "auto"},
        {"solver": "svd", "priors": [0.2, 0.3, 0.5]},
    ],
)
def test_fisher_lda_weighted_estimates_equal_repeated_samples(data, params):
    X, y, w = data
    fitted = FisherLDA(**params).fit(X, y, sample_weight=w)
    reference = FisherLDA(**params).fit(*repeated(X, y, w))
    for name in (
        "means_",
        "priors_",
        "coef_",
        "intercept_",
        "explained_variance_ratio_",
    ):
        np.testing.assert_allclose(
            getattr(fitted, name),
            getattr(reference, name),
            rtol=1e-10,
            atol=1e-12,
            err_msg=name,
        )
    if params["solver"] == "eigen":  # the pooled covariance sum w (x - m)(x - m)^T / W
        np.testing.assert_allclose(
            fitted.covariance_, reference.covariance_, rtol=1e-10
        )
    np.testing.assert_allclose(
        np.abs(fitted.transform(X)),
        np.abs(reference.transform(X)),
        rtol=1e-8,
        atol=1e-10,
    )
    np.testing.assert_allclose(
        fitted.predict_proba(X), reference.predict_proba(X), rtol=1e-9, atol=1e-12
    )
    if params.get("shrinkage") == "auto":
        return  # the Ledoit-Wolf intensity depends on the total weight, n
    # weights are proportions of a whole: scaling them all changes nothing
    scaled = FisherLDA(**params).fit(X, y, sample_weight=w / 7.0)
    np.testing.assert_allclose(scaled.coef_, fitted.coef_, rtol=1e-10, atol=1e-12)


def test_fisher_lda_weighted_covariance_formula(data):
    X, y, w = data
    clf = FisherLDA(solver="eigen").fit(X, y, sample_weight=w)
    codes = np.searchsorted(clf.classes_, y)
    totals = np.bincount(codes, weights=w)
    means = np.array([w[codes == k] @ X[codes == k] / totals[k] for k in range(3)])
    deviations = X - means[codes]
    expected = (deviations * w[:, None]).T @ deviations / w.sum()
    np.testing.assert_allclose(clf.means_, means, rtol=1e-12)
    np.testing.assert_allclose(clf.covariance_, expected, rtol=1e-12)
    np.testing.assert_allclose(clf.priors_, totals / w.sum(), rtol=1e-12)


@pytest.mark.parametrize("reg_param", [0.0, 0.2])
def test_qda_weighted_estimates_equal_repeated_samples(data, reg_param):
    X, y, w = data
    fitted = QDA(reg_param=reg_param, store_covariance=True).fit(X, y, sample_weight=w)
    reference = QDA(reg_param=reg_param, store_covariance=True).fit(*repeated(X, y, w))
    for name in (
        "means_",
        "priors_",
        "covariance_",
        "precision_factors_",
        "log_determinants_",
    ):
        np.testing.assert_allclose(
            getattr(fitted, name),
            getattr(reference, name),
            rtol=1e-10,
            atol=1e-12,
            err_msg=name,
        )
    np.testing.assert_allclose(
        fitted.predict_proba(X), reference.predict_proba(X), rtol=1e-9, atol=1e-12
    )
    # the formula itself: N_i - 1 becomes W_i - 1
    codes = np.searchsorted(fitted.classes_, y)
    inside = codes == 1
    total = w[inside].sum()
    mean = w[inside] @ X[inside] / total
    deviations = X[inside] - mean
    covariance = (deviations * w[inside, None]).T @ deviations / (total - 1)
    covariance = (1 - reg_param) * covariance + reg_param * np.eye(3)
    np.testing.assert_allclose(fitted.covariance_[1], covariance, rtol=1e-12)


def test_qda_refuses_class_weights_summing_to_one_or_less(data):
    X, y, _ = data
    with pytest.raises(
        ValueError, match="weights of class 'a' sum to 0.5: QDA divides"
    ):
        QDA().fit(X, y, sample_weight=np.where(y == "a", 0.02, 1.0))


def test_minimum_distance_weighted_means_equal_repeated_samples(data):
    X, y, w = data
    fitted = MinimumDistanceClassifier().fit(X, y, sample_weight=w)
    reference = MinimumDistanceClassifier().fit(*repeated(X, y, w))
    np.testing.assert_allclose(fitted.prototypes_, reference.prototypes_, rtol=1e-12)
    codes = np.searchsorted(fitted.classes_, y)
    expected = [w[codes == k] @ X[codes == k] / w[codes == k].sum() for k in range(3)]
    np.testing.assert_allclose(fitted.prototypes_, expected, rtol=1e-12)


def test_minimum_distance_weighted_kmeans_equals_repeated_samples_with_unit_weights(
    data,
):
    X, y, w = data
    fitted = MinimumDistanceClassifier(n_prototypes=3, random_state=4).fit(
        X, y, sample_weight=w
    )
    X_rep, y_rep = repeated(X, y, w)
    reference = MinimumDistanceClassifier(n_prototypes=3, random_state=4).fit(
        X_rep, y_rep, sample_weight=np.ones(len(y_rep))
    )
    np.testing.assert_allclose(fitted.prototypes_, reference.prototypes_, rtol=1e-10)
    # each prototype is the weighted mean of the samples nearest to it in its class
    codes = np.searchsorted(fitted.classes_, y)
    for k in range(3):
        members, weights = X[codes == k], w[codes == k]
        own = fitted.prototypes_[fitted.prototype_labels_ == fitted.classes_[k]]
        nearest = np.argmin(((members[:, None] - own[None]) ** 2).sum(axis=2), axis=1)
        for p in range(3):
            chosen = (nearest == p) & (weights > 0)
            np.testing.assert_allclose(
                own[p],
                weights[chosen] @ members[chosen] / weights[chosen].sum(),
                rtol=1e-10,
            )


@pytest.mark.parametrize("cls", WEIGHTED)
def test_zero_weight_is_leaving_the_sample_out(cls, data):
    X, y, w = data
    weights = np.ones(len(y))
    weights[5:40:3] = 0
    kept = weights > 0
    fitted = cls().fit(X, y, sample_weight=weights)
    reference = cls().fit(X[kept], y[kept])
    scores = getattr(fitted, "predict_proba", None) or fitted.decision_function
    other = getattr(reference, "predict_proba", None) or reference.decision_function
    np.testing.assert_allclose(scores(X), other(X), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("cls", WEIGHTED)
def test_unit_weights_change_nothing_and_weights_are_not_modified(cls, data):
    X, y, _ = data
    weights = np.ones(len(y))
    fitted = cls().fit(X, y, sample_weight=weights)
    assert np.array_equal(weights, np.ones(len(y)))
    np.testing.assert_array_equal(fitted.predict(X), cls().fit(X, y).predict(X))


@pytest.mark.parametrize("cls", WEIGHTED)
@pytest.mark.parametrize(
    "weights, error, message",
    [
        (-np.ones(75), ValueError, "negative values"),
        (np.full(75, np.nan), ValueError, "NaN or infinite"),
        (np.full(75, np.inf), ValueError, "NaN or infinite"),
        (
            np.ones(74),
            ValueError,
            r"shape \(75,\), one weight per sample; got shape \(74,\)",
        ),
        (np.zeros(75), ValueError, "zero for every sample"),
        (
            np.repeat([0.0, 1.0, 1.0], 25),
            ValueError,
            "zero for every sample of class 'a'",
        ),
        (["x"] * 75, TypeError, "must hold numbers"),
    ],
)
def test_bad_weights_are_refused_by_name(cls, data, weights, error, message):
    X, y, _ = data
    if cls is SoftmaxRegression and "of class" in message:
        # the softmax objective is defined without any weight on a class (its score
        # is pushed down everywhere), as in scikit-learn
        SoftmaxRegression().fit(X, y, sample_weight=weights)
        return
    with pytest.raises(error, match=message):
        cls().fit(X, y, sample_weight=weights)
    assert not hasattr(cls(), "classes_")


# Estimates that are ratios of weighted sums (means, scatters over the total weight)
# do not change when every weight is multiplied by the same number, however large or
# small: a power of two leaves them bit for bit the same.
SCALE_FREE = {
    "fisher-svd": lambda: FisherLDA(),
    "fisher-eigen": lambda: FisherLDA(solver="eigen"),
    "fisher-shrunk": lambda: FisherLDA(solver="eigen", shrinkage=0.3),
    "minimum-distance": lambda: MinimumDistanceClassifier(),
    "minimum-distance-kmeans": lambda: MinimumDistanceClassifier(
        n_prototypes=3, random_state=0
    ),
    "multiclass-svm": lambda: MulticlassSVM(random_state=0),
}


def _fitted_state(model):
    names = ("prototypes_", "coef_", "intercept_", "scalings_", "means_")
    return {name: getattr(model, name) for name in names if hasattr(model, name)}


@pytest.mark.parametrize("exponent", [1000, -1060])
@pytest.mark.parametrize("name", SCALE_FREE)
def test_weights_times_a_power_of_two_change_nothing_at_the_range_ends(
    name, exponent, data
):
    X, y, w = data
    reference = _fitted_state(SCALE_FREE[name]().fit(X, y, sample_weight=w))
    scaled = np.ldexp(w.astype(float), exponent)  # near 1e301, or subnormal
    fitted = _fitted_state(SCALE_FREE[name]().fit(X, y, sample_weight=scaled))
    assert fitted.keys() == reference.keys()
    for key in reference:
        np.testing.assert_array_equal(fitted[key], reference[key], err_msg=key)


@pytest.mark.parametrize("factor", [1e307, 1e-309])
@pytest.mark.parametrize("name", SCALE_FREE)
def test_huge_or_tiny_weights_fit_the_same_model(name, factor, data):
    # the weights' sums overflow (150 * 1e307) or lose their digits (subnormal)
    X, y, w = data
    reference = SCALE_FREE[name]().fit(X, y, sample_weight=w)
    with np.errstate(over="raise", invalid="raise"):  # no overflow, no NaN
        fitted = SCALE_FREE[name]().fit(X, y, sample_weight=w * factor)
    for key, value in _fitted_state(reference).items():
        np.testing.assert_allclose(
            getattr(fitted, key), value, rtol=1e-9, atol=1e-12, err_msg=key
        )
    np.testing.assert_array_equal(fitted.predict(X), reference.predict(X))


def test_ledoit_wolf_shrinks_less_the_more_samples_the_weights_stand_for(data):
    # with shrinkage="auto" the total weight is the number of samples: 1e307 times
    # the counts is so many that nothing is shrunk (the limit), not an overflow
    X, y, w = data
    counted = FisherLDA(solver="eigen", shrinkage="auto").fit(X, y, sample_weight=w)
    many = FisherLDA(solver="eigen", shrinkage="auto").fit(
        X, y, sample_weight=w * 1e307
    )
    unshrunk = FisherLDA(solver="eigen").fit(X, y, sample_weight=w)
    np.testing.assert_allclose(many.covariance_, unshrunk.covariance_, rtol=1e-12)
    assert not np.allclose(counted.covariance_, unshrunk.covariance_, rtol=1e-6)


@pytest.mark.filterwarnings("ignore::patrec.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("cls", [Perceptron, LinearMachine])
def test_an_overflow_from_the_weights_names_them(cls, data):
    X, y, _ = data
    with pytest.raises(ValueError, match="overflowed float64") as caught:
        cls(random_state=0).fit(X, y, sample_weight=np.full(len(y), 1e308))
    assert "largest sample_weight = 1e+308" in str(caught.value)
    assert "divide sample_weight by its largest value" in str(caught.value)
    with pytest.raises(ValueError, match="overflowed float64") as caught:
        cls(random_state=0).fit(X * 1e307, y)
    assert "sample_weight" not in str(caught.value)


def test_softmax_weights_near_the_top_of_the_range_are_a_larger_c(data):
    # J = C sum_i w_i loss_i + |W|^2 / 2: weights of 1e307 are C = 1e307 (the sums
    # used to overflow, and L-BFGS stopped at once at zero weights)
    X, y, _ = data
    weighted = SoftmaxRegression(C=1.0).fit(X, y, sample_weight=np.full(len(y), 1e307))
    plain = SoftmaxRegression(C=1e307).fit(X, y)
    np.testing.assert_allclose(weighted.coef_, plain.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_array_equal(weighted.predict(X), plain.predict(X))


@pytest.mark.parametrize("factor", [1e20, 1e306])
def test_qda_counts_far_beyond_one_fit_the_same_model(factor, data):
    # with totals above 2**53, W_i - 1 = W_i: any such scale gives the same model,
    # and 1e306 no longer overflows the sums (it used to blame the features)
    X, y, w = data
    reference = QDA().fit(X, y, sample_weight=w * 1e18)
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        fitted = QDA().fit(X, y, sample_weight=w * factor)
    np.testing.assert_allclose(fitted.priors_, reference.priors_, rtol=1e-14)
    np.testing.assert_allclose(
        fitted.predict_proba(X), reference.predict_proba(X), rtol=1e-9, atol=1e-12
    )


def test_qda_refuses_class_totals_beyond_float64_by_name(data):
    X, y, w = data
    with pytest.raises(ValueError, match="sum to more than float64 holds.*counts"):
        QDA().fit(X, y, sample_weight=np.full(len(y), 1e307))

"""MinimumDistanceClassifier against a brute-force numpy reference."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from patrec import MinimumDistanceClassifier
from patrec.datasets import make_gaussian_classes

METRICS = [
    ("euclidean", {}),
    ("sqeuclidean", {}),
    ("cityblock", {}),
    ("chebyshev", {}),
    ("minkowski", {"p": 3}),
    ("minkowski", {"p": 1.5}),
    ("mahalanobis", {}),
]


def reference_scores(X, prototypes, labels, classes, metric, **scipy_params):
    """-min distance per class, computed with SciPy in float64."""
    D = cdist(X, prototypes, metric, **scipy_params)
    return -np.column_stack([D[:, labels == c].min(axis=1) for c in classes])


def data(seed, n_features=4, n_classes=3):
    rng = np.random.default_rng(seed)
    means = rng.normal(scale=3, size=(n_classes, n_features))
    return make_gaussian_classes(means, 1.0, 40, random_state=seed)


@pytest.mark.parametrize("metric, params", METRICS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_prototypes", [1, 3])
def test_agrees_with_brute_force(metric, params, dtype, n_prototypes):
    X, y = data(1)
    X = X.astype(dtype)
    scipy_params = dict(params)
    if metric == "mahalanobis":
        A = np.random.default_rng(2).normal(size=(4, 4))
        scipy_params = {"VI": A @ A.T + np.eye(4)}
        params = {"metric_params": scipy_params}
    clf = MinimumDistanceClassifier(
        n_prototypes=n_prototypes, metric=metric, random_state=0, **params
    ).fit(X, y)
    assert clf.prototypes_.dtype == dtype
    assert clf.prototypes_.shape == (3 * n_prototypes, 4)
    queries = np.random.default_rng(3).normal(scale=4, size=(200, 4)).astype(dtype)
    expected = reference_scores(
        queries.astype(np.float64),
        clf.prototypes_.astype(np.float64),
        clf.prototype_labels_,
        clf.classes_,
        metric,
        **scipy_params,
    )
    scores = clf.decision_function(queries)
    tolerance = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(scores, expected, rtol=tolerance, atol=tolerance)
    clear = np.sort(expected, axis=1)[:, -1] - np.sort(expected, axis=1)[:, -2] > 1e-3
    predicted = clf.predict(queries)
    np.testing.assert_array_equal(
        predicted[clear], clf.classes_[np.argmax(expected, axis=1)][clear]
    )


def test_one_prototype_per_class_is_the_class_mean():
    X, y = data(4)
    clf = MinimumDistanceClassifier().fit(X, y)
    for code, label in enumerate(clf.classes_):
        np.testing.assert_allclose(clf.prototypes_[code], X[y == label].mean(axis=0))
    np.testing.assert_array_equal(clf.prototype_labels_, clf.classes_)


def test_per_class_prototype_counts_and_string_labels():
    X, y = data(5)
    names = np.array(["ant", "bee", "cow"])[y]
    clf = MinimumDistanceClassifier(
        n_prototypes={"bee": 4, "cow": 2}, random_state=0
    ).fit(X, names)
    assert clf.prototype_labels_.tolist() == ["ant"] + ["bee"] * 4 + ["cow"] * 2
    assert set(clf.predict(X)) <= {"ant", "bee", "cow"}


def test_prototypes_capture_subclasses():
    """Two far-apart blobs per class: one mean per class fails, two succeed."""
    centres = np.array([[0, 0], [10, 10], [0, 10], [10, 0]], dtype=float)
    X, blob = make_gaussian_classes(centres, 0.5, 50, random_state=0)
    y = np.array([0, 0, 1, 1])[blob]
    one = MinimumDistanceClassifier().fit(X, y)
    two = MinimumDistanceClassifier(n_prototypes=2, random_state=0).fit(X, y)
    assert one.score(X, y) < 0.8
    assert two.score(X, y) == 1.0


def test_binary_decision_function_sign_matches_predict():
    X, y = data(6, n_classes=2)
    clf = MinimumDistanceClassifier().fit(X, y)
    scores = clf.decision_function(X)
    assert scores.shape == (len(X),)
    np.testing.assert_array_equal(
        clf.classes_[(scores > 0).astype(int)], clf.predict(X)
    )


def test_deterministic_with_random_state_and_n_jobs():
    X, y = data(7)
    a = MinimumDistanceClassifier(n_prototypes=3, random_state=5).fit(X, y)
    b = MinimumDistanceClassifier(n_prototypes=3, random_state=5, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(a.prototypes_, b.prototypes_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


@pytest.mark.parametrize(
    "params, error, message",
    [
        ({"n_prototypes": 0}, ValueError, "n_prototypes for class 0"),
        ({"n_prototypes": 2.5}, TypeError, "must be an integer"),
        ({"n_prototypes": 41}, ValueError, "only 40 training sample"),
        ({"n_prototypes": {7: 2}}, ValueError, "classes not in y"),
        ({"metric": "cosine"}, ValueError, "is not one of patrec.s metrics"),
        ({"metric": "minkowski", "p": 0.5}, ValueError, "p must be >= 1"),
        ({"metric": "mahalanobis"}, ValueError, "needs metric_params"),
        (
            {"metric": "mahalanobis", "metric_params": {"VI": np.eye(3)}},
            ValueError,
            "data have 4 features",
        ),
        (
            {"metric": "mahalanobis", "metric_params": {"VI": -np.eye(4)}},
            ValueError,
            "positive definite",
        ),
        (
            {
                "metric": "mahalanobis",
                "metric_params": {"VI": np.triu(np.ones((4, 4)))},
            },
            ValueError,
            "symmetric",
        ),
        ({"metric_params": {"w": 1}}, ValueError, "Unknown metric_params"),
        ({"n_jobs": 0}, ValueError, "n_jobs"),
    ],
)
def test_bad_parameters(params, error, message):
    X, y = data(8)
    clf = MinimumDistanceClassifier(**params)
    with pytest.raises(error, match=message):
        clf.fit(X, y).predict(X)


def test_huge_values_give_a_clear_error_not_wrong_answers():
    X, y = data(9)
    clf = MinimumDistanceClassifier().fit(X * 1e160, y)
    with pytest.raises(ValueError, match="overflow.*Rescale"):
        clf.predict(X * 1e160)
    # the Minkowski kernel factors out the largest difference: any p, any scale
    big_p = MinimumDistanceClassifier(metric="minkowski", p=1000).fit(X * 100, y)
    assert big_p.score(X * 100, y) == MinimumDistanceClassifier(metric="chebyshev").fit(
        X * 100, y
    ).score(X * 100, y)


def test_tiny_values_give_a_clear_error_not_wrong_answers():
    """Squared differences below float64's range make every distance 0: every
    sample would go to the first class."""
    X, y = data(9)
    clf = MinimumDistanceClassifier().fit(X * 1e-170, y)
    for method in (clf.predict, clf.decision_function):
        with pytest.raises(ValueError, match="underflow.*Rescale"):
            method(X * 1e-170)
    # a sample equal to a prototype is at distance 0 without any underflow
    exact = MinimumDistanceClassifier().fit(X, y)
    np.testing.assert_array_equal(
        exact.predict(exact.prototypes_), exact.classes_[exact._prototype_codes]
    )


def test_minkowski_infinite_p_is_chebyshev():
    X, y = data(10)
    a = MinimumDistanceClassifier(metric="minkowski", p=np.inf).fit(X, y)
    b = MinimumDistanceClassifier(metric="chebyshev").fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_float32_queries_on_a_float64_model_computed_in_float64():
    X, y = data(11)
    clf = MinimumDistanceClassifier().fit(X, y)
    scores = clf.decision_function(X.astype(np.float32))
    assert scores.dtype == np.float64
    np.testing.assert_allclose(
        scores, clf.decision_function(X.astype(np.float32).astype(np.float64))
    )


@pytest.mark.parametrize("n_prototypes", [1, 3])
def test_centroids_are_scikit_learns_nearest_centroids(n_prototypes):
    from sklearn.neighbors import NearestCentroid

    from patrec.datasets import load_wine

    X, y = load_wine(return_X_y=True)
    clf = MinimumDistanceClassifier(n_prototypes=n_prototypes, random_state=0)
    clf.fit(X, y)
    np.testing.assert_allclose(
        clf.centroids_, NearestCentroid().fit(X, y).centroids_, rtol=1e-12
    )
    if n_prototypes == 1:
        np.testing.assert_array_equal(clf.centroids_, clf.prototypes_)
    weights = np.random.default_rng(0).uniform(0.5, 2, size=len(y))
    weighted = MinimumDistanceClassifier(n_prototypes=n_prototypes, random_state=0)
    weighted.fit(X, y, sample_weight=weights)
    for code, label in enumerate(weighted.classes_):
        inside = y == label
        np.testing.assert_allclose(
            weighted.centroids_[code],
            np.average(X[inside], axis=0, weights=weights[inside]),
            rtol=1e-12,
        )

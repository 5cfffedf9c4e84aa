"""pairwise_distances against SciPy's cdist for every metric and both dtypes."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from patrec.neighbors import pairwise_distances

CASES = [
    ("euclidean", {}, "euclidean", {}),
    ("sqeuclidean", {}, "sqeuclidean", {}),
    ("cityblock", {}, "cityblock", {}),
    ("chebyshev", {}, "chebyshev", {}),
    ("minkowski", {"p": 1}, "cityblock", {}),
    ("minkowski", {"p": 2}, "euclidean", {}),
    ("minkowski", {"p": np.inf}, "chebyshev", {}),
    ("minkowski", {"p": 3.5}, "minkowski", {"p": 3.5}),
]


@pytest.mark.parametrize("metric, params, scipy_metric, scipy_params", CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_features", [1, 3, 8, 17])
def test_matches_scipy(metric, params, scipy_metric, scipy_params, dtype, n_features):
    rng = np.random.default_rng(n_features)
    X = rng.normal(size=(23, n_features)).astype(dtype)
    Y = rng.normal(size=(11, n_features)).astype(dtype)
    D = pairwise_distances(X, Y, metric, **params)
    assert D.dtype == dtype and D.shape == (23, 11)
    expected = cdist(X.astype(float), Y.astype(float), scipy_metric, **scipy_params)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(D, expected, rtol=tol, atol=tol)


def test_mahalanobis_is_the_root_of_the_quadratic_form():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(5, 5))
    Q = A @ A.T + 0.5 * np.eye(5)
    X, Y = rng.normal(size=(7, 5)), rng.normal(size=(4, 5))
    D = pairwise_distances(X, Y, "mahalanobis", metric_params={"VI": Q})
    diff = X[:, None, :] - Y[None, :, :]
    quadratic = np.einsum("ijk,kl,ijl->ij", diff, Q, diff)
    np.testing.assert_allclose(D**2, quadratic, rtol=1e-12)
    np.testing.assert_allclose(D, cdist(X, Y, "mahalanobis", VI=Q), rtol=1e-12)


def test_exact_far_from_origin():
    """Direct differences: no cancellation for data with huge norms."""
    X = np.array([[1e8, 1e8], [1e8 + 1, 1e8]])
    np.testing.assert_array_equal(pairwise_distances(X), [[0, 1], [1, 0]])


def test_mixed_dtypes_threads_and_defaults():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 4))
    D = pairwise_distances(X.astype(np.float32), X)
    assert D.dtype == np.float64
    np.testing.assert_allclose(pairwise_distances(X, n_jobs=2), cdist(X, X), atol=1e-12)
    assert np.all(np.diag(pairwise_distances(X)) == 0)


def test_bad_input():
    with pytest.raises(ValueError, match="same number of features"):
        pairwise_distances(np.ones((2, 3)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="NaN"):
        pairwise_distances([[np.nan, 0]])
    with pytest.raises(ValueError, match="p must be >= 1"):
        pairwise_distances(np.ones((2, 2)), metric="minkowski", p=0.5)
    with pytest.raises(ValueError, match="square"):
        pairwise_distances(
            np.ones((2, 2)), metric="mahalanobis", metric_params={"VI": np.ones(3)}
        )


# Found by tests/test_hypothesis_functions.py: the squares of data near 1e-160 fell
# into the subnormal range and the distances lost five digits; data near 1e200 were
# refused although their distances are finite.
@pytest.mark.parametrize("scale", [1e-300, 1e-160, 1.0, 1e200, 1e300])
@pytest.mark.parametrize("metric", ["euclidean", "cityblock", "chebyshev", "minkowski"])
def test_distances_keep_their_digits_at_any_scale(scale, metric):
    X = np.array([[1.25730221, -0.5], [28.6789514, 3.0], [-7.0, 0.25]]) * scale
    D = pairwise_distances(X, metric=metric, p=3)
    kwargs = {"p": 3} if metric == "minkowski" else {}
    expected = cdist(X / scale, X / scale, metric, **kwargs) * scale
    np.testing.assert_allclose(D, expected, rtol=1e-12)


def test_squared_distances_beyond_the_range_are_refused():
    X = np.array([[1e200], [-1e200]])
    with pytest.raises(ValueError, match="overflow"):
        pairwise_distances(X, metric="sqeuclidean")
    np.testing.assert_allclose(pairwise_distances(X), [[0, 2e200], [2e200, 0]])


def _four_sums(a, b, dtype):
    """The squared distance as the kernel defines it, one rounding at a time: four
    partial sums over the complete groups of four features, the rest into the
    first, then (s0 + s1) + (s2 + s3)."""
    t = dtype.type
    n = len(a)
    stop = n - n % 4
    sums = [t(0)] * 4
    for i in range(n):
        d = t(a[i] - b[i])
        lane = i % 4 if i < stop else 0
        sums[lane] = t(sums[lane] + t(d * d))
    return t(t(sums[0] + sums[1]) + t(sums[2] + sums[3]))


@pytest.mark.parametrize("dtype", [np.dtype(np.float32), np.dtype(np.float64)])
def test_squared_distance_kernel_rounds_as_its_scalar_definition(dtype):
    # the kernel runs its four sums in SIMD lanes (_sqdist_simd.h): every result
    # must equal the scalar order's bit for bit, whatever the number of features
    from patrec.neighbors.search import _distances

    rng = np.random.default_rng(0)
    for n_features in range(1, 19):
        scale = rng.choice([1e-3, 1.0, 1e5], size=(12, 1))
        X = (rng.normal(size=(12, n_features)) * scale).astype(dtype)
        Y = rng.normal(size=(5, n_features)).astype(dtype)
        out = np.empty((12, 5), dtype=dtype)
        _distances.pairwise_rdist(_distances.KINDS["sqeuclidean"], 2.0, X, Y, out)
        expected = [[_four_sums(x, y, dtype) for y in Y] for x in X]
        np.testing.assert_array_equal(out, np.array(expected, dtype=dtype))

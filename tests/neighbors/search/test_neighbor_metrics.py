"""pairwise_distances against SciPy's cdist, and the checks of the quadratic form."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from patrec.neighbors import pairwise_distances


@pytest.mark.parametrize(
    "metric,kwargs",
    [
        ("euclidean", {}),
        ("sqeuclidean", {}),
        ("cityblock", {}),
        ("chebyshev", {}),
        ("minkowski", {"p": 1.5}),
        ("minkowski", {"p": 4}),
    ],
)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_pairwise_distances_match_scipy(metric, kwargs, dtype):
    rng = np.random.default_rng(0)
    X, Y = (
        rng.normal(size=(40, 9)).astype(dtype),
        rng.normal(size=(30, 9)).astype(dtype),
    )
    D = pairwise_distances(X, Y, metric=metric, **kwargs)
    assert D.dtype == dtype and D.shape == (40, 30)
    expected = cdist(X.astype(float), Y.astype(float), metric=metric, **kwargs)
    np.testing.assert_allclose(D, expected, rtol=1e-12 if dtype == np.float64 else 2e-5)


def test_quadratic_form_distance():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(4, 4))
    Q = A @ A.T + np.eye(4)
    X, Y = rng.normal(size=(20, 4)), rng.normal(size=(10, 4))
    D = pairwise_distances(X, Y, metric="mahalanobis", metric_params={"VI": Q})
    diff = X[:, None] - Y[None]
    quadratic = np.einsum("ijk,kl,ijl->ij", diff, Q, diff)  # (x-y)^T Q (x-y)
    np.testing.assert_allclose(D**2, quadratic, rtol=1e-10)
    np.testing.assert_allclose(D, cdist(X, Y, "mahalanobis", VI=Q), rtol=1e-10)


@pytest.mark.parametrize(
    "VI,match",
    [
        (None, "needs metric_params"),
        (np.ones((2, 3)), "square"),
        (np.eye(3), "features"),
        ([[1.0, 2.0], [0.0, 1.0]], "symmetric"),
        ([[1.0, 2.0], [2.0, 1.0]], "positive definite"),
        ([[np.nan, 0.0], [0.0, 1.0]], "NaN"),
    ],
)
def test_quadratic_form_checks(VI, match):
    params = None if VI is None else {"VI": VI}
    with pytest.raises(ValueError, match=match):
        pairwise_distances(np.zeros((2, 2)), metric="mahalanobis", metric_params=params)

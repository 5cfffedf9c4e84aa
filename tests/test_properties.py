"""Property-based tests (hypothesis): invariants that must hold for any input."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.distance import cdist

from patrec import MinimumDistanceClassifier
from patrec.model_selection import stratified_kfold
from patrec.neighbors import pairwise_distances

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False, width=64)


@st.composite
def two_samples(draw):
    n_features = draw(st.integers(1, 6))
    X = draw(arrays(np.float64, (draw(st.integers(1, 8)), n_features), elements=finite))
    Y = draw(arrays(np.float64, (draw(st.integers(1, 8)), n_features), elements=finite))
    return X, Y


@settings(max_examples=150, deadline=None)
@given(
    two_samples(),
    st.sampled_from(
        ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski"]
    ),
)
def test_pairwise_distances_match_scipy(samples, metric):
    X, Y = samples
    kwargs, scipy_kwargs = ({"p": 3}, {"p": 3}) if metric == "minkowski" else ({}, {})
    D = pairwise_distances(X, Y, metric, **kwargs)
    expected = cdist(X, Y, metric, **scipy_kwargs)
    np.testing.assert_allclose(
        D, expected, rtol=1e-9, atol=1e-9 * max(1, expected.max())
    )
    assert (D >= 0).all()


@settings(max_examples=60, deadline=None)
@given(
    arrays(
        np.float64, st.tuples(st.integers(4, 30), st.integers(1, 4)), elements=finite
    ),
    st.integers(0, 2**16),
)
def test_minimum_distance_predicts_the_class_of_the_nearest_mean(X, seed):
    y = np.random.default_rng(seed).integers(0, 2, size=len(X))
    y[:2] = [0, 1]
    clf = MinimumDistanceClassifier().fit(X, y)
    D = cdist(X, clf.prototypes_)
    # where the two class means are not (nearly) equidistant, the rule is exact
    clear = np.abs(D[:, 0] - D[:, 1]) > 1e-9 * (1 + D.max())
    expected = clf.classes_[np.argmin(D, axis=1)]
    try:
        predicted = clf.predict(X)
    except ValueError as exc:
        # refused only where a sample and a prototype differ by so little that the
        # squares underflow (a distance of 0 between distinct points)
        assert "underflow" in str(exc)
        gaps = np.abs(X[:, None, :] - clf.prototypes_[None, :, :])
        assert ((gaps > 0) & (gaps < 1e-150)).any()
        return
    np.testing.assert_array_equal(predicted[clear], expected[clear])


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from("abc"), min_size=6, max_size=60),
    st.integers(2, 5),
    st.integers(0, 1000),
)
def test_stratified_folds_partition_the_samples(labels, n_splits, seed):
    y = np.array(labels)
    if np.unique(y, return_counts=True)[1].min() < n_splits:
        return
    tests = [test for _, test in stratified_kfold(y, n_splits, random_state=seed)]
    assert sorted(np.concatenate(tests).tolist()) == list(range(len(y)))
    for test in tests:  # every class is spread as evenly as the folds allow
        for label in np.unique(y):
            share = np.sum(y[test] == label)
            assert abs(share - np.sum(y == label) / n_splits) < 1 + 1e-9 * len(y)

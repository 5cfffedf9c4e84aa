"""The k-NN classifier: votes, weights, ties, rejection, algorithms, scikit-learn."""

import pickle
import re
import warnings

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier as SkKNN

from patrec import KNeighborsClassifier
from patrec.neighbors import classifier as classifier_module


def blobs(rng, n, n_features=2, n_classes=3):
    centers = rng.uniform(-5, 5, size=(n_classes, n_features))
    y = rng.integers(0, n_classes, n)
    return centers[y] + rng.normal(size=(n, n_features)) * 1.5, y


@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("metric", ["euclidean", "cityblock", "chebyshev"])
def test_matches_scikit_learn(weights, metric):
    rng = np.random.default_rng(0)
    X, y = blobs(rng, 600, 3)
    Q, _ = blobs(rng, 200, 3)
    ours = KNeighborsClassifier(7, weights=weights, metric=metric).fit(X, y)
    theirs = SkKNN(n_neighbors=7, weights=weights, metric=metric).fit(X, y)
    np.testing.assert_allclose(
        ours.predict_proba(Q), theirs.predict_proba(Q), rtol=1e-12
    )
    np.testing.assert_array_equal(ours.predict(Q), theirs.predict(Q))
    distances, indices = ours.kneighbors(Q)
    expected_distances, expected_indices = theirs.kneighbors(Q)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_allclose(distances, expected_distances, rtol=1e-12)
    # the training set itself, each sample without itself
    np.testing.assert_array_equal(
        ours.kneighbors(return_distance=False), theirs.kneighbors(return_distance=False)
    )


@pytest.mark.parametrize("metric", ["euclidean", "minkowski", "mahalanobis"])
def test_every_algorithm_predicts_the_same(metric):
    rng = np.random.default_rng(1)
    X, y = blobs(rng, 3000, 2, n_classes=4)
    X = np.round(X, 1)  # many equal distances
    Q = np.round(blobs(rng, 500, 2)[0], 1)
    params = {"metric": metric}
    if metric == "minkowski":
        params["p"] = 1.5
    if metric == "mahalanobis":
        params["metric_params"] = {"VI": [[2.0, 0.5], [0.5, 1.0]]}
    fits = [
        KNeighborsClassifier(5, algorithm=a, **params).fit(X, y)
        for a in ("brute", "bnb", "auto")
    ]
    assert [f.fit_algorithm_ for f in fits] == ["brute", "bnb", "bnb"]
    for other in fits[1:]:
        np.testing.assert_array_equal(other.predict_proba(Q), fits[0].predict_proba(Q))
        np.testing.assert_array_equal(other.kneighbors(Q)[1], fits[0].kneighbors(Q)[1])
        np.testing.assert_array_equal(other.kneighbors()[1], fits[0].kneighbors()[1])


def test_votes_match_a_plain_numpy_vote():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 5, size=(200, 2)).astype(float)
    y = rng.choice(["a", "b", "c"], 200)
    Q = rng.integers(0, 5, size=(50, 2)).astype(float)
    clf = KNeighborsClassifier(6).fit(X, y)
    squared = ((Q[:, None] - X[None]) ** 2).sum(-1)
    order = np.lexsort(
        (np.broadcast_to(np.arange(200), squared.shape), squared), axis=1
    )[:, :6]
    codes = np.searchsorted(clf.classes_, y)
    votes = np.stack([np.bincount(codes[row], minlength=3) for row in order])
    np.testing.assert_array_equal(clf.predict_proba(Q), votes / 6)
    np.testing.assert_array_equal(clf.predict(Q), clf.classes_[np.argmax(votes, 1)])


@pytest.mark.parametrize(
    "n_classes, code_type", [(2, np.uint8), (256, np.uint8), (300, np.uint16)]
)
def test_the_kept_class_codes_are_compact_and_vote_as_scikit_learn(
    n_classes, code_type
):
    # (the fit holds the codes in the smallest type only: its peak memory)
    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(3000, 2))
    y = rng.permutation(np.arange(3000) % n_classes) * 7 - 1000  # sparse integers
    Q = rng.normal(size=(200, 2))
    ours = KNeighborsClassifier(5).fit(X, y)
    assert ours._codes.dtype == code_type
    theirs = SkKNN(n_neighbors=5).fit(X, y)
    np.testing.assert_array_equal(ours.predict_proba(Q), theirs.predict_proba(Q))
    np.testing.assert_array_equal(ours.predict(Q), theirs.predict(Q))


def test_vote_ties_go_to_the_first_class():
    X = [[0.0], [1.0], [-1.0], [2.0]]
    y = ["dog", "cat", "cat", "dog"]
    clf = KNeighborsClassifier(2).fit(X, y)
    # neighbours of 0.4: 0 (dog) and 1 (cat): one vote each, "cat" comes first
    np.testing.assert_array_equal(clf.predict([[0.4]]), ["cat"])
    np.testing.assert_array_equal(clf.predict_proba([[0.4]]), [[0.5, 0.5]])
    # equal distances: 0.5 is as near to 0 (dog) as to 1 (cat); with k = 1 the
    # lower training index, sample 0, is the neighbour
    one = KNeighborsClassifier(1).fit(X, y)
    np.testing.assert_array_equal(one.predict([[0.5]]), ["dog"])
    np.testing.assert_array_equal(one.kneighbors([[0.5]])[1], [[0]])


def test_distance_weights_and_callables():
    X = [[0.0], [1.0], [3.0]]
    y = [0, 1, 1]
    clf = KNeighborsClassifier(3, weights="distance").fit(X, y)
    np.testing.assert_allclose(
        clf.predict_proba([[0.5]]), [[2 / (2 + 2 + 0.4), (2 + 0.4) / (2 + 2 + 0.4)]]
    )
    # an exact match takes all the weight
    np.testing.assert_array_equal(clf.predict_proba([[3.0]]), [[0.0, 1.0]])
    squared = KNeighborsClassifier(3, weights=lambda d: 1 / (1 + d**2)).fit(X, y)
    w = 1 / (1 + np.array([0.25, 0.25, 6.25]))
    np.testing.assert_allclose(
        squared.predict_proba([[0.5]]), [[w[0] / w.sum(), (w[1] + w[2]) / w.sum()]]
    )
    bad = KNeighborsClassifier(3, weights=lambda d: d[:, :1]).fit(X, y)
    with pytest.raises(ValueError, match="weights callable returned shape"):
        bad.predict([[0.5]])
    negative = KNeighborsClassifier(3, weights=lambda d: -d).fit(X, y)
    with pytest.raises(ValueError, match=">= 0"):
        negative.predict([[0.5]])


def test_reject_option():
    X = [[0.0], [0.1], [0.2], [1.0], [1.1], [1.2]]
    y = [5, 5, 5, 7, 7, 7]
    clf = KNeighborsClassifier(4, reject_threshold=0.7).fit(X, y)
    # 0.0: votes 3 of 4 for class 5 -> 0.75 >= 0.7; 0.6: 2 against 2 -> rejected
    np.testing.assert_array_equal(clf.predict([[0.0], [0.6], [1.2]]), [5, -1, 7])
    named = KNeighborsClassifier(4, reject_threshold=0.7, reject_label="?").fit(
        X, np.array(["a", "a", "a", "b", "b", "b"])
    )
    np.testing.assert_array_equal(named.predict([[0.0], [0.6]]), ["a", "?"])
    # string classes: the default reject label is the string "reject", so the
    # predictions stay one array of strings that np.unique can sort
    default = KNeighborsClassifier(4, reject_threshold=0.7).fit(
        X, ["a", "a", "a", "b", "b", "b"]
    )
    out = default.predict([[0.0], [0.6]])
    assert out.dtype.kind == "U" and list(out) == ["a", "reject"]
    assert default.reject_label_ == "reject"
    assert np.unique(out).tolist() == ["a", "reject"]
    assert default.predict([[0.0]]).dtype.kind == "U"
    # a number among strings, asked for explicitly: an object array
    numeric = KNeighborsClassifier(4, reject_threshold=0.7, reject_label=-1).fit(
        X, ["a", "a", "a", "b", "b", "b"]
    )
    out = numeric.predict([[0.0], [0.6]])
    assert out.dtype == object and list(out) == ["a", -1]
    with pytest.raises(ValueError, match="reject_label='reject' is one of the classes"):
        KNeighborsClassifier(4, reject_threshold=0.5).fit(X, ["reject"] * 3 + ["b"] * 3)
    with pytest.raises(ValueError, match="reject_label=-1 is one of the classes"):
        KNeighborsClassifier(4, reject_threshold=0.5).fit(
            X, np.array([-1] * 3 + [1] * 3)
        )
    with pytest.raises(ValueError, match="reject_label=5 is one of the classes"):
        KNeighborsClassifier(4, reject_threshold=0.5, reject_label=5).fit(X, y)
    with pytest.raises(ValueError, match="reject_threshold"):
        KNeighborsClassifier(4, reject_threshold=1.5).fit(X, y)


def test_reject_threshold_set_after_fit_is_read_and_checked_by_predict():
    # reject_threshold only acts in predict: tuning it on a fitted model (as a
    # script sweeping thresholds does) works as if it had been given to fit
    X = [[0.0], [0.1], [0.2], [1.0], [1.1], [1.2]]
    labels = ["a", "a", "a", "b", "b", "b"]
    clf = KNeighborsClassifier(4).fit(X, labels)
    clf.set_params(reject_threshold=0.7)
    assert clf.predict([[0.0], [0.6]]).tolist() == ["a", "reject"]
    assert (
        clf.predict([[0.6]]).tolist()
        == KNeighborsClassifier(4, reject_threshold=0.7)
        .fit(X, labels)
        .predict([[0.6]])
        .tolist()
    )
    clf.set_params(reject_threshold=1.5)
    with pytest.raises(ValueError, match="reject_threshold"):
        clf.predict([[0.6]])
    clf.set_params(reject_threshold=0.7, reject_label="a")
    with pytest.raises(ValueError, match="reject_label='a' is one of the classes"):
        clf.predict([[0.6]])


def test_parameter_and_input_errors():
    X, y = [[0.0], [1.0], [2.0]], [0, 1, 1]
    with pytest.raises(ValueError, match="n_neighbors"):
        KNeighborsClassifier(0).fit(X, y)
    with pytest.raises(TypeError, match="n_neighbors"):
        KNeighborsClassifier(2.0).fit(X, y)
    with pytest.raises(ValueError, match="algorithm"):
        KNeighborsClassifier(algorithm="cover_tree").fit(X, y)
    with pytest.raises(ValueError, match="weights"):
        KNeighborsClassifier(weights="gaussian").fit(X, y)
    with pytest.raises(ValueError, match="metric"):
        KNeighborsClassifier(metric="cosine").fit(X, y)
    clf = KNeighborsClassifier(5).fit(X, y)
    with pytest.raises(ValueError, match="k=5 neighbours.*only 3"):
        clf.predict(X)
    with pytest.raises(ValueError, match="only 2 other training samples"):
        clf.kneighbors()
    with pytest.raises(ValueError, match="NaN or infinity"):
        KNeighborsClassifier(1).fit(X, y).predict([[np.nan]])
    assert KNeighborsClassifier(1).fit(X, y).kneighbors(np.empty((0, 1)))[1].shape == (
        0,
        1,
    )


def test_chunked_prediction_equals_one_piece(monkeypatch):
    rng = np.random.default_rng(3)
    X, y = blobs(rng, 500, 2)
    Q, _ = blobs(rng, 1000, 2)
    clf = KNeighborsClassifier(3, n_jobs=2).fit(X, y)
    whole = clf.predict_proba(Q)
    monkeypatch.setattr(classifier_module, "_CHUNK_ROWS", 97)
    np.testing.assert_array_equal(clf.predict_proba(Q), whole)


def test_auto_choice_and_pickle():
    rng = np.random.default_rng(4)
    small = KNeighborsClassifier().fit(*blobs(rng, 100, 2))
    assert small.fit_algorithm_ == "brute"
    low = KNeighborsClassifier().fit(*blobs(rng, 5000, 3))
    assert low.fit_algorithm_ == "bnb"
    high = KNeighborsClassifier().fit(*blobs(rng, 5000, 40))
    assert high.fit_algorithm_ == "brute"
    Q = rng.normal(size=(100, 3))
    clone = pickle.loads(pickle.dumps(low))
    np.testing.assert_array_equal(clone.predict_proba(Q), low.predict_proba(Q))


def test_minkowski_p2_is_the_default_and_p_is_honoured():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    queries = rng.normal(size=(400, 3))
    default = KNeighborsClassifier()
    assert (default.metric, default.p) == ("minkowski", 2)
    reference = KNeighborsClassifier(metric="euclidean").fit(X, y)
    np.testing.assert_array_equal(
        default.fit(X, y).predict_proba(queries), reference.predict_proba(queries)
    )
    np.testing.assert_allclose(
        default.kneighbors(queries)[0], reference.kneighbors(queries)[0]
    )
    # p changes the answers, as in scikit-learn: p=1 is the cityblock distance
    taxicab = KNeighborsClassifier(p=1).fit(X, y)
    np.testing.assert_allclose(
        taxicab.kneighbors(queries)[0],
        KNeighborsClassifier(metric="cityblock").fit(X, y).kneighbors(queries)[0],
    )
    assert not np.allclose(
        taxicab.kneighbors(queries)[0], reference.kneighbors(queries)[0]
    )


@pytest.mark.parametrize(
    "alias, name",
    [("manhattan", "cityblock"), ("l1", "cityblock"), ("l2", "euclidean")],
)
@pytest.mark.parametrize("algorithm", ["brute", "bnb"])
def test_scikit_learn_metric_aliases(alias, name, algorithm):
    from sklearn.neighbors import KNeighborsClassifier as Reference

    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 2))
    y = (X.sum(axis=1) > 0).astype(int)
    queries = rng.normal(size=(50, 2))
    ours = KNeighborsClassifier(metric=alias, algorithm=algorithm).fit(X, y)
    same = KNeighborsClassifier(metric=name, algorithm=algorithm).fit(X, y)
    np.testing.assert_array_equal(
        ours.kneighbors(queries)[1], same.kneighbors(queries)[1]
    )
    theirs = Reference(metric=alias, algorithm="brute").fit(X, y)
    np.testing.assert_allclose(
        ours.kneighbors(queries)[0], theirs.kneighbors(queries)[0]
    )


def test_leaf_size_reaches_the_tree():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(3000, 2))
    y = (X[:, 0] > 0).astype(int)
    small = KNeighborsClassifier(algorithm="bnb", leaf_size=8).fit(X, y)
    large = KNeighborsClassifier(algorithm="bnb", leaf_size=200).fit(X, y)
    assert small._index.leaf_size == 8 and large._index.leaf_size == 200
    assert small._index.n_leaves > 4 * large._index.n_leaves
    np.testing.assert_array_equal(small.predict(X[:500]), large.predict(X[:500]))
    with pytest.raises(ValueError, match="leaf_size must be in"):
        KNeighborsClassifier(leaf_size=0).fit(X, y)


def test_verbose_reports_the_tree_and_the_queries(capsys):
    rng = np.random.default_rng(6)
    X = rng.normal(size=(5000, 2))
    y = (X[:, 0] > 0).astype(int)
    clf = KNeighborsClassifier(algorithm="bnb", verbose=1).fit(X, y)
    err = capsys.readouterr().err
    assert re.search(
        r"^\[BranchBoundTree\] built \d+ nodes \(\d+ leaves of at most 32 "
        r"samples, depth \d+\) over 5000 samples in [\d.]+ s$",
        err,
        re.M,
    ), err
    clf.predict(rng.normal(size=(20000, 2)))
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    match = re.match(
        r"\[KNeighborsClassifier\] 20000 queries classified by their 5 "
        r"nearest of 5000 training samples \(bnb\) in [\d.]+ s; (\d+) "
        r"distance evaluations per query",
        err[0],
    )
    assert match and 5 <= int(match[1]) < 5000
    clf.set_params(verbose=2).predict(rng.normal(size=(20000, 2)))
    err = capsys.readouterr().err
    assert "queries 1..16384 of 20000 classified" in err
    assert "queries 16385..20000 of 20000 classified" in err
    KNeighborsClassifier(algorithm="bnb", verbose=2).fit(X, y)
    assert "[BranchBoundTree] k-d partition: " in capsys.readouterr().err
    clf.set_params(verbose=0).predict(X[:10])
    assert capsys.readouterr().err == ""
    with pytest.raises(ValueError, match="verbose must be a non-negative"):
        KNeighborsClassifier(verbose=-1).fit(X, y)


def test_a_weights_callable_that_silences_every_neighbour_is_refused():
    """Issue 37: all-zero weights used to fall back to one vote each, silently."""
    X, y = [[0, 1], [1, 2], [2, 3], [3, 4]], [0, 0, 1, 1]
    clf = KNeighborsClassifier(3, weights=lambda d: np.where(d > 0.5, 0.0, 1.0))
    clf.fit(X, y)
    with pytest.raises(ValueError, match="every neighbour of query 0 .* weight 0"):
        clf.predict_proba([[1.1, 1.1]])
    with pytest.raises(ValueError, match="query 1 "):
        clf.predict([[0.0, 1.0], [1.1, 1.1]])
    # one neighbour with a weight is a vote
    np.testing.assert_array_equal(clf.predict_proba([[0.0, 1.2]]), [[1.0, 0.0]])


def test_distance_weights_where_one_over_d_overflows():
    """1 / d of a subnormal distance is infinite: the shares are those of d_1 / d,
    and a match at distance 0 still takes all the weight."""
    X = np.array([[0.0], [5e-324], [1e-323], [1.0]])
    clf = KNeighborsClassifier(3, weights="distance", metric="cityblock")
    proba = clf.fit(X, [0, 1, 1, 0]).predict_proba([[0.0], [2e-323]])
    # from 4u: neighbours at 2u, 3u (class 1) and 4u (class 0)
    w = np.array([1 / 2, 1 / 3, 1 / 4])
    np.testing.assert_allclose(
        proba, [[1.0, 0.0], [w[2] / w.sum(), w[:2].sum() / w.sum()]]
    )


def test_weights_whose_sum_overflows_vote_in_proportion():
    X, y = [[0.0], [1.0], [2.0]], [0, 1, 1]
    returned = []

    def huge_weights(d):
        returned.append(np.full(d.shape, 1e308))
        return returned[-1]

    huge = KNeighborsClassifier(3, weights=huge_weights)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proba = huge.fit(X, y).predict_proba([[0.2]])
    np.testing.assert_allclose(proba, [[1 / 3, 2 / 3]])
    # the callable's own array is not rescaled in place
    np.testing.assert_array_equal(returned[0], np.full((1, 3), 1e308))


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_no_queries_is_leave_one_out(weights):
    rng = np.random.default_rng(3)
    X, y = blobs(rng, 80)
    X[1] = X[0]  # a duplicate of a sample stays among its neighbours
    model = KNeighborsClassifier(4, weights=weights).fit(X, y)
    expected = np.vstack(
        [
            KNeighborsClassifier(4, weights=weights)
            .fit(np.delete(X, i, axis=0), np.delete(y, i))
            .predict_proba(X[i : i + 1])
            for i in range(len(y))
        ]
    )
    np.testing.assert_allclose(model.predict_proba(None), expected, rtol=1e-12)
    np.testing.assert_array_equal(
        model.predict(None), model.classes_[np.argmax(expected, axis=1)]
    )
    assert model.score(None, y) == np.mean(model.predict(None) == y)
    with pytest.raises(ValueError, match="only 79 other training samples"):
        KNeighborsClassifier(80).fit(X, y).predict(None)

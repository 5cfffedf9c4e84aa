"""``algorithm="auto"``: the cost model's choice, its probe, and the tree it keeps."""

import numpy as np
import pytest

from patrec.neighbors import BranchBoundTree, BruteForce, Metric
from patrec.neighbors.search import _auto as auto
from patrec.neighbors.search import tree as tree_module
from patrec.neighbors.search._auto import (
    build_index,
    choose_algorithm,
    probe_evaluations,
)


@pytest.fixture
def built_trees(monkeypatch):
    """The sizes of every BranchBoundTree built while the test runs."""
    sizes = []
    original = tree_module.BranchBoundTree.__init__

    def counting_init(self, X, *args, **kwargs):
        sizes.append(len(X))
        original(self, X, *args, **kwargs)

    monkeypatch.setattr(tree_module.BranchBoundTree, "__init__", counting_init)
    return sizes


def clusters(rng, n, n_features, n_clusters=20, scale=0.01):
    centres = rng.normal(size=(n_clusters, n_features))
    return centres[rng.integers(0, n_clusters, n)] + rng.normal(
        scale=scale, size=(n, n_features)
    )


@pytest.mark.parametrize("n_queries", [None, 5000])
def test_the_probed_tree_over_all_samples_is_the_tree_kept(built_trees, n_queries):
    # 5 000 points in 5-D: the model favours the tree but not by 4x, so the probe
    # searches the tree over all samples, which is then kept.
    X = np.random.default_rng(0).uniform(size=(5000, 5))
    index, algorithm = build_index(X, n_queries=n_queries, k=5)
    assert algorithm == "bnb" and isinstance(index, BranchBoundTree)
    assert built_trees == [5000]
    Q = np.random.default_rng(1).uniform(size=(50, 5))
    np.testing.assert_array_equal(
        index.query(Q, k=5)[1], BruteForce(X).query(Q, k=5)[1]
    )


def test_data_a_small_tree_cannot_prune_never_build_the_whole_tree(built_trees):
    X = np.random.default_rng(0).uniform(size=(8000, 32))
    index, algorithm = build_index(X, k=5)
    assert algorithm == "brute" and isinstance(index, BruteForce)
    assert built_trees == [1024]  # the probe's first look only


def test_clusters_in_many_dimensions_get_the_tree(built_trees):
    X = clusters(np.random.default_rng(2), 8000, 32)
    index, algorithm = build_index(X, k=5)
    assert algorithm == "bnb"
    assert built_trees == [1024, 8000]  # first look, then the tree kept


def test_large_data_are_probed_on_subsets(built_trees, monkeypatch):
    monkeypatch.setattr(auto, "_PROBE_WHOLE_MAX", 16_384)
    X = clusters(np.random.default_rng(3), 20_000, 16)
    assert choose_algorithm(*X.shape, "euclidean", X=X, k=5) == "bnb"
    assert built_trees == [1024, 4096]


def test_where_brute_force_is_expected_large_sets_are_probed_on_subsets(built_trees):
    X = clusters(np.random.default_rng(3), 40_000, 16)
    index, algorithm = build_index(X, k=5)
    assert algorithm == "bnb"
    assert built_trees == [1024, 4096, 40_000]  # the probe, then the tree


def test_where_the_tree_is_expected_large_sets_probe_the_whole_tree(built_trees):
    # 7-D: the model favours the tree, but not by 4x
    X = np.random.default_rng(3).uniform(size=(40_000, 7))
    index, algorithm = build_index(X, k=5)
    assert algorithm == "bnb"
    assert built_trees == [40_000]


@pytest.mark.parametrize(
    "make, n_features",
    [
        (lambda rng, n, d: rng.uniform(size=(n, d)), 8),
        (lambda rng, n, d: rng.uniform(size=(n, d)), 32),
        (clusters, 16),
    ],
)
@pytest.mark.parametrize("n_queries", [None, 3000])
def test_choose_algorithm_and_build_index_agree(make, n_features, n_queries):
    X = make(np.random.default_rng(4), 3000, n_features)
    expected = choose_algorithm(*X.shape, "euclidean", n_queries=n_queries, X=X, k=3)
    index, algorithm = build_index(X, n_queries=n_queries, k=3)
    assert algorithm == expected
    assert isinstance(index, BranchBoundTree if expected == "bnb" else BruteForce)
    # deterministic: the probe is seeded
    assert build_index(X, n_queries=n_queries, k=3)[1] == algorithm


def test_whole_tree_probe_counts_what_the_tree_evaluates():
    X = clusters(np.random.default_rng(5), 3000, 6, scale=0.3)
    order = auto._probe_order(3000)
    metric = Metric("euclidean")
    tree, mean = auto._probe_whole_tree(X, order, 4, metric, False, {})
    rows = np.sort(np.random.default_rng(0).permutation(3000)[: auto._PROBE_QUERIES])
    *_, counts = tree.query(X[rows], k=5, return_distance=False, return_counts=True)
    assert mean == pytest.approx(counts.mean())  # k + 1: imitating separate queries
    tree, mean = auto._probe_whole_tree(X, order, 4, metric, True, {})
    *_, counts = tree.query(X[rows], k=4, return_distance=False, return_counts=True)
    assert mean == pytest.approx(counts.mean())


def test_probe_and_choice_follow_the_metric():
    X = clusters(np.random.default_rng(6), 3000, 16)
    for metric in ("cityblock", "chebyshev"):
        assert probe_evaluations(X, 5, metric) < 0.2 * len(X)
        index, algorithm = build_index(X, metric, k=5)
        assert algorithm == "bnb" and index.metric == metric


def test_verbose_reaches_the_tree_the_probe_keeps(capsys):
    X = np.random.default_rng(7).uniform(size=(5000, 5))
    build_index(X, k=5, verbose=1)
    err = capsys.readouterr().err
    assert err.count("[BranchBoundTree] built") == 1


def test_probe_subsets_grow_with_the_data():
    assert auto._probe_sizes(10_000) == (1024, 4096)
    assert auto._probe_sizes(65_536) == (1024, 4096)
    assert auto._probe_sizes(1_000_000) == (15_625, 62_500)
    assert auto._probe_sizes(10**8) == (16_384, 65_536)


def test_a_large_data_set_is_probed_on_subsets_of_its_size(built_trees):
    X = clusters(np.random.default_rng(8), 80_000, 16)
    probe_evaluations(X, 5)
    assert built_trees == [1250, 5000]


def test_the_tree_costs_more_per_evaluation_once_it_outgrows_the_caches():
    costs = [
        auto.search_costs(
            n, 12, "euclidean", n_queries=1, build=False, evaluations=1000.0
        )
        for n in (10_000, 100_000, 1_000_000)
    ]
    assert costs[0][1] == costs[1][1] < costs[2][1] < 2 * costs[1][1]
    assert [
        brute / n for (brute, _), n in zip(costs, (1e4, 1e5, 1e6))
    ] == pytest.approx([costs[0][0] / 1e4] * 3)

"""BranchBoundTree.explain: the search of one query step by step, exactly as query
searches it."""

import numpy as np
import pytest

from patrec.neighbors import BranchBoundTree
from patrec.neighbors.search.tree import node_geometry

METRICS = [
    ("euclidean", {}),
    ("sqeuclidean", {}),
    ("cityblock", {}),
    ("chebyshev", {}),
    ("minkowski", {"p": 3}),
    (
        "mahalanobis",
        {
            "metric_params": {
                "VI": np.array([[2.0, 0.3, 0.0], [0.3, 1.0, 0.1], [0.0, 0.1, 0.5]])
            }
        },
    ),
]


def clustered(n, seed):
    rng = np.random.default_rng(seed)
    centers = rng.uniform(-5, 5, size=(8, 3))
    X = centers[rng.integers(8, size=n)] + rng.normal(scale=0.6, size=(n, 3))
    X[: n // 10] = np.round(X[: n // 10])  # duplicates and ties
    return X


# the two partitions the search runs over, with small leaves for deep trees
PARTITIONS = [{"partition": "kd"}, {"partition": "kmeans", "branching": 3}]


@pytest.mark.parametrize("metric, params", METRICS, ids=[m for m, _ in METRICS])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", PARTITIONS, ids=["kd", "kmeans"])
def test_same_answer_and_count_as_query(metric, params, dtype, shape):
    rng = np.random.default_rng(1)
    X = clustered(1500, 0).astype(dtype)
    tree = BranchBoundTree(
        X, metric=metric, leaf_size=12, random_state=0, **shape, **params
    )
    queries = np.vstack([rng.uniform(-7, 7, size=(60, 3)), X[:20] + 1e-3, X[20:30]])
    for k in (1, 4):
        batch = tree.query(queries, k=k, return_counts=True)
        for q, x in enumerate(queries):
            steps = tree.explain(x, k=k)
            distances, indices, counts = tree.query(x[None], k=k, return_counts=True)
            np.testing.assert_array_equal(steps.indices, indices[0])
            np.testing.assert_array_equal(steps.distances, distances[0])
            assert steps.distances.dtype == distances.dtype
            assert len(steps.distance_evaluations) == counts[0]
            if metric != "mahalanobis":
                # (mahalanobis maps a batch of queries by one matrix product, whose
                # rounding can differ in the last bit from a single row's)
                for got, expected in zip(
                    (steps.distances, steps.indices, len(steps.distance_evaluations)),
                    batch,
                ):
                    np.testing.assert_array_equal(got, expected[q])


@pytest.mark.parametrize("metric, params", METRICS[:4], ids=[m for m, _ in METRICS[:4]])
@pytest.mark.parametrize("partition", ["kd", "kmeans"])
def test_every_step_is_accounted_for(metric, params, partition):
    X = clustered(800, 2)
    tree = BranchBoundTree(
        X, metric=metric, partition=partition, leaf_size=10, random_state=3, **params
    )
    boxes_seen = 0
    for x in np.random.default_rng(4).uniform(-6, 6, size=(30, 3)):
        steps = tree.explain(x, k=2)
        entered = steps.entered["node"].tolist()
        assert entered[0] == 0 and len(set(entered)) == len(entered)
        pruned = steps.pruned["node"].tolist()
        boxed = steps.pruned_by_box["node"].tolist()
        boxes_seen += len(boxed)
        assert not set(entered) & set(pruned) and not set(entered) & set(boxed)
        cells = partition == "kd" and metric in ("euclidean", "sqeuclidean")
        if partition == "kmeans":
            assert boxed == []
        else:
            # rule 1 is tested at the leaves, the box rule at every other node
            assert (tree._tree.node_nchild[pruned] == 0).all()
            internal = [n for n in entered if tree._tree.node_nchild[n] > 0]
            assert np.isnan(steps.entered["distance"][np.isin(entered, internal)]).all()
            for node, distance, bound in steps.pruned_by_box:
                nearest = np.clip(
                    x, node_geometry(tree).low[node], node_geometry(tree).high[node]
                )
                assert distance > bound
                expected = tree._metric.finish(
                    tree._metric.reduced(x[None], nearest[None])
                )[0, 0]
                if metric == "sqeuclidean":  # searched as euclidean
                    expected = np.sqrt(expected)
                if cells:  # the euclidean search's cell: a lower bound of the box
                    assert distance <= expected * (1 + 1e-12)
                else:
                    np.testing.assert_allclose(distance, expected, rtol=1e-12)
        if cells:
            # the euclidean k-d search scans whole leaves: no mean, no rule 1 or 2
            assert pruned == [] and len(steps.skipped) == 0
            assert np.isnan(steps.entered["distance"]).all()
        # each child of an entered internal node is entered or pruned, once
        for node in entered:
            first, n = tree._tree.node_child[node], tree._tree.node_nchild[node]
            for child in range(first, first + n):
                assert (child in entered) + (child in pruned) + (child in boxed) == 1
        # each sample of an entered leaf is measured or skipped, once
        evaluations = steps.distance_evaluations
        measured = evaluations["sample"][evaluations["sample"] >= 0].tolist()
        skipped = steps.skipped["sample"].tolist()
        leaves = [node for node in entered if tree._tree.node_nchild[node] == 0]
        in_leaves = np.concatenate(
            [
                tree._tree.order[
                    tree._tree.node_start[leaf] : tree._tree.node_end[leaf]
                ]
                for leaf in leaves
            ]
        )
        assert sorted(measured + skipped) == sorted(in_leaves.tolist())
        # the node means measured are those of the children of entered nodes
        nodes = evaluations["node"][evaluations["sample"] == -1].tolist()
        if cells:
            assert nodes == []
        elif partition == "kd":  # the means of the leaves reached
            assert set(nodes) == {
                n for n in set(entered) | set(pruned) if tree._tree.node_nchild[n] == 0
            }
        else:
            assert (
                set(nodes) == (set(entered) | set(pruned)) - {0}
                or tree._tree.node_nchild[0] == 0
            )
        # B only shrinks, and ends at the k-th distance
        bounds = steps.bound_updates["bound"]
        assert (np.diff(bounds[np.isfinite(bounds)]) <= 0).all()
        answer = tree.query(x[None], k=2)[0][0]
        true_last = np.sqrt(answer[-1]) if metric == "sqeuclidean" else answer[-1]
        assert bounds[-1] == pytest.approx(true_last, rel=1e-12)
        assert set(steps.indices) <= set(steps.bound_updates["sample"])
    assert partition == "kmeans" or boxes_seen > 0


# (the euclidean search of the k-d partition applies neither rule: cityblock there)
@pytest.mark.parametrize(
    "partition, metric", [("kd", "cityblock"), ("kmeans", "euclidean")]
)
def test_pruned_nodes_and_skipped_samples_obey_the_textbook_rules(partition, metric):
    X = clustered(2000, 5)
    tree = BranchBoundTree(
        X, partition=partition, metric=metric, leaf_size=16, random_state=0
    )
    order = 1 if metric == "cityblock" else 2
    n_pruned = n_near = n_far = 0
    for x in np.random.default_rng(6).uniform(-6, 6, size=(50, 3)):
        steps = tree.explain(x)
        pruned = steps.pruned
        # Rule 1: D(x, M_p) > B + r_p, and D(x, M_p) is the true distance
        assert (pruned["distance"] > pruned["bound"] + pruned["radius"]).all()
        np.testing.assert_allclose(
            pruned["distance"],
            np.linalg.norm(
                node_geometry(tree).centers[pruned["node"]] - x, ord=order, axis=1
            ),
            rtol=1e-12,
        )
        np.testing.assert_array_equal(
            pruned["radius"], node_geometry(tree).radius[pruned["node"]]
        )
        skipped = steps.skipped
        near, far = skipped[~skipped["far"]], skipped[skipped["far"]]
        # Rule 2: D(x, M_p) > B + D(x_i, M_p); the other side D(x_i, M_p) > B + D(x, M_p)
        assert (near["distance"] > near["bound"] + near["to_center"]).all()
        assert (far["to_center"] > far["bound"] + far["distance"]).all()
        np.testing.assert_allclose(
            skipped["to_center"],
            np.linalg.norm(
                X[skipped["sample"]] - node_geometry(tree).centers[skipped["node"]],
                ord=order,
                axis=1,
            ),
            rtol=1e-9,
        )
        n_pruned += len(pruned)
        n_near += len(near)
        n_far += len(far)
    assert n_pruned > 0 and n_near > 0 and n_far > 0  # every rule was exercised


@pytest.mark.parametrize("partition", ["kd", "kmeans"])
def test_distance_evaluations_hold_the_true_distances(partition):
    X = clustered(600, 7)
    tree = BranchBoundTree(X, partition=partition, leaf_size=8, random_state=0)
    x = np.array([0.5, -0.2, 1.0])
    evaluations = tree.explain(x, k=3).distance_evaluations
    samples = evaluations[evaluations["sample"] >= 0]
    np.testing.assert_allclose(
        samples["distance"],
        np.linalg.norm(X[samples["sample"]] - x, axis=1),
        rtol=1e-12,
    )
    nodes = evaluations[evaluations["sample"] == -1]
    np.testing.assert_allclose(
        nodes["distance"],
        np.linalg.norm(node_geometry(tree).centers[nodes["node"]] - x, axis=1),
        rtol=1e-12,
    )
    boxes = evaluations[evaluations["sample"] == -2]  # the k-d partition's boxes
    assert (len(boxes) > 0) == (partition == "kd")
    nearest = np.clip(
        x,
        node_geometry(tree).low[boxes["node"]],
        node_geometry(tree).high[boxes["node"]],
    )
    np.testing.assert_allclose(
        boxes["distance"], np.linalg.norm(nearest - x, axis=1), rtol=1e-12
    )
    assert len(samples) + len(nodes) + len(boxes) == len(evaluations)


@pytest.mark.parametrize("partition", ["kd", "kmeans"])
def test_a_tree_that_is_one_leaf(partition):
    X = np.random.default_rng(0).normal(size=(10, 2))
    tree = BranchBoundTree(X, partition=partition, leaf_size=64)
    steps = tree.explain(X[3] + 0.01)
    assert steps.entered["node"].tolist() == [0] and len(steps.pruned) == 0
    assert steps.distance_evaluations[0]["node"] == 0  # the root's mean, for rule 2
    _, indices, counts = tree.query(X[3:4] + 0.01, return_counts=True)
    assert steps.indices[0] == indices[0, 0] == 3
    assert len(steps.distance_evaluations) == counts[0]


def test_query_shapes_and_bad_input():
    X = clustered(300, 1)
    tree = BranchBoundTree(X, random_state=0)
    a = tree.explain(X[0])
    b = tree.explain(X[:1])
    c = tree.explain(X[0].tolist())
    np.testing.assert_array_equal(a.indices, b.indices)
    np.testing.assert_array_equal(a.indices, c.indices)
    assert "SearchExplanation(k=1" in repr(a)
    with pytest.raises(ValueError, match="one query"):
        tree.explain(X[:2])
    with pytest.raises(ValueError, match="features"):
        tree.explain([1.0, 2.0])
    with pytest.raises(ValueError, match="k=301"):
        tree.explain(X[0], k=301)
    with pytest.raises(ValueError):
        tree.explain([np.nan, 0.0, 0.0])
    before = X[0].copy()
    tree.explain(X[0])
    np.testing.assert_array_equal(X[0], before)

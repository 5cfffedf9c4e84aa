"""plot_history, animate_training and plot_search: check what they draw."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.patches import Polygon

from patrec import LinearMachine, MulticlassSVM, Perceptron, PiecewiseLinearClassifier
from patrec.exceptions import ConvergenceWarning
from patrec.neighbors import BranchBoundTree
from patrec.neighbors.search.tree import node_geometry
from patrec.plotting import animate_training, plot_history, plot_search

pytestmark = pytest.mark.filterwarnings("ignore:Animation was deleted:UserWarning")


@pytest.fixture(autouse=True)
def _close_and_quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield
    plt.close("all")


@pytest.fixture(scope="module")
def three():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2)) + np.repeat([[0, 0], [4, 0], [2, 3]], 20, axis=0)
    return X, np.array(["a", "b", "c"])[np.repeat([0, 1, 2], 20)]


def codes_of(clf, y):
    return np.searchsorted(clf.classes_, y)


# -- plot_history ----------------------------------------------------------------------


def test_history_bars_and_training_error(three):
    X, y = three
    clf = LinearMachine(record_history=True, random_state=0).fit(X, y)
    fig, ax = plt.subplots()
    assert plot_history(clf, X, y, ax=ax) is ax
    heights = [bar.get_height() for bar in ax.patches]
    assert heights == clf.mistakes_.tolist()
    assert [bar.get_x() + bar.get_width() / 2 for bar in ax.patches] == list(
        range(1, clf.n_iter_ + 1)
    )
    line = ax.right_ax.get_lines()[0]
    errors = line.get_ydata()
    assert list(line.get_xdata()) == list(range(clf.n_iter_ + 1))
    # epoch 0: all-zero weights tie, every sample goes to the first class
    assert errors[0] == pytest.approx(np.mean(y != clf.classes_[0]))
    assert errors[-1] == pytest.approx(np.mean(clf.predict(X) != y))
    assert ax.get_xlabel() == "epoch"
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["corrections in the epoch", "training error"]


@pytest.mark.parametrize(
    "clf",
    [
        Perceptron(random_state=0),
        PiecewiseLinearClassifier(2, random_state=0),
        MulticlassSVM(averaged=False, random_state=0, max_epochs=5),
    ],
    ids=repr,
)
def test_history_error_of_each_epoch_matches_the_model(three, clf):
    X, y = three
    clf.set_params(record_history="weights").fit(X, y)
    ax = plot_history(clf, X, y)
    assert ax.right_ax.get_lines()[0].get_ydata()[-1] == pytest.approx(
        np.mean(clf.predict(X) != y)
    )


def test_history_without_data_or_recording(three):
    X, y = three
    clf = LinearMachine(random_state=0, max_epochs=5).fit(X, y)
    ax = plot_history(clf)
    assert [bar.get_height() for bar in ax.patches] == clf.mistakes_.tolist()
    assert not hasattr(ax, "right_ax")
    with pytest.raises(ValueError, match="record_history"):
        plot_history(clf, X, y)
    with pytest.raises(ValueError, match="both X and y"):
        plot_history(clf, X)
    from patrec import SoftmaxRegression

    with pytest.raises(ValueError, match="error-correcting learner"):
        plot_history(SoftmaxRegression().fit(X, y))


# -- animate_training -------------------------------------------------------------------


def draw(animation, frame):
    animation._func(frame)  # FuncAnimation's drawing function, one frame
    return animation


def region_codes(animation):
    return np.asarray(animation._fig.axes[0].images[0].get_array())


@pytest.mark.parametrize(
    "clf",
    [
        LinearMachine(random_state=0),
        LinearMachine(update="all", random_state=1),
        Perceptron(random_state=0),
        PiecewiseLinearClassifier(2, random_state=0, max_epochs=10),
        MulticlassSVM(averaged=False, alpha=0.01, max_epochs=3, random_state=0),
    ],
    ids=repr,
)
def test_last_frame_is_the_trained_classifier(three, clf):
    X, y = three
    clf.set_params(record_history=True).fit(X, y)
    animation = animate_training(clf, X, y, by="epoch", resolution=40)
    assert len(animation.frames_) == clf.history_.n_epochs + 1
    draw(animation, len(animation.frames_) - 1)
    ax = animation._fig.axes[0]
    x0, x1, y0, y1 = ax.images[0].get_extent()
    gx, gy = np.meshgrid(np.linspace(x0, x1, 40), np.linspace(y0, y1, 40))
    expected = codes_of(clf, clf.predict(np.column_stack([gx.ravel(), gy.ravel()])))
    np.testing.assert_array_equal(region_codes(animation).ravel(), expected)


def test_one_frame_per_correction_rings_the_sample(three):
    X, y = three
    clf = LinearMachine(record_history=True, random_state=0).fit(X, y)
    rows = clf.history_.corrections
    animation = animate_training(clf, X, y, resolution=30, max_frames=1000)
    assert len(animation.frames_) == len(rows) + 1
    ax = animation._fig.axes[0]
    for frame in (1, 5, len(rows)):
        epoch, index = animation.frames_[frame]
        assert index == frame - 1 and epoch == rows[index]["epoch"]
        draw(animation, frame)
        ring = ax.collections[-1]
        np.testing.assert_array_equal(ring.get_offsets(), X[[rows[index]["sample"]]])
        assert (
            f"sample {rows[index]['sample']} ({y[rows[index]['sample']]})"
            in ax.get_title()
        )
    draw(animation, 0)
    assert "initial weights" in ax.get_title()
    assert len(ax.collections[-1].get_offsets()) == 0
    np.testing.assert_array_equal(animation.weights_[-1], clf.history_.weights[-1])


def test_long_runs_are_thinned_to_max_frames(three):
    X, y = three
    clf = Perceptron(record_history=True, random_state=0, max_epochs=40).fit(X, y)
    animation = animate_training(clf, X, y, by="epoch", max_frames=10, resolution=20)
    assert len(animation.frames_) == 10
    assert animation.frames_[0] == (0, -1)
    assert animation.frames_[-1] == (clf.history_.n_epochs, -1)
    assert animate_training(clf, X, y, max_frames=10, resolution=20).frames_[1][1] == -1


def test_animation_bad_input(three):
    X, y = three
    plain = LinearMachine(random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="record_history=True"):
        animate_training(plain, X, y)
    light = LinearMachine(record_history="weights", random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="not 'weights'"):
        animate_training(light, X, y, by="correction")
    assert (
        len(animate_training(light, X, y, resolution=10).frames_) == light.n_iter_ + 1
    )
    clf = LinearMachine(record_history=True, random_state=0).fit(np.hstack([X, X]), y)
    with pytest.raises(ValueError, match="2-D data"):
        animate_training(clf, np.hstack([X, X]), y)
    with pytest.raises(ValueError, match="by"):
        animate_training(light, X, y, by="step")


# -- plot_search ------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["euclidean", "cityblock", "chebyshev"])
@pytest.mark.parametrize("partition", ["kd", "kmeans"])
def test_search_picture_draws_the_explanation(metric, partition):
    X = np.random.default_rng(1).uniform(size=(500, 2))
    tree = BranchBoundTree(
        X, metric=metric, partition=partition, leaf_size=12, random_state=0
    )
    x = np.array([0.4, 0.6])
    fig, ax = plt.subplots()
    assert plot_search(tree, x, k=2, ax=ax) is ax
    steps = ax.explanation
    _, indices, counts = tree.query(x[None], k=2, return_counts=True)
    np.testing.assert_array_equal(steps.indices, indices[0])
    balls = [p for p in ax.patches if isinstance(p, Polygon)]
    # every entered node but the root, every pruned node, and B around the query
    boxed = steps.pruned_by_box["node"]
    assert len(balls) == (len(steps.entered) - 1 + len(steps.pruned) + len(boxed) + 1)
    assert partition == "kd" or len(boxed) == 0
    # the boxes pruned by the box rule (k-d partition), drawn dotted
    dotted = [p for p in balls if p.get_linestyle() == ":" and p.get_fill()]
    assert len(dotted) == len(boxed)
    for patch, node in zip(dotted, boxed):
        corners = patch.get_xy()
        np.testing.assert_allclose(corners.min(axis=0), node_geometry(tree).low[node])
        np.testing.assert_allclose(corners.max(axis=0), node_geometry(tree).high[node])
    pruned = [p for p in balls if p.get_linestyle() == "--"]
    assert len(pruned) == len(steps.pruned)
    for patch, node in zip(pruned, steps.pruned["node"]):
        vertices = patch.get_xy()
        centre = node_geometry(tree).centers[node]
        reach = {"euclidean": 2, "cityblock": 1, "chebyshev": np.inf}[metric]
        np.testing.assert_allclose(
            np.linalg.norm(vertices - centre, ord=reach, axis=1),
            node_geometry(tree).radius[node],
            rtol=1e-9,
        )
    grey, measured, skipped, stars, query = ax.collections
    seen = steps.distance_evaluations["sample"]
    np.testing.assert_allclose(measured.get_offsets(), X[seen[seen >= 0]])
    np.testing.assert_allclose(
        skipped.get_offsets().reshape(-1, 2), X[steps.skipped["sample"]].reshape(-1, 2)
    )
    np.testing.assert_allclose(stars.get_offsets(), X[indices[0]])
    np.testing.assert_allclose(query.get_offsets(), [x])
    n_means = int(np.sum(steps.distance_evaluations["sample"] == -1))
    n_boxes = int(np.sum(steps.distance_evaluations["sample"] == -2))
    assert (n_boxes > 0) == (partition == "kd")
    boxes = f", {n_boxes} to boxes" if n_boxes else ""
    assert ax.get_title() == (
        f"Branch and bound: {counts[0]} distances for 500 samples\n"
        f"({counts[0] - n_means - n_boxes} to samples, {n_means} "
        f"to node means{boxes})"
    )
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[1] == f"node pruned by rule 1 ({len(steps.pruned)})"
    if len(boxed):
        assert labels[2] == f"box pruned by the box rule ({len(boxed)})"


def test_search_picture_refuses_what_it_cannot_draw():
    X = np.random.default_rng(1).uniform(size=(100, 3))
    with pytest.raises(ValueError, match="2-D trees"):
        plot_search(BranchBoundTree(X), X[0])
    tree = BranchBoundTree(
        X[:, :2], metric="mahalanobis", metric_params={"VI": np.eye(2)}
    )
    with pytest.raises(ValueError, match="mahalanobis"):
        plot_search(tree, X[0, :2])


@pytest.mark.parametrize("module", ["history", "animation", "search"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    module = importlib.import_module(f"patrec.plotting.{module}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_history_error_needs_the_training_features(three):
    X, y = three
    clf = LinearMachine(record_history=True, random_state=0).fit(X, y)
    with pytest.raises(
        ValueError, match="X has 3 features; LinearMachine was trained on 2"
    ):
        plot_history(clf, np.hstack([X, X[:, :1]]), y)


def test_animation_refuses_other_data_than_the_training_data(three):
    X, y = three
    clf = LinearMachine(record_history=True, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="training data the history was recorded on"):
        animate_training(clf, X + 1.0, y, by="correction", resolution=10)


def test_search_picture_takes_only_the_explanation_of_its_query():
    X = np.random.default_rng(1).uniform(size=(200, 2))
    tree = BranchBoundTree(X, leaf_size=12, random_state=0)
    x = np.array([0.4, 0.6])
    steps = tree.explain(x, k=2)
    ax = plot_search(tree, x, k=2, explanation=steps)
    assert ax.explanation is steps
    with pytest.raises(ValueError, match="explanation must be tree.explain"):
        plot_search(tree, x, k=1, explanation=steps)
    with pytest.raises(ValueError, match="explanation must be tree.explain"):
        plot_search(tree, [0.5, 0.5], k=2, explanation=steps)

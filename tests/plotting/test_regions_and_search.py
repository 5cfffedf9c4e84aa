"""plot_decision_regions: check what was drawn, not only that nothing raised."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.colors import to_rgba

from patrec import MinimumDistanceClassifier
from patrec.datasets import make_gaussian_classes
from patrec.plotting import plot_decision_regions


@pytest.fixture
def fitted():
    X, y = make_gaussian_classes([[0, 0], [5, 0], [0, 5]], 0.5, 20, random_state=0)
    labels = np.array(["a", "b", "c"])[y]
    return (
        MinimumDistanceClassifier(n_prototypes=2, random_state=0).fit(X, labels),
        X,
        labels,
    )


@pytest.fixture
def contour_sets(monkeypatch):
    """The contour sets that ``Axes.contourf`` draws during the test, in order.

    Recorded as they are drawn: before matplotlib 3.8 a contour set is not an artist
    of the axes (only its collections are), so it cannot be found among them.
    """
    drawn = []
    contourf = Axes.contourf

    def recording_contourf(self, *args, **kwargs):
        drawn.append(contourf(self, *args, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(Axes, "contourf", recording_contourf)
    return drawn


def test_regions_samples_and_prototypes_drawn(fitted, contour_sets):
    clf, X, y = fitted
    fig, ax = plt.subplots()
    assert plot_decision_regions(clf, X, y, ax=ax, resolution=50, prototypes=True) is ax
    # one scatter per class with exactly that class's samples, then the prototypes
    scatters = ax.collections[-4:]
    for label, collection in zip(clf.classes_, scatters[:3]):
        np.testing.assert_allclose(collection.get_offsets(), X[y == label])
    np.testing.assert_allclose(scatters[3].get_offsets(), clf.prototypes_)
    # the filled regions are the predicted classes on the grid
    (contour,) = contour_sets
    # one level per class, and one for the reject region (empty here)
    np.testing.assert_allclose(contour.levels, [-0.5, 0.5, 1.5, 2.5, 3.5])
    assert not any(len(segment) for segment in contour.allsegs[3])
    colours = [to_rgba(c) for c in plt.get_cmap("tab10").colors[:3]]
    for collection, colour in zip(scatters[:3], colours):
        np.testing.assert_allclose(collection.get_facecolor()[0], colour)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "a",
        "b",
        "c",
        "prototypes",
    ]
    x0, x1 = ax.get_xlim()
    assert x0 < X[:, 0].min() and x1 > X[:, 0].max()
    plt.close(fig)


def test_region_colours_follow_predictions(fitted, contour_sets):
    clf, X, y = fitted
    fig, ax = plt.subplots()
    plot_decision_regions(clf, X, y, ax=ax, resolution=30)
    (contour,) = contour_sets
    # every class wins somewhere, so every level is filled
    assert all(len(s) for s in contour.allsegs[:3])
    assert not any(len(segment) for segment in contour.allsegs[3])
    plt.close(fig)


def test_bad_input(fitted):
    clf, X, y = fitted
    with pytest.raises(ValueError, match="2-D data; X has 3 features"):
        plot_decision_regions(clf, np.ones((4, 3)), None)
    with pytest.raises(ValueError, match="not trained on"):
        plot_decision_regions(clf, X, np.full(len(X), "zzz"))
    with pytest.raises(ValueError, match="resolution must be in"):
        plot_decision_regions(clf, X, y, resolution=1)
    with pytest.raises(ValueError, match="fitted classifier"):
        plot_decision_regions(MinimumDistanceClassifier(), X, y)
    plt.close("all")


def test_works_for_a_scikit_learn_classifier_with_object_labels():
    from sklearn.neighbors import KNeighborsClassifier

    X, y = make_gaussian_classes([[0, 0], [5, 0]], 0.5, 20, random_state=1)
    labels = np.array(["zeta", "alpha"], dtype=object)[y]
    clf = KNeighborsClassifier(n_neighbors=3).fit(X, labels)
    fig, ax = plt.subplots()
    plot_decision_regions(clf, X, labels, ax=ax, resolution=20)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        str(c) for c in clf.classes_
    ]
    plt.close(fig)


def _pixels(fig):
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba())[..., :3].reshape(-1, 3).astype(int)


def _blend(colour, alpha):
    """The RGB (0..255) of ``colour`` drawn with ``alpha`` over white."""
    rgb = np.array(to_rgba(colour)[:3])
    return np.round(255 * (alpha * rgb + (1 - alpha))).astype(int)


def _count(pixels, rgb, tol=3):
    return int(np.sum(np.abs(pixels - rgb).max(axis=1) <= tol))


def test_reject_region_has_its_own_colour_and_legend_entry(contour_sets):
    from patrec import KNeighborsClassifier
    from patrec.plotting.regions import REJECT_COLOUR

    rng = np.random.default_rng(0)
    X = np.vstack(
        [rng.normal([0, 0], 1.0, (150, 2)), rng.normal([2, 1.5], 1.0, (150, 2))]
    )
    y = np.repeat([0, 1], 150)  # integer classes: the reject label -1 is an integer too
    clf = KNeighborsClassifier(n_neighbors=15, reject_threshold=0.8).fit(X, y)
    fig, ax = plt.subplots()
    plot_decision_regions(
        clf, X, y, ax=ax, resolution=60, class_names={0: "circle", 1: "square"}
    )
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "circle",
        "square",
        "rejected",
    ]
    (contour,) = contour_sets
    assert len(contour.allsegs[2])  # the reject level is filled
    pixels = _pixels(fig)
    assert _count(pixels, _blend(REJECT_COLOUR, 0.3)) > 1000
    # the rejected band lies between the classes: its grid points really are rejected
    grid = np.column_stack([np.linspace(-3, 5, 50), np.linspace(-3, 4.5, 50)])
    assert (clf.predict(grid) == -1).any()
    plt.close(fig)


def test_reject_label_among_string_classes():
    from patrec import KNeighborsClassifier

    X, y = make_gaussian_classes([[0, 0], [1.5, 0]], 1.0, 100, random_state=2)
    labels = np.array(["ham", "spam"])[y]
    clf = KNeighborsClassifier(n_neighbors=9, reject_threshold=0.9).fit(X, labels)
    fig, ax = plt.subplots()
    plot_decision_regions(clf, X, labels, ax=ax, resolution=40)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "ham",
        "spam",
        "rejected",
    ]
    plt.close(fig)


def test_axis_labels_from_feature_names_in_and_from_the_argument(fitted):
    pd = pytest.importorskip("pandas")
    import warnings

    clf, X, y = fitted
    frame = pd.DataFrame(X, columns=["length", "width"])
    named = MinimumDistanceClassifier().fit(frame, y)
    fig, ax = plt.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the grid goes in as a frame: no name warning
        plot_decision_regions(named, frame, y, ax=ax, resolution=20)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("length", "width")
    ax.clear()
    plot_decision_regions(clf, X, y, ax=ax, resolution=20, feature_names=["a", "b"])
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("a", "b")
    ax.clear()
    plot_decision_regions(clf, X, y, ax=ax, resolution=20)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("x1", "x2")
    with pytest.raises(ValueError, match="feature_names must name the two"):
        plot_decision_regions(clf, X, y, ax=ax, feature_names=["a"])
    with pytest.raises(ValueError, match="class_names must hold one name per class"):
        plot_decision_regions(clf, X, y, ax=ax, class_names=["a", "b"])
    plt.close(fig)


def test_class_names_replace_codes_in_the_legend(fitted):
    clf, X, _ = fitted
    codes = np.searchsorted(clf.classes_, clf.predict(X))
    coded = MinimumDistanceClassifier().fit(X, codes)
    fig, ax = plt.subplots()
    plot_decision_regions(
        coded,
        X,
        codes,
        ax=ax,
        resolution=20,
        class_names=["setosa", "versicolor", "virginica"],
    )
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "setosa",
        "versicolor",
        "virginica",
    ]
    # no samples given: the legend names the regions
    ax.clear()
    plot_decision_regions(coded, X, ax=ax, resolution=20, class_names=["p", "q", "r"])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["p", "q", "r"]
    plt.close(fig)


def test_any_classifier_with_predict_even_without_classes():
    class Halfplane:
        def predict(self, X):
            return np.where(np.asarray(X)[:, 0] > 0, "right", "left")

    X = np.array([[-1.0, 0.0], [1.0, 0.0], [-2.0, 1.0], [2.0, 1.0]])
    fig, ax = plt.subplots()
    plot_decision_regions(
        Halfplane(), X, ["left", "right", "left", "right"], ax=ax, resolution=20
    )
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["left", "right"]
    with pytest.raises(TypeError, match="with predict"):
        plot_decision_regions(object(), X)
    plt.close(fig)


def test_one_vs_all_claims(contour_sets):
    from patrec import OneVsAll, make_sectors

    X, y = make_sectors(3, 300, random_state=0)
    clf = OneVsAll().fit(X, y)
    fig, ax = plt.subplots()
    plot_decision_regions(clf, X, y, ax=ax, resolution=80, claims=True)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["0", "1", "2", "no class claims", "several classes claim"]
    hatches = {h for c in contour_sets for h in c.hatches if h}
    assert hatches == {"....", "xxxx"}
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="claims=True .* OneVsAll"):
        plot_decision_regions(
            MinimumDistanceClassifier().fit(X, y), X, y, ax=ax, claims=True
        )
    assert not ax.collections  # refused before anything was drawn
    plt.close("all")


def test_dir_shows_only_public_names():
    import patrec.plotting

    assert dir(patrec.plotting) == sorted(patrec.plotting.__all__)
    assert "np" not in dir(patrec.plotting) and "check_X" not in dir(patrec.plotting)


def test_mlxtend_order_draws_what_patrec_order_draws(fitted, contour_sets):
    clf, X, y = fitted
    pictures = []
    for args, kwargs in [
        ((clf, X, y), {}),
        ((X, y, clf), {}),  # mlxtend, positional
        ((X, y), {"clf": clf}),  # mlxtend, the classifier by name
        ((), {"X": X, "y": y, "clf": clf}),
    ]:
        fig, ax = plt.subplots()
        plot_decision_regions(*args, ax=ax, resolution=30, **kwargs)
        contour = contour_sets[-1]
        segments = [np.concatenate(s) if len(s) else s for s in contour.allsegs]
        pictures.append((segments, [t.get_text() for t in ax.get_legend().get_texts()]))
        plt.close(fig)
    for segments, texts in pictures[1:]:
        assert texts == pictures[0][1] == ["a", "b", "c"]
        for got, expected in zip(segments, pictures[0][0]):
            np.testing.assert_array_equal(got, expected)


def test_legend_and_claims_must_be_true_or_false(fitted):
    clf, X, y = fitted
    with pytest.raises(TypeError, match="mlxtend's legend location"):
        plot_decision_regions(X, y, clf=clf, legend=2)
    with pytest.raises(TypeError, match="legend must be True or False"):
        plot_decision_regions(clf, X, y, legend="yes")
    with pytest.raises(TypeError, match="claims must be True or False"):
        plot_decision_regions(clf, X, y, claims=1)
    with pytest.raises(TypeError, match="two values for 'X'"):
        plot_decision_regions(X, y, clf, X=X)
    fig, ax = plt.subplots()
    plot_decision_regions(clf, X, y, ax=ax, resolution=20, legend=False)
    assert ax.get_legend() is None
    plt.close("all")


def test_a_missing_classifier_is_named(fitted):
    _, X, y = fitted
    with pytest.raises(TypeError, match="takes the classifier first"):
        plot_decision_regions(X, y)
    with pytest.raises(TypeError, match="plot_decision_regions: .*feature_index"):
        plot_decision_regions(X, y, fitted[0], feature_index=[0, 1])

"""plot_decision_regions: check what was drawn, not only that nothing raised."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgba

from patrec import MinimumDistanceClassifier
from patrec.datasets import make_gaussian_classes
from patrec.plotting import plot_decision_regions


@pytest.fixture
def fitted():
    X, y = make_gaussian_classes([[0, 0], [5, 0], [0, 5]], 0.5, 20, random_state=0)
    labels = np.array(["a", "b", "c"])[y]
    return MinimumDistanceClassifier(n_prototypes=2, random_state=0).fit(X, labels), X, labels


def test_regions_samples_and_prototypes_drawn(fitted):
    clf, X, y = fitted
    fig, ax = plt.subplots()
    assert plot_decision_regions(clf, X, y, ax=ax, resolution=50, prototypes=True) is ax
    # one scatter per class with exactly that class's samples, then the prototypes
    scatters = ax.collections[-4:]
    for label, collection in zip(clf.classes_, scatters[:3]):
        np.testing.assert_allclose(collection.get_offsets(), X[y == label])
    np.testing.assert_allclose(scatters[3].get_offsets(), clf.prototypes_)
    # the filled regions are the predicted classes on the grid
    contour = next(c for c in ax.get_children() if hasattr(c, "levels"))
    np.testing.assert_allclose(contour.levels, [-0.5, 0.5, 1.5, 2.5])
    colours = [to_rgba(c) for c in plt.get_cmap("tab10").colors[:3]]
    for label, collection, colour in zip(clf.classes_, scatters[:3], colours):
        np.testing.assert_allclose(collection.get_facecolor()[0], colour)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b", "c",
                                                                   "prototypes"]
    x0, x1 = ax.get_xlim()
    assert x0 < X[:, 0].min() and x1 > X[:, 0].max()
    plt.close(fig)


def test_region_colours_follow_predictions(fitted):
    clf, X, y = fitted
    fig, ax = plt.subplots()
    plot_decision_regions(clf, X, y, ax=ax, resolution=30)
    contour = next(c for c in ax.get_children() if hasattr(c, "levels"))
    # every class wins somewhere, so every level is filled
    assert len(contour.allsegs) == 3 and all(len(s) for s in contour.allsegs)
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
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [str(c) for c in
                                                                   clf.classes_]
    plt.close(fig)

"""The confusion matrix and the error-reject curve: what is drawn is what the numbers
of patrec.model_selection say."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from patrec import KNeighborsClassifier
from patrec.datasets import make_gaussian_classes
from patrec.model_selection import confusion_matrix, error_reject_curve
from patrec.plotting import plot_confusion_matrix, plot_error_reject_curve


def test_confusion_matrix_cells_and_axes():
    y_true = ["a", "a", "a", "b", "b", "c"]
    y_pred = ["a", "b", "?", "b", "b", "a"]
    fig, ax = plt.subplots()
    assert plot_confusion_matrix(y_true, y_pred, reject_label="?", ax=ax) is ax
    C = confusion_matrix(y_true, y_pred, reject_label="?")
    np.testing.assert_array_equal(ax.images[0].get_array(), C)
    assert [t.get_text() for t in ax.texts] == [str(v) for v in C.ravel()]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c", "rejected"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("predicted class", "true class")
    plt.close(fig)


def test_normalized_rows_sum_to_one():
    fig, ax = plt.subplots()
    plot_confusion_matrix([0, 0, 0, 1], [0, 1, 1, 1], normalize=True, ax=ax)
    shown = ax.images[0].get_array()
    np.testing.assert_allclose(shown.sum(axis=1), 1.0)
    assert [t.get_text() for t in ax.texts] == ["0.33", "0.67", "0.00", "1.00"]
    with pytest.raises(TypeError, match="normalize must be True or False"):
        plot_confusion_matrix([0], [0], normalize="rows")
    plt.close("all")


def test_error_reject_curve_is_the_computed_curve():
    X, y = make_gaussian_classes([[0, 0], [1.5, 0]], 1.0, 80, random_state=3)
    clf = KNeighborsClassifier(n_neighbors=9).fit(X[::2], y[::2])
    fig, ax = plt.subplots()
    plot_error_reject_curve(clf, X[1::2], y[1::2], ax=ax, label="9-NN")
    curve = error_reject_curve(clf, X[1::2], y[1::2])
    line = ax.get_lines()[0]
    np.testing.assert_array_equal(line.get_xdata(), curve["reject_rate"])
    np.testing.assert_array_equal(line.get_ydata(), curve["error"])
    assert line.get_label() == "9-NN" and ax.get_xlim() == (0, 1)
    assert line.get_ydata()[0] > 0 and line.get_ydata()[-1] == 0
    plt.close(fig)

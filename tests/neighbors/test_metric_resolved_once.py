"""The metric is resolved once per fit: an estimator or public function builds one
`Metric` (and factorises a quadratic form's VI once) and hands the object down to
the index choice, the probe's trees, the indexes, the growing store and every round
of editing, whatever the number of rounds."""

import numpy as np
import pytest

from patrec import KNeighborsClassifier, MinimumDistanceClassifier, NearestNeighbors
from patrec.neighbors import (
    Condensing,
    Editing,
    MultiEditing,
    condense,
    edit,
    edit_condense,
    multiedit,
)
from patrec.neighbors.search import metrics

VI = np.array([[2.0, 0.3, 0.0], [0.3, 1.0, 0.1], [0.0, 0.1, 0.5]])
MAHALANOBIS = {"metric": "mahalanobis", "metric_params": {"VI": VI}}


@pytest.fixture
def counted(monkeypatch):
    """Counts of `Metric` constructions and Cholesky factorisations."""
    counts = {"Metric": 0, "cholesky": 0}
    original_init, original_cholesky = metrics.Metric.__init__, metrics.cholesky

    def init(self, *args, **kwargs):
        counts["Metric"] += 1
        original_init(self, *args, **kwargs)

    def cholesky(*args, **kwargs):
        counts["cholesky"] += 1
        return original_cholesky(*args, **kwargs)

    monkeypatch.setattr(metrics.Metric, "__init__", init)
    monkeypatch.setattr(metrics, "cholesky", cholesky)
    return counts


def _data(n=1500):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + rng.normal(0, 0.8, n) > 0).astype(int)
    return X, y


FITS = {
    "knn auto": lambda X, y: KNeighborsClassifier(**MAHALANOBIS).fit(X, y),
    "knn bnb": lambda X, y: KNeighborsClassifier(algorithm="bnb", **MAHALANOBIS).fit(
        X, y
    ),
    "knn brute": lambda X, y: KNeighborsClassifier(
        algorithm="brute", **MAHALANOBIS
    ).fit(X, y),
    "nearest neighbors": lambda X, y: NearestNeighbors(**MAHALANOBIS).fit(X),
    "minimum distance": lambda X, y: MinimumDistanceClassifier(**MAHALANOBIS).fit(X, y),
    "edit, 20 rounds": lambda X, y: edit(X, y, max_iter=20, **MAHALANOBIS),
    "multiedit": lambda X, y: multiedit(X, y, random_state=0, **MAHALANOBIS),
    "condense": lambda X, y: condense(X, y, **MAHALANOBIS),
    "edit_condense": lambda X, y: edit_condense(X, y, random_state=0, **MAHALANOBIS),
    "Editing": lambda X, y: Editing(max_iter=20, **MAHALANOBIS).fit(X, y),
    "MultiEditing": lambda X, y: MultiEditing(random_state=0, **MAHALANOBIS).fit(X, y),
    "Condensing": lambda X, y: Condensing(**MAHALANOBIS).fit(X, y),
}


@pytest.mark.parametrize("n", [300, 1500])
@pytest.mark.parametrize("fit", sorted(FITS))
def test_one_metric_and_one_factorisation_per_fit(fit, n, counted):
    FITS[fit](*_data(n))
    assert counted == {"Metric": 1, "cholesky": 1}

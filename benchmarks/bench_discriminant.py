"""FisherLDA and QDA fit + predict against scikit-learn's discriminant analysis.

n = 100 000 samples, d = 50 features, 10 Gaussian classes with different covariances,
single thread.  Each measurement times ``fit(X, y)`` followed by ``predict(X)``.
FisherLDA is compared solver by solver with ``LinearDiscriminantAnalysis``; QDA with
``QuadraticDiscriminantAnalysis`` in float64 and float32.
"""

import _common  # noqa: F401  (sets the single-thread limits first)
import numpy as np
from sklearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)

from patrec import QDA, FisherLDA


def make_data(n, d, n_classes, rng):
    """Gaussian classes, each with its own random covariance."""
    means = rng.normal(scale=1.5, size=(n_classes, d))
    y = rng.integers(n_classes, size=n)
    X = np.empty((n, d))
    for k in range(n_classes):
        mixing = np.eye(d) + 0.3 * rng.normal(size=(d, d)) / np.sqrt(d)
        rows = y == k
        X[rows] = means[k] + rng.normal(size=(rows.sum(), d)) @ mixing
    return X, y


def fit_predict(model, X, y):
    return lambda: model.fit(X, y).predict(X)


def main():
    n, d, n_classes = (10_000, 50, 10) if _common.quick() else (100_000, 50, 10)
    repeats = 3 if _common.quick() else 5
    X, y = make_data(n, d, n_classes, np.random.default_rng(0))
    cases = [
        (
            "fisher_lda_fit_predict",
            {"solver": "svd"},
            "float64",
            FisherLDA(solver="svd"),
            LinearDiscriminantAnalysis(solver="svd"),
            "sklearn.LinearDiscriminantAnalysis",
        ),
        (
            "fisher_lda_fit_predict",
            {"solver": "eigen"},
            "float64",
            FisherLDA(solver="eigen"),
            LinearDiscriminantAnalysis(solver="eigen"),
            "sklearn.LinearDiscriminantAnalysis",
        ),
        (
            "qda_fit_predict",
            {},
            "float64",
            QDA(),
            QuadraticDiscriminantAnalysis(),
            "sklearn.QuadraticDiscriminantAnalysis",
        ),
        (
            "qda_fit_predict",
            {},
            "float32",
            QDA(),
            QuadraticDiscriminantAnalysis(),
            "sklearn.QuadraticDiscriminantAnalysis",
        ),
    ]
    for benchmark, options, dtype, ours, theirs, reference in cases:
        X_typed = X.astype(dtype)
        agreement = float(
            np.mean(
                ours.fit(X_typed, y).predict(X_typed)
                == theirs.fit(X_typed, y).predict(X_typed)
            )
        )
        t_ours, t_theirs = _common.compare(
            fit_predict(ours, X_typed, y),
            fit_predict(theirs, X_typed, y),
            repeats=repeats,
        )
        params = {"n": n, "d": d, "n_classes": n_classes, "dtype": dtype, **options}
        _common.report(
            benchmark, params, t_ours, reference, t_theirs, agreement=agreement
        )


if __name__ == "__main__":
    main()

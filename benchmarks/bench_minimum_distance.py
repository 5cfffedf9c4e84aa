"""MinimumDistanceClassifier.predict against scikit-learn's NearestCentroid.predict.

n = 200 000 samples, d = 32 features, 10 classes, one prototype per class, euclidean,
float64, single thread.
"""

import _common  # noqa: F401  (sets the single-thread limits first)
import numpy as np
from sklearn.neighbors import NearestCentroid

from patrec import MinimumDistanceClassifier


def main():
    n, d, n_classes = (20_000, 32, 10) if _common.quick() else (200_000, 32, 10)
    rng = np.random.default_rng(0)
    centers = rng.normal(scale=3.0, size=(n_classes, d))
    y = rng.integers(n_classes, size=n)
    X = centers[y] + rng.normal(size=(n, d))
    ours = MinimumDistanceClassifier().fit(X, y)
    theirs = NearestCentroid().fit(X, y)
    agree = float(np.mean(ours.predict(X) == theirs.predict(X)))
    t_ours, t_theirs = _common.compare(
        lambda: ours.predict(X), lambda: theirs.predict(X), repeats=7
    )
    _common.report(
        "minimum_distance_predict",
        {"n": n, "d": d, "n_classes": n_classes, "dtype": "float64"},
        t_ours,
        "sklearn.NearestCentroid",
        t_theirs,
        agreement=agree,
    )


if __name__ == "__main__":
    main()

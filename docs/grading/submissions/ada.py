"""Ada's homework: the k-NN rule, Wilson editing and Kesler's construction."""

import numpy as np


def knn(X, labels, queries, k):
    neighbors, predictions = [], []
    for x in queries:
        d = np.linalg.norm(X - x, axis=1)
        nearest = np.argsort(d, kind="stable")[:k]
        neighbors.append(nearest)
        predictions.append(np.argmax(np.bincount(labels[nearest])))
    return np.array(neighbors), np.array(predictions)


def wilson_editing(X, labels, k=3):
    kept = []
    for j in range(len(X)):
        d = np.linalg.norm(X - X[j], axis=1)
        d[j] = np.inf  # leave x_j out
        nearest = np.argsort(d, kind="stable")[:k]
        if np.argmax(np.bincount(labels[nearest])) == labels[j]:
            kept.append(j)
    return np.array(kept)


def kesler(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j in range(n):
        i = labels[j]
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(X[j], 1.0)
    return psi

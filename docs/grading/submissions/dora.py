"""Dora's homework: Kesler's construction, which stops the program when done."""

import sys

import numpy as np


def kesler(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j in range(n):
        i = labels[j]
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(X[j], 1.0)
    print(psi)
    sys.exit(0)  # done

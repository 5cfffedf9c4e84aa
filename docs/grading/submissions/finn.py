"""Finn's homework: Wilson editing on a raster of the plane."""

import numpy as np


def wilson_editing(X, labels, k=3):
    # the plane as a grid of cells 1e-4 wide, each cell holding the class of the
    # sample in it, for coordinates from -1 to 5: 60 000 x 60 000 cells, 29 GB
    grid = np.full((60_000, 60_000), -1)
    cells = np.round((X + 1) * 10_000).astype(int)
    grid[cells[:, 0], cells[:, 1]] = labels
    kept = []
    for j, (row, column) in enumerate(cells):
        window = grid[row - 5000 : row + 5000, column - 5000 : column + 5000]
        found = window[window >= 0]
        if np.argmax(np.bincount(found, minlength=k)) == labels[j]:
            kept.append(j)
    return np.array(kept)

"""Eve's homework: Hart's condensing, whose passes never end."""

import numpy as np


def hart_condensing(X, labels):
    store = [0]
    moved = True
    while moved:
        # `moved` should start each pass False: as it is, once a pass has moved a
        # sample, every pass after it runs again
        for j in range(len(X)):
            if j in store:
                continue
            d = np.linalg.norm(X[store] - X[j], axis=1)
            if labels[store[int(np.argmin(d))]] != labels[j]:
                store.append(j)
                moved = True
    return store

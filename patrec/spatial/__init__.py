"""SciPy's k-d tree interface over patrec's compiled tree.

`cKDTree` and `KDTree` take the arguments of ``scipy.spatial.cKDTree`` and
``scipy.spatial.KDTree`` and answer every method (``query``, ``query_ball_point``,
``query_ball_tree``, ``query_pairs``, ``count_neighbors``,
``sparse_distance_matrix``) with SciPy's values, shapes and types: the search runs
on `patrec.neighbors.BranchBoundTree`, and each neighbour found is measured again
with SciPy's own arithmetic, so what is within a radius and every distance returned
are SciPy's.  A script written for SciPy needs only its import changed::

    from patrec.spatial import cKDTree   # was: from scipy.spatial import cKDTree

What differs (the order of equal distances, ``eps``, a few refused inputs) is
listed in the Notes of `cKDTree`.

Examples
--------
>>> import numpy as np
>>> from patrec.spatial import cKDTree
>>> points = np.random.default_rng(0).uniform(size=(1000, 3))
>>> tree = cKDTree(points)
>>> distances, indices = tree.query(points[:5], k=2)
>>> distances.shape, indices[:, 0].tolist()
((5, 2), [0, 1, 2, 3, 4])
>>> len(tree.query_pairs(0.01)) == tree.count_neighbors(tree, 0.01) // 2 - 500
True
"""

from ._kdtree import KDTree, cKDTree, cKDTreeNode

__all__ = ["cKDTree", "KDTree", "cKDTreeNode"]

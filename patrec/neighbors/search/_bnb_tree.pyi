# Type stub of the compiled module patrec.neighbors.search._bnb_tree.
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

MAX_CHILDREN: int
MORTON_FEATURES: int

def box_rdist(
    kind: int,
    p: float,
    x: npt.NDArray[np.floating],
    low: npt.NDArray[np.floating],
    high: npt.NDArray[np.floating],
) -> float: ...

@disjoint_base
class SearchTree:
    data: npt.NDArray[np.floating]
    order: npt.NDArray[np.intp]
    to_center: npt.NDArray[np.float64]
    node_start: npt.NDArray[np.intp]
    node_end: npt.NDArray[np.intp]
    node_child: npt.NDArray[np.intp]
    node_nchild: npt.NDArray[np.intp]
    centers: npt.NDArray[np.floating]
    radius: npt.NDArray[np.float64]
    low: npt.NDArray[np.floating]
    high: npt.NDArray[np.floating]
    kd_nodes: npt.NDArray[np.intp]
    kd_cuts: npt.NDArray[np.floating]
    kd_spans: npt.NDArray[np.floating]
    kind: int
    p: float
    grow: float
    tiny: float
    use_boxes: bool
    depth: int

NODE_FIELDS: tuple[str, ...]
FIELDS: tuple[str, ...]

def make_search_tree(
    fields: Mapping[str, Any],
) -> SearchTree: ...
def knn_search(
    search_tree: SearchTree,
    queries: npt.NDArray[np.floating],
    out_dist: npt.NDArray[np.floating],
    out_idx: npt.NDArray[np.intp],
    out_evals: npt.NDArray[np.intp] | None = None,
    out_rows: npt.NDArray[np.intp] | None = None,
) -> None: ...
def locality_order(
    queries: npt.NDArray[np.floating],
    low: npt.NDArray[np.floating],
    high: npt.NDArray[np.floating],
) -> npt.NDArray[np.intp]: ...
def leaf_order(
    search_tree: SearchTree, queries: npt.NDArray[np.floating]
) -> npt.NDArray[np.intp]: ...
def radius_search(
    search_tree: SearchTree,
    queries: npt.NDArray[np.floating],
    r: float,
    reduced_r: float,
    max_found: int,
    out_counts: npt.NDArray[np.intp],
    out_evals: npt.NDArray[np.intp],
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]] | None: ...

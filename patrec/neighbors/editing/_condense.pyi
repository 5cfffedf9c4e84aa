# Type stub of the compiled module patrec.neighbors.editing._condense.
import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

@disjoint_base
class StoreTree:
    data: npt.NDArray[np.floating]
    perm: npt.NDArray[np.intp]
    position: npt.NDArray[np.intp]
    node_start: npt.NDArray[np.intp]
    node_left: npt.NDArray[np.intp]
    parent: npt.NDArray[np.intp]
    leaf_of: npt.NDArray[np.intp]
    count: npt.NDArray[np.intp]
    box_low: npt.NDArray[np.floating]
    box_high: npt.NDArray[np.floating]
    kind: int
    p: float
    grow: float
    tiny: float

def make_store_tree(
    *,
    data: npt.NDArray[np.floating],
    perm: npt.NDArray[np.intp],
    position: npt.NDArray[np.intp],
    node_start: npt.NDArray[np.intp],
    node_left: npt.NDArray[np.intp],
    parent: npt.NDArray[np.intp],
    leaf_of: npt.NDArray[np.intp],
    count: npt.NDArray[np.intp],
    box_low: npt.NDArray[np.floating],
    box_high: npt.NDArray[np.floating],
    kind: int,
    p: float,
    grow: float,
    tiny: float,
) -> StoreTree: ...
def insert(
    tree: StoreTree, X: npt.NDArray[np.floating], samples: npt.NDArray[np.intp]
) -> None: ...
def query_batch(
    tree: StoreTree,
    X: npt.NDArray[np.floating],
    samples: npt.NDArray[np.intp],
    rank_of: npt.NDArray[np.intp],
    n_stored: int,
    best: npt.NDArray[np.float64],
    best_rank: npt.NDArray[np.intp],
    checked: npt.NDArray[np.intp],
) -> None: ...
def knn_batch(
    tree: StoreTree,
    X: npt.NDArray[np.floating],
    samples: npt.NDArray[np.intp],
    rank_of: npt.NDArray[np.intp],
    out_dist: npt.NDArray[np.floating],
    out_rank: npt.NDArray[np.intp],
) -> None: ...
def resolve_batch(
    kind: int,
    p: float,
    X: npt.NDArray[np.floating],
    codes: npt.NDArray[np.intp],
    samples: npt.NDArray[np.intp],
    best: npt.NDArray[np.float64],
    best_rank: npt.NDArray[np.intp],
    checked: npt.NDArray[np.intp],
    store: npt.NDArray[np.intp],
    rank_of: npt.NDArray[np.intp],
    n_stored: int,
) -> int: ...
def catch_up_batch(
    kind: int,
    p: float,
    X: npt.NDArray[np.floating],
    stored_rows: npt.NDArray[np.floating],
    samples: npt.NDArray[np.intp],
    n_stored: int,
    best: npt.NDArray[np.float64],
    best_rank: npt.NDArray[np.intp],
    checked: npt.NDArray[np.intp],
) -> None: ...

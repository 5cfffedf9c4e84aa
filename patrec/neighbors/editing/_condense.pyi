# Type stub of the compiled module patrec.neighbors.editing._condense.
import numpy as np
import numpy.typing as npt

def tree_size(n_samples: int, leaf_size: int) -> int: ...
def build_tree(
    X: npt.NDArray[np.floating],
    leaf_size: int,
    perm: npt.NDArray[np.intp],
    node_start: npt.NDArray[np.intp],
    node_end: npt.NDArray[np.intp],
    node_left: npt.NDArray[np.intp],
    parent: npt.NDArray[np.intp],
    leaf_of: npt.NDArray[np.intp],
) -> int: ...
def insert(
    X: npt.NDArray[np.floating],
    samples: npt.NDArray[np.intp],
    perm: npt.NDArray[np.intp],
    position: npt.NDArray[np.intp],
    node_start: npt.NDArray[np.intp],
    parent: npt.NDArray[np.intp],
    leaf_of: npt.NDArray[np.intp],
    count: npt.NDArray[np.intp],
    box_low: npt.NDArray[np.floating],
    box_high: npt.NDArray[np.floating],
) -> None: ...
def query_batch(
    kind: int,
    p: float,
    X: npt.NDArray[np.floating],
    samples: npt.NDArray[np.intp],
    perm: npt.NDArray[np.intp],
    node_start: npt.NDArray[np.intp],
    node_left: npt.NDArray[np.intp],
    count: npt.NDArray[np.intp],
    box_low: npt.NDArray[np.floating],
    box_high: npt.NDArray[np.floating],
    rank_of: npt.NDArray[np.intp],
    n_stored: int,
    grow: float,
    tiny: float,
    best: npt.NDArray[np.float64],
    best_rank: npt.NDArray[np.intp],
    checked: npt.NDArray[np.intp],
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
def knn_batch(
    kind: int,
    p: float,
    X: npt.NDArray[np.floating],
    samples: npt.NDArray[np.intp],
    perm: npt.NDArray[np.intp],
    node_start: npt.NDArray[np.intp],
    node_left: npt.NDArray[np.intp],
    count: npt.NDArray[np.intp],
    box_low: npt.NDArray[np.floating],
    box_high: npt.NDArray[np.floating],
    rank_of: npt.NDArray[np.intp],
    grow: float,
    tiny: float,
    out_dist: npt.NDArray[np.floating],
    out_rank: npt.NDArray[np.intp],
) -> None: ...

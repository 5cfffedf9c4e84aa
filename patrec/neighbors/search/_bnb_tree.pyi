# Type stub of the compiled module patrec.neighbors.search._bnb_tree.
import numpy as np
import numpy.typing as npt

MAX_CHILDREN: int

def box_rdist(
    kind: int,
    p: float,
    x: npt.NDArray[np.floating],
    low: npt.NDArray[np.floating],
    high: npt.NDArray[np.floating],
) -> float: ...
def knn_search(
    kind: int,
    p: float,
    queries: npt.NDArray[np.floating],
    data: npt.NDArray[np.floating],
    centers: npt.NDArray[np.floating],
    low: npt.NDArray[np.floating],
    high: npt.NDArray[np.floating],
    use_boxes: bool,
    node_start: npt.NDArray[np.intp],
    node_end: npt.NDArray[np.intp],
    node_child: npt.NDArray[np.intp],
    node_nchild: npt.NDArray[np.intp],
    radius: npt.NDArray[np.float64],
    to_center: npt.NDArray[np.float64],
    order: npt.NDArray[np.intp],
    grow: float,
    tiny: float,
    kd_nodes: npt.NDArray[np.intp],
    kd_cuts: npt.NDArray[np.floating],
    depth: int,
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
def radius_search(
    kind: int,
    p: float,
    queries: npt.NDArray[np.floating],
    data: npt.NDArray[np.floating],
    centers: npt.NDArray[np.floating],
    low: npt.NDArray[np.floating],
    high: npt.NDArray[np.floating],
    use_boxes: bool,
    node_start: npt.NDArray[np.intp],
    node_end: npt.NDArray[np.intp],
    node_child: npt.NDArray[np.intp],
    node_nchild: npt.NDArray[np.intp],
    radius: npt.NDArray[np.float64],
    to_center: npt.NDArray[np.float64],
    order: npt.NDArray[np.intp],
    grow: float,
    tiny: float,
    kd_nodes: npt.NDArray[np.intp],
    kd_cuts: npt.NDArray[np.floating],
    depth: int,
    r: float,
    out_counts: npt.NDArray[np.intp],
    out_evals: npt.NDArray[np.intp],
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]: ...

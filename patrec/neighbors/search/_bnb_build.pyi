# Type stub of the compiled module patrec.neighbors.search._bnb_build.
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

def partition(
    data: npt.NDArray[np.floating],
    order: npt.NDArray[np.intp],
    leaf_size: int,
    kmeans: bool,
    branching: int,
    seed: int,
    nodes: Sequence[npt.NDArray[np.intp]],
    cuts: npt.NDArray[np.floating],
    root_box: Sequence[npt.NDArray[np.floating]],
) -> tuple[int, int]: ...
def measure_nodes(
    metric: Any,
    data: npt.NDArray[np.floating],
    order: npt.NDArray[np.intp],
    nodes: Sequence[npt.NDArray[np.intp]],
    centers: npt.NDArray[np.floating],
    radius: npt.NDArray[np.float64],
    low: npt.NDArray[np.floating],
    high: npt.NDArray[np.floating],
    to_center: npt.NDArray[np.float64],
    sort_leaves: bool = True,
) -> None: ...
def cell_spans(
    node_child: npt.NDArray[np.intp],
    node_dim: npt.NDArray[np.intp],
    cuts: npt.NDArray[np.floating],
    root_low: npt.NDArray[np.floating],
    root_high: npt.NDArray[np.floating],
    spans: npt.NDArray[np.floating],
) -> None: ...

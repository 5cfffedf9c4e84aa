# Type stub of the compiled module patrec.neighbors.search._brute.
import numpy as np
import numpy.typing as npt

def knn_direct(
    kind: int,
    p: float,
    queries: npt.NDArray[np.floating],
    train: npt.NDArray[np.floating],
    out_dist: npt.NDArray[np.floating],
    out_idx: npt.NDArray[np.intp],
    block_queries: int = ...,
    block_train: int = ...,
) -> None: ...
def knn_gemm(
    queries: npt.NDArray[np.floating],
    train: npt.NDArray[np.floating],
    train_centered: npt.NDArray[np.floating],
    train_sqnorms: npt.NDArray[np.floating],
    center: npt.NDArray[np.float64],
    out_dist: npt.NDArray[np.floating],
    out_idx: npt.NDArray[np.intp],
    block_queries: int = ...,
    block_train: int = ...,
    defer: int = ...,
) -> int: ...

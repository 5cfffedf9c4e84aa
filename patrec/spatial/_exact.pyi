# Type stub of the compiled module patrec.spatial._exact.
import numpy as np
import numpy.typing as npt

KIND_P2: int
KIND_P1: int
KIND_PINF: int
KIND_PGENERAL: int

def pair_rdist(
    kind: int,
    p: float,
    tree_points: npt.NDArray[np.float64],
    points: npt.NDArray[np.float64],
    tree_rows: npt.NDArray[np.intp],
    rows: npt.NDArray[np.intp],
    box: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None: ...
def rank_candidates(
    kind: int,
    p: float,
    tree_points: npt.NDArray[np.float64],
    points: npt.NDArray[np.float64],
    index: npt.NDArray[np.intp],
    reduced: npt.NDArray[np.float64],
    box: npt.NDArray[np.float64],
) -> None: ...
def power(
    x: npt.NDArray[np.float64], p: float, out: npt.NDArray[np.float64]
) -> None: ...

# Type stub of the compiled module patrec.neighbors.search._distances.
import numpy as np
import numpy.typing as npt

KINDS: dict[str, int]
SIMD: bool

def pairwise_rdist(
    kind: int,
    p: float,
    X: npt.NDArray[np.floating],
    Y: npt.NDArray[np.floating],
    out: npt.NDArray[np.floating],
) -> None: ...
def group_min_rdist(
    kind: int,
    p: float,
    X: npt.NDArray[np.floating],
    Y: npt.NDArray[np.floating],
    group_of: npt.NDArray[np.intp],
    out: npt.NDArray[np.floating],
    nearest: npt.NDArray[np.intp],
) -> None: ...

# Type stub of the compiled module patrec.neighbors.search._row_match.
import numpy as np
import numpy.typing as npt

def row_keys(rows: npt.NDArray[np.floating], out: npt.NDArray[np.uint64]) -> None: ...
def keep_equal(
    data: npt.NDArray[np.floating],
    X: npt.NDArray[np.floating],
    candidate: npt.NDArray[np.intp],
    equal: npt.NDArray[np.uint8],
) -> None: ...
def no_tiny_values(rows: npt.NDArray[np.floating], smallest: float) -> bool: ...

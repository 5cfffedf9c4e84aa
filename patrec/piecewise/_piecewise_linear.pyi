# Type stub of the compiled module patrec.piecewise._piecewise_linear.
import numpy as np
import numpy.typing as npt

def piecewise_linear_epoch(
    values: npt.NDArray[np.floating],
    columns: npt.NDArray[np.intp],
    row_starts: npt.NDArray[np.intp],
    n_features: int,
    codes: npt.NDArray[np.intp],
    first: npt.NDArray[np.intp],
    order: npt.NDArray[np.intp],
    Wt: npt.NDArray[np.float64],
    Ut: npt.NDArray[np.float64],
    scores: npt.NDArray[np.float64],
    counter: npt.NDArray[np.float64],
    rate: float,
    margin: float,
    averaged: bool,
    log: npt.NDArray[np.intp],
    n_logged: npt.NDArray[np.intp],
) -> int: ...

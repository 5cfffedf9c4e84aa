# Type stub of the compiled module patrec.linear._multiclass_svm.
import numpy as np
import numpy.typing as npt

def crammer_singer_epoch(
    values: npt.NDArray[np.floating],
    columns: npt.NDArray[np.intp],
    row_starts: npt.NDArray[np.intp],
    n_features: int,
    codes: npt.NDArray[np.intp],
    order: npt.NDArray[np.intp],
    Vt: npt.NDArray[np.float64],
    Ut: npt.NDArray[np.float64],
    scores: npt.NDArray[np.float64],
    state: npt.NDArray[np.float64],
    lam: float,
    averaged: bool,
    sample_weight: npt.NDArray[np.float64],
    log: npt.NDArray[np.intp],
    n_logged: npt.NDArray[np.intp],
) -> int: ...
def crammer_singer_objective(
    values: npt.NDArray[np.floating],
    columns: npt.NDArray[np.intp],
    row_starts: npt.NDArray[np.intp],
    n_features: int,
    codes: npt.NDArray[np.intp],
    Wt: npt.NDArray[np.float64],
    lam: float,
    scores: npt.NDArray[np.float64],
    sample_weight: npt.NDArray[np.float64],
) -> tuple[float, int]: ...

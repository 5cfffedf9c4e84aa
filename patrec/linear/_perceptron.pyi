# Type stub of the compiled module patrec.linear._perceptron.
import numpy as np
import numpy.typing as npt

def binary_perceptron_epoch(
    values: npt.NDArray[np.floating],
    columns: npt.NDArray[np.intp],
    row_starts: npt.NDArray[np.intp],
    n_features: int,
    codes: npt.NDArray[np.intp],
    order: npt.NDArray[np.intp],
    w: npt.NDArray[np.float64],
    u: npt.NDArray[np.float64],
    counter: npt.NDArray[np.float64],
    rate: float,
    margin: float,
    averaged: bool,
    sample_weight: npt.NDArray[np.float64],
    log: npt.NDArray[np.intp],
    n_logged: npt.NDArray[np.intp],
) -> int: ...
def linear_machine_epoch(
    values: npt.NDArray[np.floating],
    columns: npt.NDArray[np.intp],
    row_starts: npt.NDArray[np.intp],
    n_features: int,
    codes: npt.NDArray[np.intp],
    order: npt.NDArray[np.intp],
    Wt: npt.NDArray[np.float64],
    Ut: npt.NDArray[np.float64],
    scores: npt.NDArray[np.float64],
    counter: npt.NDArray[np.float64],
    rate: float,
    margin: float,
    update_all: bool,
    averaged: bool,
    sample_weight: npt.NDArray[np.float64],
    log: npt.NDArray[np.intp],
    n_logged: npt.NDArray[np.intp],
) -> int: ...

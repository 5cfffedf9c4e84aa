# Type stub of the compiled module patrec.linear._multiclass_svm.
import numpy as np
import numpy.typing as npt

from patrec._epoch_state import EpochState

def crammer_singer_epoch(
    state: EpochState,
    order: npt.NDArray[np.intp],
    lam: float,
    averaged: bool,
) -> int: ...
def crammer_singer_objective(
    state: EpochState,
    Wt: npt.NDArray[np.float64],
    lam: float,
) -> tuple[float, int]: ...

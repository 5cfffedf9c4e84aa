# Type stub of the compiled module patrec.piecewise._piecewise_linear.
import numpy as np
import numpy.typing as npt

from patrec._epoch_state import EpochState

def piecewise_linear_epoch(
    state: EpochState,
    order: npt.NDArray[np.intp],
    first: npt.NDArray[np.intp],
    rate: float,
    margin: float,
    averaged: bool,
) -> int: ...

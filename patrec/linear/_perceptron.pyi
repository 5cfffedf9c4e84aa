# Type stub of the compiled module patrec.linear._perceptron.
import numpy as np
import numpy.typing as npt

from patrec._epoch_state import EpochState

def binary_perceptron_epoch(
    state: EpochState,
    order: npt.NDArray[np.intp],
    s: int,
    positive: int,
    rate: float,
    margin: float,
    averaged: bool,
) -> int: ...
def linear_machine_epoch(
    state: EpochState,
    order: npt.NDArray[np.intp],
    rate: float,
    margin: float,
    update_all: bool,
    averaged: bool,
) -> int: ...

# Type stub of the compiled module patrec._epoch_state.
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

def row_storage(
    X: Any,
) -> tuple[npt.NDArray[np.floating], npt.NDArray[np.intp], npt.NDArray[np.intp]]: ...

@disjoint_base
class EpochState:
    single: bool
    n_features: int
    def __init__(
        self,
        X: Any,
        codes: npt.NDArray[np.intp],
        W: npt.NDArray[np.float64],
        U: npt.NDArray[np.float64],
        counter: npt.NDArray[np.float64],
        sample_weight: npt.NDArray[np.float64] = ...,
    ) -> None: ...
    def record_into(
        self, log: npt.NDArray[np.intp], n_logged: npt.NDArray[np.intp]
    ) -> None: ...

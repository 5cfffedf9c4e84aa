# Type stub of the compiled module patrec.linear._lbfgs.
import numpy as np
import numpy.typing as npt

def lbfgs_direction(
    gradient: npt.NDArray[np.float64],
    steps: npt.NDArray[np.float64],
    changes: npt.NDArray[np.float64],
    rho: npt.NDArray[np.float64],
    newest: int,
    count: int,
    alpha: npt.NDArray[np.float64],
    direction: npt.NDArray[np.float64],
) -> None: ...

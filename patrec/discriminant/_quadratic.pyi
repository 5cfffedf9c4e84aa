# Type stub of the compiled module patrec.discriminant._quadratic.
import numpy as np
import numpy.typing as npt

def mahalanobis_squared(
    X: npt.NDArray[np.floating],
    means: npt.NDArray[np.floating],
    inverse_factors: npt.NDArray[np.floating],
    out: npt.NDArray[np.float64],
    block: int = 256,
) -> None: ...

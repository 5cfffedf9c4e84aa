# Type stub of the compiled module patrec.linear._softmax.
import numpy as np
import numpy.typing as npt

def softmax_data_term(
    X: npt.NDArray[np.floating],
    codes: npt.NDArray[np.intp],
    sample_weight: npt.NDArray[np.float64],
    coef: npt.NDArray[np.floating],
    intercept: npt.NDArray[np.float64],
    grad_coef: npt.NDArray[np.floating],
    grad_intercept: npt.NDArray[np.float64],
    block: npt.NDArray[np.floating],
    work: npt.NDArray[np.float64],
) -> float: ...
def exp_in_place(x: npt.NDArray[np.float64]) -> None: ...

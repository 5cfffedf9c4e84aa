# Type stub of the compiled module patrec.neighbors.editing._condense.
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

@disjoint_base
class Store:
    def __init__(self, owner: Any) -> None: ...

def insert(store: Store, samples: npt.NDArray[np.intp]) -> None: ...
def query_batch(store: Store, samples: npt.NDArray[np.intp], n_stored: int) -> None: ...
def knn_batch(
    store: Store,
    samples: npt.NDArray[np.intp],
    out_dist: npt.NDArray[np.floating],
    out_rank: npt.NDArray[np.intp],
) -> None: ...
def resolve_batch(
    store: Store,
    codes: npt.NDArray[np.intp],
    samples: npt.NDArray[np.intp],
    n_stored: int,
) -> int: ...
def catch_up_batch(
    store: Store, samples: npt.NDArray[np.intp], n_stored: int
) -> None: ...

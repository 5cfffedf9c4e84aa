"""patrec: classic pattern recognition with Cython inner loops.

The subpackages follow the chapters of a pattern-recognition course:

- `patrec.linear`: perceptron, multiclass linear machine, multiclass SVM, softmax,
  one-vs-all, all-pairs and error-correcting output codes;
- `patrec.discriminant`: multiclass Fisher LDA and QDA;
- `patrec.piecewise`: minimum-distance and piecewise-linear classifiers;
- `patrec.neighbors`: distances, brute-force and branch-and-bound search, k-NN and
  the Cover-Hart bounds;
- `patrec.datasets`: bundled classic data and the course's synthetic sets.

Every public name of the subpackages is also available from `patrec` itself, and so
is `TrainingHistory`, what the error-correcting learners of two chapters record
(``record_history=True``).
"""

try:
    from . import datasets, discriminant, linear, neighbors, piecewise
except ModuleNotFoundError as error:  # run from a checkout that was not built in place?
    from ._unbuilt import unbuilt_error

    if unbuilt_error(error) is None:
        raise
    raise unbuilt_error(error) from None
from ._training import TrainingHistory
from ._version import __version__
from .datasets import *  # noqa: F401,F403
from .discriminant import *  # noqa: F401,F403
from .exceptions import ConvergenceWarning, DataConversionWarning, NotFittedError
from .linear import *  # noqa: F401,F403
from .neighbors import *  # noqa: F401,F403
from .piecewise import *  # noqa: F401,F403

__all__ = [
    "__version__",
    "NotFittedError",
    "DataConversionWarning",
    "ConvergenceWarning",
    "TrainingHistory",
    *datasets.__all__,
    *discriminant.__all__,
    *linear.__all__,
    *neighbors.__all__,
    *piecewise.__all__,
]

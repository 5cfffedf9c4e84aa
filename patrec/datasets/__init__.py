"""Data sets: classic measured data bundled as CSV files, and the course's synthetic
sets.

- `load_iris`, `load_wine`, `load_breast_cancer`: small, well-known data from the UCI
  Machine Learning Repository, read from the files in ``patrec/datasets/data/``.
- `make_sectors`, `make_gaussian_classes`, `make_xor`, `make_rings`, `make_banana`:
  reproducible synthetic classes for trying the course's classifiers.
"""

from ._base import Bunch
from .loaders import load_breast_cancer, load_iris, load_wine
from .synthetic import (
    make_banana,
    make_gaussian_classes,
    make_rings,
    make_sectors,
    make_xor,
)

__all__ = [
    "Bunch",
    "load_iris",
    "load_wine",
    "load_breast_cancer",
    "make_sectors",
    "make_gaussian_classes",
    "make_xor",
    "make_rings",
    "make_banana",
]

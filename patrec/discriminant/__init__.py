"""Discriminant analysis: multiclass Fisher LDA and QDA.

- `FisherLDA`: Fisher's projection from ``S_b w = lambda S_w w`` and the Gaussian
  classifier with one covariance shared by all classes (linear boundaries);
- `QDA`: one Gaussian per class (quadratic boundaries).
"""

from .fisher import FisherLDA
from .quadratic import QDA

__all__ = ["FisherLDA", "QDA"]

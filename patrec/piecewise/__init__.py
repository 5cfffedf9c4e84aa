"""Piecewise-linear and minimum-distance classifiers."""

from .minimum_distance import MinimumDistanceClassifier
from .piecewise_linear import PiecewiseLinearClassifier

__all__ = ["MinimumDistanceClassifier", "PiecewiseLinearClassifier"]

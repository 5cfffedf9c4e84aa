"""Piecewise-linear and minimum-distance classifiers."""
from .minimum_distance import MinimumDistanceClassifier

__all__ = ["MinimumDistanceClassifier"]

"""Nearest-neighbour methods: distances, search, classification, editing, condensing."""
from .metrics import METRICS, Metric, pairwise_distances

__all__ = ["METRICS", "Metric", "pairwise_distances"]

"""The version of patrec: one place, read by the package, its pickles and the build."""

__version__ = "0.1.0"

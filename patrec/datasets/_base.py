"""The result object of the loaders and the reading of the bundled files.

The bundled data sets are plain CSV files in ``patrec/datasets/data/``: one header row
of feature names, one row per sample, and a last column ``target`` holding the class
name.  Their descriptions are reStructuredText files in ``patrec/datasets/descr/``.
Both are found with `importlib.resources`, so they are read from wherever the package
is installed.
"""

import csv
from importlib import resources

import numpy as np

__all__ = ["Bunch"]

TARGET_COLUMN = "target"


class Bunch(dict):
    """A dictionary whose keys can also be read and written as attributes.

    The loaders return one, so both ``data["target"]`` and ``data.target`` work.

    Examples
    --------
    >>> from patrec.datasets import Bunch
    >>> b = Bunch(a=1)
    >>> b.b = 2
    >>> b["b"], b.a
    (2, 1)
    >>> sorted(b)
    ['a', 'b']
    """

    def __init__(self, **kwargs):
        super().__init__(kwargs)

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        self[key] = value

    def __delattr__(self, key):
        try:
            del self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __dir__(self):
        return [*super().__dir__(), *(key for key in self if isinstance(key, str))]


def _resource(folder, name):
    return resources.files(__package__).joinpath(folder, name)


def read_descr(name):
    """The text of ``descr/<name>``."""
    return _resource("descr", name).read_text(encoding="utf-8")


def read_csv_dataset(filename, target_names):
    """Read a bundled CSV data set.

    Parameters
    ----------
    filename : str
        The file's name inside ``patrec/datasets/data/``.
    target_names : sequence of str
        The class names in code order: the sample whose target is
        ``target_names[k]`` gets the code ``k``.

    Returns
    -------
    data : ndarray of shape (n_samples, n_features), dtype float64
    target : ndarray of shape (n_samples,), dtype intp
    feature_names : list of str
    path : str
        Where the file is.
    """
    path = _resource("data", filename)
    codes = {name: code for code, name in enumerate(target_names)}
    with path.open("r", encoding="utf-8", newline="") as stream:
        reader = csv.reader(stream)
        header = next(reader)
        if header[-1] != TARGET_COLUMN:
            raise ValueError(f"{filename}: the last column must be {TARGET_COLUMN!r}.")
        rows = list(reader)
    data = np.array([row[:-1] for row in rows], dtype=np.float64)
    try:
        target = np.array([codes[row[-1]] for row in rows], dtype=np.intp)
    except KeyError as exc:
        raise ValueError(f"{filename}: unknown class name {exc.args[0]!r}.") from None
    return data, target, header[:-1], str(path)

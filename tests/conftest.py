import os

# scikit-learn's check_array_api_input runs only with SciPy's array-API mode on; it
# must be set before SciPy is first imported.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import matplotlib  # noqa: E402

import patrec  # noqa: E402

matplotlib.use("Agg")

# Subprocesses started by the tests (the command line, the gallery scripts) must import
# the same patrec as the tests: the installed one, or the in-place build.  Never the
# source folder of the working directory, which has no compiled extensions after a
# plain `pip install .`, hence PYTHONSAFEPATH (no implicit current directory).
_root = os.path.dirname(os.path.dirname(patrec.__file__))
os.environ["PYTHONPATH"] = os.pathsep.join(
    filter(None, [_root, os.environ.get("PYTHONPATH")])
)
os.environ["PYTHONSAFEPATH"] = "1"
os.environ["MPLBACKEND"] = "Agg"

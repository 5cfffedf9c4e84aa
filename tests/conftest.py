import os
from importlib.metadata import PackageNotFoundError, version

# scikit-learn's check_array_api_input runs only with SciPy's array-API mode on; it
# must be set before SciPy is first imported.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import matplotlib  # noqa: E402
import pytest  # noqa: E402
from packaging.requirements import Requirement  # noqa: E402

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


@pytest.fixture(autouse=True, scope="session")
def _children_start_outside_the_checkout(tmp_path_factory):
    """Run the session from an empty folder.

    Python 3.10 has no PYTHONSAFEPATH: ``python -c`` and ``python -m`` put the working
    directory first on ``sys.path``, and a child started in the checkout would import
    its uncompiled ``patrec`` folder.  No test reads a path relative to the working
    directory.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp("cwd"))
        yield


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "needs(requirement, behaviour): the test relies on a behaviour that only some "
        "versions of a dependency have, e.g. needs('scikit-learn>=1.9.1', 'what "
        "changed'); with another version installed it is skipped with that reason",
    )


def pytest_runtest_setup(item):
    for marker in item.iter_markers("needs"):
        requirement, behaviour = marker.args
        requirement = Requirement(requirement)
        try:
            installed = version(requirement.name)
        except PackageNotFoundError:
            installed = None
        if installed is None or not requirement.specifier.contains(
            installed, prereleases=True
        ):
            pytest.skip(f"needs {requirement} (installed: {installed}): {behaviour}")

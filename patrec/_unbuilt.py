"""What to say when patrec is imported from a source tree whose compiled modules were
never built there.

``pip install .`` compiles the Cython modules into the installed copy, not into the
checkout.  Python run from the checkout's root finds the checkout's ``patrec/`` folder
first, and its first compiled module is missing: a bare ``ModuleNotFoundError`` that
names a private module.  `unbuilt_error` turns it into advice.
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def unbuilt_error(error):
    """An ImportError saying what to do, when ``error`` (a ModuleNotFoundError) is a
    compiled module of patrec missing beside its ``.pyx`` source; else None."""
    name = error.name or ""
    parts = name.split(".")
    if parts[0] != "patrec" or len(parts) < 2:
        return None
    if not PACKAGE_DIR.joinpath(*parts[1:]).with_suffix(".pyx").is_file():
        return None
    return ImportError(
        f"patrec is imported from its source tree ({PACKAGE_DIR}), where its compiled "
        f"modules were not built ({name} is missing): `pip install .` builds them "
        "into the installed copy only.  Run Python from another directory to use the "
        "installed patrec, or build the modules in place with "
        "`pip install -e . --no-build-isolation`."
    )

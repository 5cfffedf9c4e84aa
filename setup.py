"""Build the Cython extensions; all metadata lives in pyproject.toml.

Every ``patrec/**/*.pyx`` becomes one extension module.  Set ``PATREC_DEBUG=1`` to
compile with bounds and wrap-around checks switched on.
"""

import os
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup  # setuptools before Cython

DEBUG = os.environ.get("PATREC_DEBUG", "0") not in ("", "0")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
}


# The folders of the C headers that .pxd files declare (`cdef extern from "x.h"`): an
# extension in another folder that cimports such a .pxd finds the header here.
HEADER_DIRS = sorted({str(header.parent) for header in Path("patrec").rglob("*.h")})


def extension(pyx):
    module = ".".join(pyx.with_suffix("").parts)
    return Extension(
        module,
        [str(pyx)],
        include_dirs=[numpy.get_include(), *HEADER_DIRS],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_9_API_VERSION")],
        extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"],
    )


extensions = [extension(pyx) for pyx in sorted(Path("patrec").rglob("*.pyx"))]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))

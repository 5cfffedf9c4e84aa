"""What is released: the sdist carries every source file, and the version is one.

The sdist test needs a git checkout (it is skipped where the tests run from a copy,
as against an installed wheel); it builds the sdist of the checkout's files with
setuptools' own hook, in a copy, in a few seconds.
"""

import importlib.metadata
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import patrec

ROOT = Path(__file__).parents[1]

# besides the package, what building from the sdist reads
BUILD_FILES = {"setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE"}


def checkout_files():
    """The checkout's files, tracked and new, without what .gitignore ignores."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("needs a git checkout of patrec")
    if not (ROOT / "setup.py").is_file():
        pytest.skip("needs a git checkout of patrec")
    return [name for name in listing.decode().split("\0") if name]


def test_the_sdist_has_every_source_file(tmp_path):
    files = checkout_files()
    source = tmp_path / "source"
    for name in files:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    build = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from setuptools import build_meta;"
            "print(build_meta.build_sdist(sys.argv[1]))",
            str(tmp_path),
        ],
        cwd=source,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    sdist = tmp_path / build.stdout.split()[-1]
    with tarfile.open(sdist) as archive:
        shipped = {name.partition("/")[2] for name in archive.getnames()}

    needed = {name for name in files if name.startswith("patrec/")} | BUILD_FILES
    assert not needed - shipped, f"missing from the sdist: {sorted(needed - shipped)}"
    generated = [name for name in shipped if name.endswith((".c", ".so", ".pyd"))]
    assert not generated


def test_the_version_is_the_same_everywhere():
    script = shutil.which("patrec", path=Path(sys.executable).parent)
    assert script, "the patrec command is not installed beside this Python"
    command = subprocess.run(
        [script, "--version"], capture_output=True, text=True, check=True
    )
    assert command.stdout.strip() == f"patrec {patrec.__version__}"
    assert importlib.metadata.version("patrec") == patrec.__version__


def test_importing_an_unbuilt_source_tree_says_what_to_do(tmp_path):
    # `pip install .` then `python -c "import patrec"` in the checkout's root: Python
    # finds the checkout's patrec/, whose compiled modules were built elsewhere.
    sources = sorted((ROOT / "patrec").rglob("*.py*"))
    if not any(path.suffix == ".pyx" for path in sources):
        pytest.skip("needs patrec's source tree")
    for path in sources:
        if path.suffix in (".py", ".pyx", ".pxd", ".pyi"):
            copy = tmp_path / path.relative_to(ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, copy)
    # as a reader runs it: the current directory first on the path (the tests' own
    # subprocesses take the installed patrec instead, tests/conftest.py)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONSAFEPATH")
    }
    result = subprocess.run(
        [sys.executable, "-c", "import patrec"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: patrec is imported from its source tree")
    assert "Run Python from another directory" in last
    assert "pip install -e . --no-build-isolation" in last

"""What is released: the sdist carries every source file, and the version is one.

The sdist test needs a git checkout (it is skipped where the tests run from a copy,
as against an installed wheel); it builds the sdist of the checkout's files with
setuptools' own hook, in a copy, in a few seconds.
"""

import importlib.metadata
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

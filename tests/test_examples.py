"""Every gallery script runs to the end (Agg backend, a fresh interpreter each)."""
import os
import pathlib
import subprocess
import sys

import pytest

import patrec

EXAMPLES = sorted((pathlib.Path(__file__).parents[1] / "examples").rglob("plot_*.py"))


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_runs(script, tmp_path):
    root = os.path.dirname(os.path.dirname(patrec.__file__))
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]


def test_every_example_folder_has_a_readme():
    assert EXAMPLES, "no gallery scripts found"
    for folder in {script.parent for script in EXAMPLES}:
        assert (folder / "README.txt").is_file(), folder

"""Every gallery script runs to the end (Agg backend, a fresh interpreter each)."""
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).parents[1] / "examples").rglob("plot_*.py"))


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_runs(script, tmp_path):
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]


def test_every_example_folder_has_a_readme():
    assert EXAMPLES, "no gallery scripts found"
    for folder in {script.parent for script in EXAMPLES}:
        assert (folder / "README.txt").is_file(), folder

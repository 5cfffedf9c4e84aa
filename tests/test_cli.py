"""The command line, end to end in a subprocess, with its real output parsed."""
import re
import subprocess
import sys

import numpy as np
import pytest

from patrec.datasets import load_iris

ROW = re.compile(r"^(?P<name>\S+)\s+(?P<mean>\d\.\d{3}) ± (?P<std>\d\.\d{3})\s+"
                 r"(?P<fit>[\d.]+)\s+(?P<predict>[\d.]+)$")


def run(*args, cwd=None):
    """Run ``python -m patrec`` (tests/conftest.py points subprocesses at our patrec)."""
    return subprocess.run([sys.executable, "-m", "patrec", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def table(stdout):
    return {m["name"]: m for m in map(ROW.match, stdout.splitlines()) if m}


def test_compare_default_iris_prints_a_row_per_classifier():
    result = run("compare", "--classifiers", "minimum-distance", "--cv", "5")
    assert result.returncode == 0, result.stderr
    assert "iris: 150 samples, 4 features, 3 classes" in result.stdout
    rows = table(result.stdout)
    assert list(rows) == ["minimum-distance"]
    assert 0.0 <= float(rows["minimum-distance"]["mean"]) < 0.2
    assert "[patrec] minimum-distance" in result.stderr


def test_compare_all_registered_classifiers_on_default_data():
    from patrec.registry import classifier_names

    result = run("compare")
    assert result.returncode == 0, result.stderr
    rows = table(result.stdout)
    assert sorted(rows) == sorted(classifier_names())
    for row in rows.values():
        assert float(row["mean"]) < 0.5


def test_compare_csv_with_target_column_and_plot(tmp_path):
    X, y = load_iris(return_X_y=True)
    path = tmp_path / "flowers.csv"
    lines = ["species,a,b,c,d"] + [f"{['x', 'y', 'z'][t]},{','.join(map(str, row))}"
                                   for row, t in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")
    picture = tmp_path / "regions.png"
    result = run("compare", "--data", str(path), "--target", "species", "--cv", "3",
                 "--classifiers", "minimum-distance", "--plot", str(picture), "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert "150 samples, 4 features, 3 classes; 3-fold" in result.stdout
    assert picture.stat().st_size > 10_000
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("content, args, message", [
    (None, ["--data", "missing.csv"], "no such file: missing.csv"),
    ("a,b,label\n1,2,x\n3,4,y\n", ["--target", "nope"], "column 'nope' not found"),
    ("a,b,label\n1,zz,x\n3,4,y\n", ["--target", "label"], "column 'b' of .* is not numeric"),
    ("a,b,label\n1,,x\n3,4,y\n", ["--target", "label"], "an empty field at line 2"),
    ("a,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n", ["--target", "label"],
     "has 2 samples, fewer than the 5 folds"),
    ("a,b,label\n1,2,x\n3,4,x\n", ["--target", "label"], "single class"),
    ("a,b,label\n1,2\n", ["--target", "label"], "line 2: 2 fields"),
])
def test_bad_input_gives_one_line_and_exit_code_2(tmp_path, content, args, message):
    if content is not None:
        (tmp_path / "data.csv").write_text(content)
        args = ["--data", "data.csv", *args]
    result = run("compare", *args, cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and re.search(message, lines[0]), result.stderr
    assert "Traceback" not in result.stderr


def test_csv_dialects_bom_semicolons_and_integer_labels(tmp_path):
    X, y = load_iris(return_X_y=True)
    body = "\n".join(f"{';'.join(map(str, row))};{10**12 + t}" for row, t in zip(X, y))
    (tmp_path / "semi.csv").write_bytes(("\ufeffa;b;c;d;label\n" + body).encode("utf-8"))
    result = run("compare", "--data", "semi.csv", "--target", "label", "--cv", "3",
                 "--classifiers", "minimum-distance", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "150 samples, 4 features, 3 classes" in result.stdout


def test_a_failing_classifier_is_reported_in_its_row(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    X[:, 2] = 2 * X[:, 0]  # collinear: QDA without regularisation must refuse
    y = np.repeat([0, 1], 30)
    X[y == 1] += 5
    lines = ["a,b,c,target"] + [f"{r[0]},{r[1]},{r[2]},{t}" for r, t in zip(X, y)]
    (tmp_path / "collinear.csv").write_text("\n".join(lines))
    result = run("compare", "--data", "collinear.csv", "--cv", "3", "--classifiers",
                 "qda", "minimum-distance", "--no-scale", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^qda\s+failed", result.stdout, re.MULTILINE)
    assert "qda: failed: " in result.stdout and "singular" in result.stdout
    assert float(table(result.stdout)["minimum-distance"]["mean"]) < 0.1


def test_unknown_classifier_and_bad_cv():
    result = run("compare", "--classifiers", "nope")
    assert result.returncode == 2 and "unknown classifier(s) nope" in result.stderr
    result = run("compare", "--cv", "1")
    assert result.returncode == 2 and "--cv must be at least 2" in result.stderr
    result = run("compare", "--seed", "-1")
    assert result.returncode == 2 and "must be non-negative" in result.stderr
    result = run("compare", "--plot", "/no/such/dir/x.png")
    assert result.returncode == 2 and "no such directory" in result.stderr


def test_console_script_entry_point_matches_module():
    from patrec.cli import main

    assert main(["compare", "--classifiers", "minimum-distance", "--cv", "2"]) == 0

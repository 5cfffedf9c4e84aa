"""The command line, end to end in a subprocess, with its real output parsed."""

import io
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

from patrec.datasets import load_iris

ROW = re.compile(
    r"^(?P<name>\S+)\s+(?P<mean>\d\.\d{3}) ± (?P<std>\d\.\d{3})\s+"
    r"(?P<fit>[\d.]+)\s+(?P<predict>[\d.]+)$"
)


def run(*args, cwd=None, env=None, timeout=300):
    """Run ``python -m patrec`` (tests/conftest.py points subprocesses at our patrec),
    with the variables of ``env`` added to the environment."""
    return subprocess.run(
        [sys.executable, "-m", "patrec", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=None if env is None else {**os.environ, **env},
        timeout=timeout,
    )


def table(stdout):
    return {m["name"]: m for m in map(ROW.match, stdout.splitlines()) if m}


def test_compare_default_iris_prints_a_row_per_classifier():
    result = run("compare", "--classifiers", "minimum-distance", "--cv", "5")
    assert result.returncode == 0, result.stderr
    assert "iris: 150 samples, 4 features, 3 classes" in result.stdout
    rows = table(result.stdout)
    assert list(rows) == ["minimum-distance"]
    assert 0.0 <= float(rows["minimum-distance"]["mean"]) < 0.2
    assert result.stderr == ""  # not a terminal: no progress lines to mix with a log


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
    lines = ["species,a,b,c,d"] + [
        f"{['x', 'y', 'z'][t]},{','.join(map(str, row))}" for row, t in zip(X, y)
    ]
    path.write_text("\n".join(lines) + "\n")
    picture = tmp_path / "regions.png"
    result = run(
        "compare",
        "--data",
        str(path),
        "--target",
        "species",
        "--cv",
        "3",
        "--classifiers",
        "minimum-distance",
        "--plot",
        str(picture),
        "--seed",
        "2",
    )
    assert result.returncode == 0, result.stderr
    assert "150 samples, 4 features, 3 classes; 3-fold" in result.stdout
    assert picture.stat().st_size > 10_000
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "content, args, message",
    [
        (None, ["--data", "missing.csv"], "no such file: missing.csv"),
        ("a,b,label\n1,2,x\n3,4,y\n", ["--target", "nope"], "column 'nope' not found"),
        (
            "a,b,label\n1,zz,x\n3,4,y\n",
            ["--target", "label"],
            "column 'b' of .* is not numeric",
        ),
        ("a,b,label\n1,,x\n3,4,y\n", ["--target", "label"], "an empty field at line 2"),
        (
            "a,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n",
            ["--target", "label"],
            "has 2 samples, fewer than the 5 folds",
        ),
        ("a,b,label\n1,2,x\n3,4,x\n", ["--target", "label"], "single class"),
        ("a,b,label\n1,2\n", ["--target", "label"], "line 2: 2 fields"),
        (
            "a,b,label\n1,2,x\n3,4,y\n",
            ["--target", "lable"],
            r"column 'lable' not found in data.csv \(did you mean 'label'\?\); columns: a, b, "
            "label, or a number from 1 to 3",
        ),
        ("1\n2\n3\n", [], "data.csv has a single column"),
        ("", [], "data.csv is empty"),
    ],
)
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
    (tmp_path / "semi.csv").write_bytes(
        ("\ufeffa;b;c;d;label\n" + body).encode("utf-8")
    )
    result = run(
        "compare",
        "--data",
        "semi.csv",
        "--target",
        "label",
        "--cv",
        "3",
        "--classifiers",
        "minimum-distance",
        cwd=tmp_path,
    )
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
    result = run(
        "compare",
        "--data",
        "collinear.csv",
        "--cv",
        "3",
        "--classifiers",
        "qda",
        "minimum-distance",
        "--no-scale",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"^qda\s+failed", result.stdout, re.MULTILINE)
    assert "qda: failed: " in result.stdout and "singular" in result.stdout
    assert float(table(result.stdout)["minimum-distance"]["mean"]) < 0.1


def test_unknown_classifier_and_bad_cv():
    result = run("compare", "--classifiers", "nope")
    assert result.returncode == 2 and "unknown classifier 'nope'" in result.stderr
    result = run("compare", "--cv", "1")
    assert result.returncode == 2 and "--cv must be at least 2" in result.stderr
    result = run("compare", "--seed", "-1")
    assert result.returncode == 2 and "must be non-negative" in result.stderr
    result = run("compare", "--plot", "/no/such/dir/x.png")
    assert result.returncode == 2 and "no such directory" in result.stderr


def test_console_script_entry_point_matches_module():
    from patrec.cli import main

    assert main(["compare", "--classifiers", "minimum-distance", "--cv", "2"]) == 0


# -- the student's awkward files -------------------------------------------------------


def _iris_rows(label_names=("setosa", "versicolor", "virginica")):
    X, y = load_iris(return_X_y=True)
    return X, y, [label_names[t] for t in y]


def write_csv(path, rows, header=None):
    """A CSV file of ``rows`` (sequences of fields), with a header line if given."""
    lines = ([",".join(header)] if header else []) + [
        ",".join(map(str, row)) for row in rows
    ]
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("text_labels", [True, False])
def test_headerless_csv_keeps_every_row_and_says_so(tmp_path, text_labels):
    X, y, names = _iris_rows()
    labels = names if text_labels else y
    write_csv(tmp_path / "iris.data", [[*row, label] for row, label in zip(X, labels)])
    result = run(
        "compare", "--data", "iris.data", "--classifiers", "fisher-lda", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "150 samples, 4 features, 3 classes" in result.stdout
    assert "no header row" in result.stderr and "--header" in result.stderr
    assert float(table(result.stdout)["fisher-lda"]["mean"]) < 0.05
    # the same with the flag: no guess, no note; the target by its column number
    result = run(
        "compare",
        "--data",
        "iris.data",
        "--no-header",
        "--target",
        "5",
        "--classifiers",
        "fisher-lda",
        cwd=tmp_path,
    )
    assert result.returncode == 0 and result.stderr == ""
    assert "150 samples, 4 features, 3 classes" in result.stdout
    # --header takes the first row as the names, whatever it holds
    result = run(
        "compare",
        "--data",
        "iris.data",
        "--header",
        "--classifiers",
        "knn",
        "--quiet",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "149 samples" in result.stdout and result.stderr == ""


@pytest.mark.parametrize(
    "text_labels, last_name, note",
    [
        (True, "species", ""),
        # integer classes: a first row of numbers is a header when its value in the target
        # column appears in no other row (as data it would be a class of one sample)
        (
            False,
            "5",
            "reading its first row as the header, although it looks like data: "
            "its '5' in the target column appears in no other row",
        ),
    ],
)
def test_a_header_of_numbers_is_still_a_header(tmp_path, text_labels, last_name, note):
    X, y, names = _iris_rows()
    labels = names if text_labels else y
    write_csv(
        tmp_path / "spectra.csv",
        [[*row, label] for row, label in zip(X, labels)],
        header=["400", "500", "600", "700", last_name],
    )
    result = run(
        "compare", "--data", "spectra.csv", "--classifiers", "knn", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "150 samples, 4 features, 3 classes" in result.stdout
    assert note in result.stderr and (note or result.stderr == "")


def test_continuous_target_names_the_column_that_holds_the_classes(tmp_path):
    X, _, labels = _iris_rows()
    write_csv(
        tmp_path / "flowers.csv",
        [[*r[:3], label, r[3]] for r, label in zip(X, labels)],
        header=[
            "sepal_length",
            "sepal_width",
            "petal_length",
            "species",
            "petal_width",
        ],
    )
    result = run("compare", "--data", "flowers.csv", cwd=tmp_path)
    assert result.returncode == 2
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1
    assert "'petal_width'" in message and "measurements, not classes" in message
    assert "--target 'species'" in message
    assert "folds" not in message  # not the old, useless advice to lower --cv
    result = run(
        "compare",
        "--data",
        "flowers.csv",
        "--target",
        "species",
        "--classifiers",
        "qda",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "150 samples, 4 features, 3 classes" in result.stdout


def test_identifier_like_integer_target_is_not_blamed_on_the_folds(tmp_path):
    X, _, _ = _iris_rows()
    write_csv(
        tmp_path / "ids.csv",
        [[*r, i] for i, r in enumerate(X)],
        header=["a", "b", "c", "d", "id"],
    )
    result = run("compare", "--data", "ids.csv", cwd=tmp_path)
    assert result.returncode == 2
    assert "150 distinct values in 150 rows" in result.stderr
    assert "lower --cv" not in result.stderr


def test_text_target_in_a_feature_position_suggests_it(tmp_path):
    X, _, labels = _iris_rows()
    write_csv(
        tmp_path / "first.csv",
        [[label, *r] for r, label in zip(X, labels)],
        header=["species", "a", "b", "c", "d"],
    )
    result = run("compare", "--data", "first.csv", "--target", "d", cwd=tmp_path)
    assert result.returncode == 2
    assert "measurements, not classes" in result.stderr and "'species'" in result.stderr


def test_two_features_plot_uses_their_names_errors_and_data_set_name(tmp_path):
    X, _, labels = _iris_rows()
    write_csv(
        tmp_path / "petals.csv",
        [[r[2], r[3], label] for r, label in zip(X, labels)],
        header=["petal_length", "petal_width", "species"],
    )
    result = run(
        "compare",
        "--data",
        "petals.csv",
        "--classifiers",
        "knn",
        "qda",
        "--plot",
        "regions.png",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "regions.png").read_bytes()[:4] == b"\x89PNG"
    # the figure itself, drawn in this process with the same code, checked element-wise
    figure, out = draw_figure(
        [
            "--data",
            str(tmp_path / "petals.csv"),
            "--classifiers",
            "knn",
            "qda",
            "--plot",
            str(tmp_path / "again.png"),
        ]
    )
    rows = table(out)
    axes = [ax for ax in figure.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == [
        f"{name}: CV error {float(rows[name]['mean']):.3f}" for name in ("knn", "qda")
    ]
    assert {ax.get_xlabel() for ax in axes} == {"petal_length"}
    assert {ax.get_ylabel() for ax in axes} == {"petal_width"}
    assert figure._suptitle.get_text().startswith("petals.csv (150 samples)")
    legend = [t.get_text() for t in axes[0].get_legend().get_texts()]
    assert legend == ["setosa", "versicolor", "virginica"]
    # the regions are drawn in the measured units: petal lengths 1 .. 7
    assert axes[0].get_xlim()[0] < 1.0 and axes[0].get_xlim()[1] > 6.9
    __import__("matplotlib.pyplot").pyplot.close(figure)


def draw_figure(argv):
    """Run ``compare`` in this process; return its figure (not closed) and the table."""
    import io

    import matplotlib.pyplot as plt

    from patrec import cli

    figures = []
    real_close = plt.close
    plt.close = lambda fig=None: figures.append(fig)
    try:
        args = cli.build_parser().parse_args(["compare", *argv, "--quiet"])
        out = io.StringIO()
        assert cli.compare(args, out=out, err=io.StringIO()) == 0
    finally:
        plt.close = real_close
    return figures[0], out.getvalue()


def test_a_plot_of_many_classes_has_no_legend_and_keeps_its_layout(tmp_path):
    """Forty classes: a legend would repeat the ten colours and outgrow the panel,
    which collapsed the figure's layout (with a warning)."""
    rng = np.random.default_rng(0)
    centres = np.repeat(rng.uniform(-8, 8, size=(40, 2)), 15, axis=0)
    X = centres + rng.normal(size=centres.shape)
    write_csv(
        tmp_path / "many.csv",
        [[f"{a:.4f}", f"{b:.4f}", c] for (a, b), c in zip(X, np.arange(600) // 15)],
        header=["a", "b", "target"],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure, _ = draw_figure(
            [
                "--data",
                str(tmp_path / "many.csv"),
                "--classifiers",
                "knn",
                "--plot",
                str(tmp_path / "many.png"),
            ]
        )
    axes = [ax for ax in figure.axes if ax.get_visible()]
    assert len(axes) == 1 and axes[0].get_legend() is None
    assert len(axes[0].collections) > 0  # the samples are drawn
    __import__("matplotlib.pyplot").pyplot.close(figure)


def test_a_classifier_that_cannot_fit_the_plane_gets_a_short_note(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.repeat([0, 1], 30)
    X[y == 1] += 2
    X[y == 0, 1] = 1.0  # constant within class 0: QDA refuses, here and in the table
    write_csv(
        tmp_path / "flat.csv",
        [[*r, "ab"[t]] for r, t in zip(X, y)],
        header=["width", "height", "kind"],
    )
    figure, out = draw_figure(
        [
            "--data",
            str(tmp_path / "flat.csv"),
            "--no-scale",
            "--classifiers",
            "qda",
            "knn",
            "--plot",
            str(tmp_path / "flat.png"),
        ]
    )
    failed, knn = figure.axes[:2]
    assert failed.get_title() == "qda: failed" and not failed.axison
    note = failed.texts[0].get_text()
    # failed in the table too: no second fit, the reason of the table
    assert note.startswith("failed in the cross-validation:\nThe covariance matrix")
    assert max(len(line) for line in note.splitlines()) <= 40
    # the legend moves to the first panel that has regions
    assert failed.get_legend() is None
    assert [t.get_text() for t in knn.get_legend().get_texts()] == ["a", "b"]
    assert re.search(
        r"^qda: failed: The covariance matrix of class 'a' is singular", out, re.M
    )
    __import__("matplotlib.pyplot").pyplot.close(figure)


def test_did_you_mean_for_classifier_names():
    result = run("compare", "--classifiers", "lda")
    assert result.returncode == 2
    assert "did you mean fisher-lda" in result.stderr
    result = run("compare", "--classifiers", "knn", "linear_machine")
    assert "did you mean linear-machine" in result.stderr


def test_help_never_breaks_a_name_at_its_hyphen():
    from patrec.registry import classifier_names

    result = subprocess.run(
        [sys.executable, "-m", "patrec", "compare", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, "COLUMNS": "60"},
    )
    assert result.returncode == 0
    words = result.stdout.split()
    for name in classifier_names():
        assert any(name in word for word in words), name
    assert not any(
        line.rstrip().endswith("-")
        for line in result.stdout.splitlines()
        if not line.strip().startswith("-")
    )
    assert "--no-header" in result.stdout and "--quiet" in result.stdout


def test_progress_goes_to_a_terminal_only_and_quiet_silences_it():
    import io

    from patrec import cli

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for quiet, expect_progress in ((False, True), (True, False)):
        argv = ["compare", "--classifiers", "minimum-distance", "knn", "--cv", "2"]
        args = cli.build_parser().parse_args(argv + (["--quiet"] if quiet else []))
        out, err = io.StringIO(), Terminal()
        assert cli.compare(args, out=out, err=err) == 0
        shown = err.getvalue()
        assert ("[patrec] 2/2 knn ..." in shown) is expect_progress
        # one line rewritten in place and wiped at the end: nothing left on screen
        assert "\n" not in shown
        assert shown.split("\r")[-1] == ""
        assert "[patrec]" not in out.getvalue()


def test_warnings_of_a_classifier_are_summarised_under_the_table(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.repeat([0, 1], 30)
    write_csv(
        tmp_path / "noise.csv",
        [[*r, t] for r, t in zip(X, y)],
        header=["a", "b", "target"],
    )
    import io

    from patrec import cli, registry

    # a classifier that always warns: softmax stopped after one iteration
    args = cli.build_parser().parse_args(
        [
            "compare",
            "--data",
            str(tmp_path / "noise.csv"),
            "--classifiers",
            "softmax",
            "--cv",
            "3",
        ]
    )
    original = cli.make_classifier
    cli.make_classifier = lambda name, seed, params: registry.get_classifier(name)(
        max_iter=1
    )
    try:
        out = io.StringIO()
        cli.compare(args, out=out, err=io.StringIO())
    finally:
        cli.make_classifier = original
    # one line: the fact, how many folds, and what it means in this run (the
    # library's advice to standardise does not apply: the command line did)
    lines = [
        line for line in out.getvalue().splitlines() if line.startswith("softmax (")
    ]
    assert len(lines) == 1, out.getvalue()
    assert re.match(
        r"softmax \(3 times\): L-BFGS stopped before converging after 1 "
        r"iterations \(.*\) \(the features were standardised\)$",
        lines[0],
    ), lines[0]
    assert "StandardScaler" not in out.getvalue()


def test_convergence_notes_fit_the_run_and_quiet_hides_them():
    result = run("compare", "--data", "breast_cancer", "--classifiers", "perceptron")
    assert result.returncode == 0, result.stderr
    note = result.stdout.splitlines()[-1]
    assert re.match(
        r"perceptron \(\d times\): Perceptron reached max_epochs=100 still making "
        r"\d+\.\.\d+ mistakes in its last epoch; the features were standardised, so "
        r"the classes are likely not linearly separable$",
        note,
    ), note
    assert "StandardScaler" not in result.stdout
    result = run(
        "compare", "--data", "breast_cancer", "--classifiers", "perceptron", "-q"
    )
    assert result.stdout.splitlines()[-1].startswith("perceptron  ")  # the table's row
    result = run(
        "compare",
        "--data",
        "breast_cancer",
        "--classifiers",
        "perceptron",
        "--no-scale",
    )
    assert result.stdout.splitlines()[-1].endswith(
        "the features were not standardised (--no-scale), which slows training down"
    )


def test_error_messages_show_plain_numbers(tmp_path):
    (tmp_path / "few.csv").write_text("a,b,label\n1,2,0\n3,4,1\n5,6,0\n7,8,1\n9,9,1\n")
    result = run("compare", "--data", "few.csv", cwd=tmp_path)
    assert result.returncode == 2
    assert "class 0 has 2 samples" in result.stderr and "np." not in result.stderr


# -- review of issue 11: more awkward files ----------------------------------------------


@pytest.mark.parametrize(
    "content, message",
    [
        (
            "a,b,label\n1,2,x\n3,4,\n5,6,y\n",
            "the target column 'label' of data.csv has no "
            "class at line 3: every sample needs one",
        ),
        ("a,b,label\n1,2,0\n3,4,nan\n5,6,1\n", "has no class at line 3"),
        (
            "a,b,label\n1,NA,x\n3,4,y\n",
            "'NA' at line 2; missing values are not supported",
        ),
        (
            "a,b,label\n1,,x\n3,4,y\n",
            "an empty field at line 2; missing values are not",
        ),
        (
            "a;b;label\n1,5;2;x\n3;4;y\n",
            "'1,5' at line 2; it looks like a number with a decimal comma",
        ),
        (
            "a,b,label\n1,2,x\n3,inf,y\n",
            r"column 'b' of data.csv holds an infinite value "
            r"\('inf'\) at line 3",
        ),
        (
            "a,b,label\n1,2,x\nnan,4,y\n",
            r"data.csv has missing values: column 'a' holds 'nan' at line 3; ",
        ),
    ],
)
def test_missing_values_and_decimal_commas_are_named(tmp_path, content, message):
    (tmp_path / "data.csv").write_text(content)
    result = run("compare", "--data", "data.csv", "--cv", "2", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and re.search(message, lines[0]), result.stderr
    assert "only the target column may hold text" not in result.stderr
    assert "pass --target" not in result.stderr


def test_a_delimiter_at_the_end_of_every_line_adds_no_column(tmp_path):
    X, _, labels = _iris_rows()
    write_csv(
        tmp_path / "excel.csv",
        [[*r, label, ""] for r, label in zip(X, labels)],
        header=["a", "b", "c", "d", "species", ""],
    )
    result = run("compare", "--data", "excel.csv", "--classifiers", "knn", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "150 samples, 4 features, 3 classes" in result.stdout


def test_a_header_of_numbers_by_target_number_or_name(tmp_path):
    X, y, _ = _iris_rows()
    write_csv(
        tmp_path / "numbers.csv",
        [[*r, t] for r, t in zip(X, y)],
        header=["1", "2", "3", "4", "5"],
    )
    # the target by its column number, and by a name found in the first row
    for target in ("5", "4"):
        result = run(
            "compare",
            "--data",
            "numbers.csv",
            "--target",
            target,
            "--classifiers",
            "knn",
            cwd=tmp_path,
        )
        if target == "5":
            assert "150 samples, 4 features, 3 classes" in result.stdout, result.stderr
        else:  # column 4 holds measurements: refused as a target, header or not
            assert result.returncode == 2 and "measurements" in result.stderr
    write_csv(
        tmp_path / "named.csv",
        [[*r, t] for r, t in zip(X, y)],
        header=["1", "2", "3", "4", "label"],
    )
    result = run(
        "compare",
        "--data",
        "named.csv",
        "--target",
        "label",
        "--classifiers",
        "knn",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "150 samples" in result.stdout and result.stderr == ""
    # header-less files whose first label repeats keep every row, as before
    write_csv(tmp_path / "plain.csv", [[*r, t] for r, t in zip(X, y)])
    result = run("compare", "--data", "plain.csv", "--classifiers", "knn", cwd=tmp_path)
    assert "150 samples" in result.stdout and "no header row" in result.stderr


def test_unreadable_names_and_files_get_a_hint(tmp_path):
    result = run("compare", "--data", "irs", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        "no such file: irs (did you mean the bundled data set 'iris'?)" in result.stderr
    )
    (tmp_path / "latin.csv").write_bytes("a,b,espèce\n1,2,x\n".encode("latin-1"))
    result = run("compare", "--data", "latin.csv", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        "is not UTF-8 text (byte 0xe8 at position 7); save it as UTF-8" in result.stderr
    )


def test_plot_format_is_checked_before_the_work_and_a_bare_name_gets_png(tmp_path):
    result = run("compare", "--plot", "regions.jpeg2", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert ".jpeg2 is no image format matplotlib writes (" in result.stderr
    result = run("compare", "--classifiers", "knn", "--plot", "regions", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "decision regions saved to regions.png" in result.stdout
    assert (tmp_path / "regions.png").read_bytes()[:4] == b"\x89PNG"


def test_one_feature_plot_draws_bands_along_that_feature(tmp_path):
    X, _, labels = _iris_rows()
    write_csv(
        tmp_path / "petal.csv",
        [[r[2], label] for r, label in zip(X, labels)],
        header=["petal_length", "species"],
    )
    figure, out = draw_figure(
        [
            "--data",
            str(tmp_path / "petal.csv"),
            "--classifiers",
            "qda",
            "minimum-distance",
            "--plot",
            str(tmp_path / "petal.png"),
        ]
    )
    assert "150 samples, 1 feature, 3 classes" in out
    assert "single feature" in figure._suptitle.get_text()
    assert "principal" not in figure._suptitle.get_text()
    qda, nearest = [ax for ax in figure.axes if ax.get_visible()]
    rows = table(out)
    assert qda.get_title() == f"qda: CV error {float(rows['qda']['mean']):.3f}"
    assert qda.axison and not qda.texts  # it fits one feature, as in the table
    assert qda.get_xlabel() == "petal_length" and qda.get_ylabel() == ""
    assert list(qda.get_yticks()) == []
    assert qda.get_xlim()[0] < 1.0 and qda.get_xlim()[1] > 6.9  # measured units
    # the prototypes are the class means of petal_length, drawn on the axis
    stars = nearest.collections[-1].get_offsets()
    X_all, y_all = load_iris(return_X_y=True)
    assert np.allclose(
        sorted(stars[:, 0]), sorted(X_all[y_all == k, 2].mean() for k in range(3))
    )
    assert np.all(stars[:, 1] == 0)
    __import__("matplotlib.pyplot").pyplot.close(figure)


def test_warnings_that_differ_only_in_their_numbers_are_one_line(tmp_path):
    import io
    import warnings

    from patrec import cli
    from patrec.exceptions import ConvergenceWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for mistakes in (97, 120, 105):
            warnings.warn(
                f"reached max_epochs=100 still making {mistakes} mistakes; tol=1e-06",
                ConvergenceWarning,
                stacklevel=1,
            )
        warnings.warn("something else", UserWarning, stacklevel=1)
    assert cli.report._summarise(caught) == {
        "reached max_epochs=100 still making 97..120 mistakes; tol=1e-06 (the "
        "features were standardised)": 3,
        "UserWarning: something else": 1,
    }
    # end to end: one line per classifier, not one per fold
    rng = np.random.default_rng(0)
    X = 100 * rng.normal(size=(90, 2))
    y = np.repeat([0, 1, 2], 30)
    write_csv(
        tmp_path / "noise.csv",
        [[*r, t] for r, t in zip(X, y)],
        header=["a", "b", "target"],
    )
    args = cli.build_parser().parse_args(
        [
            "compare",
            "--data",
            str(tmp_path / "noise.csv"),
            "--classifiers",
            "linear-machine",
            "--cv",
            "3",
            "--no-scale",
        ]
    )
    out = io.StringIO()
    cli.compare(args, out=out, err=io.StringIO())
    notes = [
        line
        for line in out.getvalue().splitlines()
        if line.startswith("linear-machine (")
    ]
    assert len(notes) == 1, notes
    assert re.match(
        r"linear-machine \(3 times\): "
        r"LinearMachine reached max_epochs=\d+ still making \d+\.\.\d+ "
        r"mistakes",
        notes[0],
    ), notes


def test_report_prints_the_confusion_matrix_of_the_test_folds():
    """What --report prints is confusion_matrix and sensitivity_specificity of the
    out-of-fold predictions, as cross_validate makes them."""
    from patrec import KNeighborsClassifier
    from patrec.datasets import load_breast_cancer
    from patrec.model_selection import (
        confusion_matrix,
        cross_validate,
        sensitivity_specificity,
    )

    result = run(
        "compare",
        "--data",
        "breast_cancer",
        "--classifiers",
        "knn",
        "--report",
        "--positive",
        "malignant",
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    data = load_breast_cancer()
    y = data.target_names[data.target]
    predicted = cross_validate(
        KNeighborsClassifier(), data.data, y, random_state=0, return_predictions=True
    )["predictions"]
    C = confusion_matrix(y, predicted)
    lines = result.stdout.splitlines()
    start = lines.index("knn: the 5 test folds (rows: true class, columns: predicted)")
    assert lines[start + 1].split() == ["benign", "malignant"]
    for offset, label in enumerate(["benign", "malignant"]):
        assert lines[start + 2 + offset].split() == [label, *map(str, C[offset])]
    sensitivity, specificity = sensitivity_specificity(
        y, predicted, positive="malignant"
    )
    assert (
        f"sensitivity {sensitivity:.3f}, specificity {specificity:.3f} "
        "(positive class: malignant" in result.stdout
    )
    assert lines[start + 4].startswith("  error by class: benign ")


def test_report_on_three_classes_and_bad_positive_classes():
    result = run("compare", "--classifiers", "minimum-distance", "--report", "-q")
    assert result.returncode == 0, result.stderr
    assert "error by class: setosa 0.000, versicolor" in result.stdout
    assert "sensitivity" not in result.stdout  # three classes
    for args, message in [
        (("--positive", "setosa"), "--positive goes with --report"),
        (("--report", "--positive", "setosa"), "--positive is for two classes"),
        (
            ("--data", "breast_cancer", "--report", "--positive", "ill"),
            "--positive 'ill' is not a class; the classes are benign, malignant",
        ),
    ]:
        result = run("compare", "--classifiers", "knn", *args)
        assert result.returncode == 2 and message in result.stderr, result.stderr


def test_param_sets_a_classifier_parameter_and_makes_advice_followable(tmp_path):
    # a class with a constant feature: QDA's covariance is singular, and its
    # message says to set reg_param, which --param now can
    (tmp_path / "flat.csv").write_text(
        "a,b,label\n1,2,x\n2,2,x\n3,2,x\n4,2,x\n5,1,y\n6,3,y\n7,0,y\n8,4,y\n"
    )
    common = ("compare", "--data", "flat.csv", "--cv", "2", "--classifiers", "qda")
    result = run(*common, cwd=tmp_path)
    assert result.returncode == 0
    assert "Set reg_param" in result.stdout
    assert result.stdout.rstrip().endswith("(--param qda.reg_param=...)")
    result = run(*common, "--param", "qda.reg_param=0.1", cwd=tmp_path)
    assert result.returncode == 0 and "failed" not in result.stdout
    assert table(result.stdout)["qda"]


def test_param_values_and_mistakes():
    from patrec import cli

    params = cli.parse_params(
        ["knn.n_neighbors=7", "knn.metric=cityblock", "qda.reg_param=0.5"],
        ["knn", "qda"],
    )
    assert params == {
        "knn": {"n_neighbors": 7, "metric": "cityblock"},
        "qda": {"reg_param": 0.5},
    }
    clf = cli.make_classifier("knn", 0, params)
    assert (clf.n_neighbors, clf.metric) == (7, "cityblock")
    assert cli.classifiers._value("None") is None
    assert cli.classifiers._value("True") is True
    assert (
        cli.classifiers._value("[1, 2]") == "[1, 2]"
    )  # only numbers, booleans and None
    for settings, message in [
        (["knn"], "write CLASSIFIER.NAME=VALUE"),
        (["knn.k=3"], "knn has no parameter 'k'"),
        (["qda.reg_param=1"], "qda is not among the classifiers run (knn)"),
        (["kn.n_neighbors=1"], "unknown classifier 'kn'"),
    ]:
        with pytest.raises(cli.UsageError, match=re.escape(message)):
            cli.parse_params(settings, ["knn"])
    result = run("compare", "--classifiers", "knn", "--param", "knn.n_neighbors=0")
    assert result.returncode == 2  # the classifier's own check, before the comparison
    assert result.stderr == (
        "patrec: error: --param 'knn.n_neighbors=0': knn refuses this value "
        "(default: n_neighbors=5): n_neighbors must be in [1, inf], got 0.\n"
    )


@pytest.mark.parametrize(
    "settings, message",
    [
        (
            ["knn.n_neighbors=three"],
            "--param 'knn.n_neighbors=three': knn refuses this value (default: "
            "n_neighbors=5): n_neighbors must be an integer, got 'three'.",
        ),
        (  # more than the 120 training samples of a fold
            ["knn.n_neighbors=130"],
            "--param 'knn.n_neighbors=130': knn refuses this value (default: "
            "n_neighbors=5): k=130 neighbours were asked for, but the index holds "
            "only 120 training sample(s); k must be <= 120.",
        ),
        (  # the setting the message names, of several
            ["knn.n_neighbors=3", "knn.p=abc", "qda.reg_param=0.1"],
            "--param 'knn.p=abc': knn refuses this value (default: p=2): p must be "
            "a real number >= 1, got 'abc'.",
        ),
    ],
)
def test_a_param_value_its_classifier_refuses_ends_the_command(settings, message):
    params = [arg for setting in settings for arg in ("--param", setting)]
    result = run("compare", "--classifiers", "qda", "knn", *params)
    assert result.returncode == 2
    assert result.stderr == f"patrec: error: {message}\n"
    assert result.stdout == ""  # refused before the comparison started


def test_a_param_value_that_works_or_fails_as_the_default_does_is_a_row(tmp_path):
    result = run("compare", "--classifiers", "knn", "--param", "knn.n_neighbors=7")
    assert result.returncode == 0, result.stderr
    assert table(result.stdout)["knn"]
    # QDA with reg_param=0 (its default) on a class with a constant feature: the
    # data's failure, not the value's, so its row says why and the others run
    (tmp_path / "flat.csv").write_text(
        "a,b,label\n1,2,x\n2,2,x\n3,2,x\n4,2,x\n5,1,y\n6,3,y\n7,0,y\n8,4,y\n"
    )
    result = run("compare", "--data", "flat.csv", "--cv", "2", "--classifiers",
                 "qda", "knn", "--param", "qda.reg_param=0", "--param",
                 "knn.n_neighbors=1", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "qda: failed: The covariance matrix of class 'x' is singular" in (
        result.stdout
    )
    assert table(result.stdout)["knn"]


def test_every_missing_value_is_listed_at_once_and_columns_can_be_left_out(tmp_path):
    (tmp_path / "data.csv").write_text(
        "id,a,b,c,label\n"
        "p1,1,NA,1,x\np2,,2,2,x\np3,3,4,3,x\np4,nan,?,4,x\n"
        "p5,5,5,5,y\np6,6,6,6,y\np7,7,,7,y\np8,8,8,8,y\n"
    )
    result = run("compare", "--data", "data.csv", "--drop", "id", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "patrec: error: data.csv has missing values: column 'a' holds an empty field "
        "at line 3, 'nan' at line 5; column 'b' holds 'NA' at line 2, '?' at line 5, "
        "an empty field at line 8; missing values are not supported: fill them in, "
        "remove their rows, or leave the column out (--drop 'a' 'b')"
    )
    # an identifier column: the message says how to leave it out, and so it is
    result = run("compare", "--data", "data.csv", cwd=tmp_path)
    assert "column 'id' of data.csv is not numeric" in result.stderr
    assert "(leave this one out with --drop 'id')" in result.stderr
    common = ("compare", "--data", "data.csv", "--cv", "2", "--classifiers", "knn")
    result = run(*common, "--drop", "id", "a", "b", "--param", "knn.n_neighbors=1",
                 cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "data.csv: 8 samples, 1 feature, 2 classes" in result.stdout
    result = run(*common, "--features", "c", "--param", "knn.n_neighbors=1",
                 cwd=tmp_path)  # fmt: skip
    assert "data.csv: 8 samples, 1 feature, 2 classes" in result.stdout
    for args, message in [
        (("--features", "label"), "--features: column 'label' is the target"),
        (("--drop", "id", "a", "b", "c"), "no feature column is left"),
        (("--features", "cc"), "--features: column 'cc' not found in data.csv"),
        (("--features", "c", "--drop", "id"), "not allowed with argument"),
    ]:
        result = run(*common, *args, cwd=tmp_path)
        assert result.returncode == 2 and message in result.stderr, result.stderr


def test_features_of_a_bundled_data_set_by_name_or_number():
    result = run(
        "compare", "--features", "petal length (cm)", "4", "--classifiers", "knn"
    )
    assert result.returncode == 0, result.stderr
    assert "iris: 150 samples, 2 features, 3 classes" in result.stdout


def test_plot_draws_any_column_name_or_says_it_numbered_them(tmp_path):
    import io
    import warnings

    import matplotlib.pyplot as plt

    from patrec import cli

    (tmp_path / "cjk.csv").write_text(
        "长度,宽度,类别\n1,2,甲\n2,1,甲\n3,3,甲\n1,1,甲\n6,5,乙\n7,6,乙\n5,7,乙\n6,6,乙\n",
        encoding="utf-8",
    )
    args = cli.build_parser().parse_args(
        ["compare", "--data", str(tmp_path / "cjk.csv"), "--cv", "2",
         "--classifiers", "knn", "--param", "knn.n_neighbors=1",
         "--plot", str(tmp_path / "cjk.png")]
    )  # fmt: skip
    drawn = {}
    original = cli.figures._plot_regions

    def spy(rows, data, *rest):
        drawn["names"] = data.feature_names
        return original(rows, data, *rest)

    cli.figures._plot_regions = spy
    err = io.StringIO()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert cli.compare(args, out=io.StringIO(), err=err) == 0
    finally:
        cli.figures._plot_regions = original
        plt.close("all")
    assert not [w for w in caught if "missing from font" in str(w.message)]
    if "no installed font draws" in err.getvalue():
        assert drawn["names"] == ["feature 1", "feature 2"]
    else:  # a font with these characters is installed: the names themselves
        assert drawn["names"] == ["长度", "宽度"]
    assert (tmp_path / "cjk.png").stat().st_size > 0


# -- review of the compare command: first rows, targets, line numbers, output -----------


def test_a_first_row_of_numbers_and_missing_values_is_data(tmp_path):
    rng = np.random.default_rng(0)
    rows = [[*np.round(x, 2), i % 2] for i, x in enumerate(rng.normal(size=(40, 3)))]
    write_csv(tmp_path / "na.csv", [["5.1", "NA", "1.4", "0"], *rows])
    result = run("compare", "--data", "na.csv", "-q", cwd=tmp_path)
    assert result.returncode == 2
    assert "column 'x2' holds 'NA' at line 1;" in result.stderr, result.stderr
    # an empty field may be a header's unnamed column: read as one, but said
    write_csv(tmp_path / "empty.csv", [["5.1", "", "1.4", "0"], *rows])
    result = run("compare", "--data", "empty.csv", "--drop", "zz", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        "reading its first row as the header, although it looks like data: it "
        "leaves column 2 empty, as a header does above an unnamed column; pass "
        "--no-header if it is data" in result.stderr
    ), result.stderr


@pytest.mark.parametrize("spelling", ["NA", "?", "n/a", "NULL", "-nan"])
def test_every_spelling_of_a_missing_class_is_refused(tmp_path, spelling):
    (tmp_path / "data.csv").write_text(f"a,b,label\n1,2,x\n3,4,{spelling}\n5,6,y\n")
    result = run("compare", "--data", "data.csv", "--cv", "2", cwd=tmp_path)
    assert result.returncode == 2
    assert "the target column 'label' of data.csv has no class at line 3" in (
        result.stderr
    ), result.stderr


def test_plus_and_minus_are_classes(tmp_path):
    write_csv(
        tmp_path / "signs.csv",
        [[i, i % 3, "+-"[i % 2]] for i in range(20)],
        header=["a", "b", "sign"],
    )
    result = run("compare", "--data", "signs.csv", "--classifiers", "knn", "--report",
                 "-q", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "20 samples, 2 features, 2 classes" in result.stdout


def test_line_numbers_are_those_of_the_file(tmp_path):
    (tmp_path / "blank.csv").write_text("a,b,target\n1,2,x\n\n3,4,y\n5,oops,x\n")
    result = run("compare", "--data", "blank.csv", "-q", cwd=tmp_path)
    assert "'oops' at line 5;" in result.stderr, result.stderr
    # a quoted name spanning two lines, blank lines, a missing value and a class
    (tmp_path / "quoted.csv").write_text(
        'a,"b\nin mm",target\n\n1,2,x\n\n\n3,NA,y\n4,5,\n'
    )
    result = run("compare", "--data", "quoted.csv", "-q", "--drop", "b", cwd=tmp_path)
    assert "has no class at line 8:" in result.stderr, result.stderr
    (tmp_path / "quoted.csv").write_text('a,"b\nin mm",target\n\n1,2,x\n\n\n3,NA,y\n')
    result = run("compare", "--data", "quoted.csv", "-q", cwd=tmp_path)
    assert "column 'b\\nin mm' holds 'NA' at line 7;" in result.stderr, result.stderr
    (tmp_path / "short.csv").write_text("a,b,target\r\n\r\n1,2,x\r\n3,4\r\n")
    result = run("compare", "--data", "short.csv", "-q", cwd=tmp_path)
    assert "short.csv, line 4: 2 fields, expected 3" in result.stderr, result.stderr


def test_output_a_terminal_cannot_encode_is_replaced(tmp_path):
    write_csv(
        tmp_path / "fleurs.csv",
        [[*r, f"espèce {t}"] for r, t in zip(*load_iris(return_X_y=True))],
        header=["a", "b", "c", "d", "espèce"],
    )
    result = run("compare", "--data", "fleurs.csv", "--classifiers", "knn", "--report",
                 cwd=tmp_path, env={"PYTHONIOENCODING": "ascii"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert re.search(r"^knn\s+0\.\d{3} \+/- 0\.\d{3}\s", result.stdout, re.MULTILINE)
    assert "esp\\xe8ce 0" in result.stdout


def test_duplicate_column_names_are_refused(tmp_path):
    (tmp_path / "twice.csv").write_text("a,a,c,target\n1,2,3,x\n2,3,4,y\n")
    result = run("compare", "--data", "twice.csv", "--features", "a", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        "patrec: error: twice.csv has 2 columns named 'a' (columns 1 and 2): give "
        "each column its own name in the header row"
    ) == result.stderr.strip()


@pytest.mark.parametrize(
    "content, message",
    [
        (
            "a|b|target\n1|2|x\n2|3|y\n",
            "data.csv has a single column, so no features besides the target: its "
            "first line reads 'a|b|target'; the fields of a line must be separated "
            "by commas, semicolons or tabs",
        ),
        ("a b target\n1 2 x\n2 3 y\n", "its first line reads 'a b target'; the fields"),
        (
            "# my data\na,b,target\n1,2,x\n2,3,y\n",
            "data.csv: its first line, '# my data', has a single field but line 2 has "
            "3: remove the lines above the header or the data",
        ),
    ],
)
def test_an_unknown_separator_or_a_first_comment_line_is_named(
    tmp_path, content, message
):
    (tmp_path / "data.csv").write_text(content)
    result = run("compare", "--data", "data.csv", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr, result.stderr


def test_integer_classes_written_as_decimals_are_one_class(tmp_path):
    X, y, _ = _iris_rows()
    labels = [f"{t}.0" if i % 2 else t for i, t in enumerate(y)]
    write_csv(tmp_path / "mixed.csv", [[*r, t] for r, t in zip(X, labels)],
              header=["a", "b", "c", "d", "class"])  # fmt: skip
    result = run("compare", "--data", "mixed.csv", "--classifiers", "knn", "--report",
                 "-q", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "150 samples, 4 features, 3 classes" in result.stdout
    assert "error by class: 0 " in result.stdout
    # a target with fractions is still a measurement
    write_csv(tmp_path / "widths.csv", [[*r[:3], t, r[3]] for r, t in zip(X, y)],
              header=["a", "b", "c", "class", "width"])  # fmt: skip
    result = run("compare", "--data", "widths.csv", cwd=tmp_path)
    assert result.returncode == 2 and "measurements, not classes" in result.stderr


def test_a_column_that_numbers_the_rows_gets_a_note(tmp_path):
    X, _, names = _iris_rows()
    write_csv(tmp_path / "numbered.csv",
              [[i, *row, t] for i, (row, t) in enumerate(zip(X, names), start=1)],
              header=["id", "a", "b", "c", "d", "species"])  # fmt: skip
    common = ("compare", "--data", "numbered.csv", "--classifiers", "knn")
    result = run(*common, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "150 samples, 5 features" in result.stdout  # still used, but not silently
    assert result.stderr == (
        "patrec: note: column 'id' of numbered.csv holds the integers 1 to 150, each "
        "once: it looks like a row number, not a measurement, yet it is used as a "
        "feature; if it numbers the rows, leave it out with --drop 'id'\n"
    )
    result = run(*common, "--drop", "id", cwd=tmp_path)
    assert "150 samples, 4 features" in result.stdout and result.stderr == ""
    assert run(*common, "-q", cwd=tmp_path).stderr == ""
    # pandas' index column: unnamed, from 0, so named by its number; any order
    rows = [[i, *row, t] for i, (row, t) in enumerate(zip(X, names))]
    write_csv(tmp_path / "pandas.csv", rows[::-1], header=["", "a", "b", "c", "d", "y"])
    result = run("compare", "--data", "pandas.csv", "--classifiers", "knn",
                 cwd=tmp_path)  # fmt: skip
    assert "column 1 of pandas.csv holds the integers 0 to 149" in result.stderr
    assert result.stderr.rstrip().endswith("leave it out with --drop 1")
    # a measurement in whole numbers that repeat, or skip one, is no row number
    write_csv(tmp_path / "counts.csv",
              [[i + (i > 70), *row, t] for i, (row, t) in enumerate(zip(X, names))],
              header=["count", "a", "b", "c", "d", "species"])  # fmt: skip
    result = run("compare", "--data", "counts.csv", "--classifiers", "knn",
                 cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no devices or named pipes")
def test_devices_pipes_and_folders_are_refused_before_anything_is_read(tmp_path):
    # /dev/zero never ends: a regression would read until memory runs out
    result = run("compare", "--data", "/dev/zero", timeout=60)
    assert result.returncode == 2
    assert result.stderr == (
        "patrec: error: /dev/zero is a character device, not a regular file: patrec "
        "compare reads its data from a CSV file; save the data to a file and pass "
        "that file to --data\n"
    )
    os.mkfifo(tmp_path / "pipe.csv")  # opening it would wait for a writer
    result = run("compare", "--data", "pipe.csv", cwd=tmp_path, timeout=60)
    assert result.returncode == 2
    assert "patrec: error: pipe.csv is a pipe, not a regular file" in result.stderr
    result = run("compare", "--data", str(tmp_path), timeout=60)
    assert (
        result.stderr == f"patrec: error: {tmp_path} is a directory, not a CSV file\n"
    )


def peak_memory_run(*args, cwd):
    """``run``, with the peak resident memory of the command in MB, in a child that
    runs nothing else."""
    pytest.importorskip("resource")  # not on Windows
    code = (
        "import resource, sys\n"
        "from patrec.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                            text=True, cwd=cwd, timeout=120)  # fmt: skip
    *lines, peak = result.stderr.splitlines()
    # ru_maxrss is in kB on Linux, in bytes on macOS
    megabytes = int(peak) / (2**20 if sys.platform == "darwin" else 2**10)
    return result.returncode, "\n".join(lines), megabytes


def test_a_line_of_megabytes_is_refused_without_reading_it_whole(tmp_path):
    (tmp_path / "small.csv").write_text("1\n2\n")
    _, message, baseline = peak_memory_run("compare", "--data", "small.csv",
                                           cwd=tmp_path)  # fmt: skip
    assert "small.csv has a single column" in message
    # 20 MB of numbers and commas, without a line break
    with open(tmp_path / "line.csv", "w") as stream:
        for start in range(0, 3_000_000, 100_000):
            stream.write(",".join(map(str, range(start, start + 100_000))) + ",")
    assert (tmp_path / "line.csv").stat().st_size > 20_000_000
    status, message, peak = peak_memory_run("compare", "--data", "line.csv",
                                            cwd=tmp_path)  # fmt: skip
    assert status == 2
    assert message == (
        "patrec: error: line.csv: line 1 is longer than 1,000,000 characters, the "
        "most patrec compare reads in a line: check that it is a CSV file with a line "
        "break after each sample (data that wide can be loaded in Python and given "
        "to patrec's classifiers)"
    )
    assert peak - baseline < 50  # the whole line, parsed, took about 2 GB


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(
    tmp_path, monkeypatch
):
    from patrec import cli

    X, _, names = _iris_rows()
    write_csv(tmp_path / "iris.csv", [[*row, t] for row, t in zip(X, names)])
    size = (tmp_path / "iris.csv").stat().st_size
    monkeypatch.setattr(cli.data, "_MAX_FILE_BYTES", 1000)
    advice = (
        "(a CSV file's text takes many times its size in memory): compare on a "
        "sample of its rows, or load it in Python (numpy.loadtxt, pandas.read_csv) "
        "and cross-validate with patrec.model_selection.cross_validate"
    )
    with pytest.raises(cli.UsageError) as refused:
        cli.data.read_csv(str(tmp_path / "iris.csv"))
    assert str(refused.value) == (
        f"{tmp_path / 'iris.csv'} is {size:,} bytes, more than the 1,000 bytes that "
        f"patrec compare reads {advice}"
    )
    # a file that grows while it is read is stopped at the same limit
    lines = cli.data._bounded_lines(io.StringIO("1,2,x\n" * 1000), "growing.csv")
    with pytest.raises(cli.UsageError) as refused:
        list(lines)
    assert str(refused.value) == (
        f"growing.csv holds more than the 1,000 bytes that patrec compare reads {advice}"
    )
    monkeypatch.setattr(cli.data, "_MAX_FILE_BYTES", 100_000_000)
    assert cli.data.read_csv(str(tmp_path / "iris.csv")).X.shape == (150, 4)


def test_running_out_of_memory_while_reading_is_one_line(tmp_path, monkeypatch, capsys):
    from patrec import cli

    def out_of_memory(path):
        raise MemoryError

    (tmp_path / "data.csv").write_text("a,b,label\n1,2,x\n3,4,y\n")
    monkeypatch.setattr(cli.data, "_read_rows", out_of_memory)
    assert cli.main(["compare", "--data", str(tmp_path / "data.csv")]) == 2
    assert capsys.readouterr().err == (
        f"patrec: error: not enough memory to read {tmp_path / 'data.csv'}: its text "
        "takes many times the file's size in memory; compare on a sample of its "
        "rows, or load it in Python (numpy.loadtxt, pandas.read_csv) and "
        "cross-validate with patrec.model_selection.cross_validate\n"
    )


def test_a_byte_that_is_not_utf8_is_placed_in_the_file_not_in_its_last_block(
    tmp_path,
):
    # the text stream decodes 8 kB blocks: its error counts from the last one
    (tmp_path / "long.csv").write_bytes(b"a,b\n" + b"1,2\n" * 5000 + b"\xe8,3\n")
    result = run("compare", "--data", "long.csv", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "patrec: error: cannot read long.csv: it is not UTF-8 text (byte 0xe8 at "
        "position 20004); save it as UTF-8\n"
    )

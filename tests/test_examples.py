"""Every gallery script runs to the end, and every figure it shows has content.

Each script runs in a fresh interpreter (Agg backend) through ``gallery_runner.py``,
which executes it cell by cell and captures the figures at the end of each cell, as
sphinx-gallery does; a figure drawn across two cells, or any panel left empty, fails.
The selected scripts run side by side, one per core.
"""

import concurrent.futures
import errno
import importlib.util
import os
import pathlib
import socket
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parents[1]
EXAMPLES = sorted((ROOT / "examples").rglob("plot_*.py"))
RUNNER = pathlib.Path(__file__).with_name("gallery_runner.py")


def _load_runner():
    spec = importlib.util.spec_from_file_location("gallery_runner", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = _load_runner()


def _script_param(script):
    return pytest.param(script, id=f"{script.parent.name}/{script.name}")


def _run_script(script, folder):
    return subprocess.run(
        [sys.executable, str(RUNNER), str(script)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def gallery_runs(request, tmp_path_factory):
    """The runner's result for every script selected in this session, started at once
    on a pool of one worker per core (each in its own temporary folder)."""
    selected = [
        item.callspec.params["script"]
        for item in request.session.items
        if item.originalname == "test_example_runs_and_every_figure_has_content"
    ]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = {
            script: pool.submit(_run_script, script, tmp_path_factory.mktemp("run"))
            for script in selected
        }
        yield futures
        for future in futures.values():
            future.cancel()


def _assert_clean_run(result):
    """The script ended well, and what the rendered page shows holds no warning and
    no path of this machine."""
    assert result.returncode == 0, result.stderr[-3000:]
    shown = result.stdout + result.stderr
    assert "Warning" not in shown, shown[-3000:]
    for path in (str(ROOT), "site-packages", os.path.expanduser("~")):
        assert path not in shown, f"{path!r} in the output:\n{shown[-3000:]}"


@pytest.mark.parametrize("script", [_script_param(script) for script in EXAMPLES])
def test_example_runs_and_every_figure_has_content(script, gallery_runs):
    _assert_clean_run(gallery_runs[script].result())


def test_every_example_folder_has_a_readme():
    assert EXAMPLES, "no gallery scripts found"
    for folder in {script.parent for script in EXAMPLES}:
        assert (folder / "README.txt").is_file(), folder


def test_every_example_has_a_titled_docstring():
    for script in EXAMPLES:
        first = runner.split_cells(script.read_text(encoding="utf-8"))[0][1]
        lines = [line.strip() for line in first.strip().splitlines()]
        assert (
            lines[0] in ('"""', 'r"""')
            and set(lines[1]) == {"="}
            and set(lines[3]) == {"="}
        ), f"{script.name}: the docstring must open with a ==== title block"


# The check itself: an empty panel, a figure without a title and a figure split across
# cells must all be caught.


def _figure(n_axes=2):
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, n_axes)
    for ax in axes:
        ax.set_title("a panel")
    return figure, axes


def test_a_figure_with_every_panel_drawn_passes():
    import matplotlib.pyplot as plt

    figure, axes = _figure(4)
    axes[0].plot([0, 1], [0, 1])
    axes[1].scatter([0], [0])
    axes[2].bar(["a"], [1])
    axes[3].imshow([[0, 1], [1, 0]])
    assert runner.empty_axes_problems(figure) == []
    plt.close(figure)


def test_an_empty_panel_fails():
    import matplotlib.pyplot as plt

    figure, axes = _figure(2)
    axes[0].plot([0, 1], [0, 1])
    axes[1].set_xlabel("labelled but empty")
    axes[1].legend(handles=axes[0].lines, labels=["a legend alone is not content"])
    problems = runner.empty_axes_problems(figure)
    assert len(problems) == 1 and "empty Axes" in problems[0], problems
    plt.close(figure)


@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: ax.plot([], []),
        lambda ax: ax.scatter([], []),
        lambda ax: ax.text(0.5, 0.5, "  "),
        lambda ax: ax.plot([0, 1], [0, 1])[0].set_visible(False),
    ],
    ids=["empty line", "empty scatter", "blank text", "hidden line"],
)
def test_artists_without_ink_do_not_count(draw):
    import matplotlib.pyplot as plt

    figure, axes = _figure(2)
    axes[0].plot([0, 1], [0, 1])
    draw(axes[1])
    assert len(runner.empty_axes_problems(figure)) == 1
    plt.close(figure)


def test_hidden_panels_are_not_checked_but_a_figure_needs_a_title():
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2)
    axes[0].plot([0, 1], [0, 1])
    axes[1].set_visible(False)
    assert runner.empty_axes_problems(figure) == [
        "the figure has no title (neither an Axes title nor a suptitle)"
    ]
    figure.suptitle("titled")
    assert runner.empty_axes_problems(figure) == []
    plt.close(figure)


def test_a_figure_split_across_cells_fails(tmp_path):
    script = tmp_path / "plot_split.py"
    script.write_text(
        '"""\n=====\nSplit\n=====\n"""\n'
        "# %%\n"
        "import matplotlib.pyplot as plt\n"
        "fig, axes = plt.subplots(1, 2)\n"
        "fig.supxlabel('x'); fig.supylabel('y')\n"
        "axes[0].plot([0, 1]); axes[0].set_title('drawn in the first cell')\n"
        "# %%\n"
        "# The second panel, one cell too late.\n"
        "axes[1].plot([1, 0]); axes[1].set_title('drawn in the second cell')\n"
    )
    problems = runner.run(script, save_dir=tmp_path)
    assert len(problems) == 1 and "'Axes 2 of 2'" in problems[0], problems
    assert (tmp_path / "plot_split_1.png").is_file()
    # Drawn within one cell, the same figure passes.
    script.write_text(script.read_text().replace("# %%\n# The second", "# The second"))
    assert runner.run(script) == []


def test_cells_are_cut_where_sphinx_gallery_cuts_them():
    source = '"""doc"""\nA = 1\n# %%\nB = 2\n' + "#" * 20 + "\nC = 3\n#%%\nD = 4\n"
    assert runner.split_cells(source) == [
        (1, '"""doc"""\nA = 1\n'),
        (3, "# %%\nB = 2\n"),
        (5, "#" * 20 + "\nC = 3\n"),
        (7, "#%%\nD = 4\n"),
    ]


# A labelled animation that passes the runner's checks; the tests break it.
MOVING_POINT = (
    "import matplotlib.pyplot as plt\n"
    "from matplotlib.animation import FuncAnimation\n"
    "fig, ax = plt.subplots()\n"
    "ax.set_title('a point moving right')\n"
    "ax.set_xlim(0, 5)\n"
    "ax.set_xlabel('x'); ax.set_ylabel('y')\n"
    "line, = ax.plot([], [], 'o')\n"
    "def frame(i):\n"
    "    line.set_data([i], [0])\n"
    "    return (line,)\n"
    "animation = FuncAnimation(fig, frame, frames=5)\n"
)


def test_an_animated_figure_is_checked_on_its_first_frame(tmp_path):
    script = tmp_path / "plot_animated.py"
    script.write_text(MOVING_POINT)
    assert runner.run(script) == []
    # An init_func that leaves the panel empty shows an empty first frame.
    script.write_text(
        script.read_text().replace("frames=5)", "frames=5, init_func=lambda: (line,))")
    )
    problems = runner.run(script)
    assert len(problems) == 1 and "empty Axes" in problems[0], problems


def test_every_example_has_its_place_in_the_course_order():
    """docs/gallery_order.py lists each chapter's examples in teaching order; a new
    example must be placed there (else it would come last, by name)."""
    spec = importlib.util.spec_from_file_location(
        "gallery_order", ROOT / "docs" / "gallery_order.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for folder in sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir()):
        scripts = {p.name for p in folder.glob("plot_*.py")}
        listed = module.COURSE_ORDER.get(folder.name, [])
        assert sorted(listed) == sorted(scripts), folder.name
        key = module.CourseOrder(folder)
        assert sorted(scripts, key=key) == listed


# The labels check: every x/y plot of data has both axis labels, a figure showing
# points of several classes has a legend; the exceptions are few and named.


def _labelled(ax):
    ax.set_xlabel("feature 1")
    ax.set_ylabel("feature 2")


def test_a_labelled_figure_with_a_legend_passes():
    import matplotlib.pyplot as plt

    figure, axes = _figure(2)
    for ax in axes:
        _labelled(ax)
        ax.scatter([0, 1], [0, 1], c=["tab:blue", "tab:orange"])
    axes[0].legend(
        handles=[plt.Line2D([], [], marker="o", linestyle="", label="class 0")]
    )  # one legend serves every panel of the figure
    assert runner.label_problems(figure) == []
    plt.close(figure)


@pytest.mark.parametrize("missing", ["x", "y"])
def test_a_missing_axis_label_fails(missing):
    import matplotlib.pyplot as plt

    figure, axes = _figure(2)
    for ax in axes:
        _labelled(ax)
        ax.plot([0, 1], [0, 1])
    getattr(axes[1], f"set_{missing}label")("")
    problems = runner.label_problems(figure)
    assert problems == [f"Axes 'a panel' has no {missing} label"], problems
    plt.close(figure)


def test_shared_axes_and_figure_labels_count():
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(2, 2, sharex=True, sharey=True)
    for ax in axes.ravel():
        ax.plot([0, 1], [0, 1])
        ax.set_title("a panel")
    for ax in axes[1]:
        ax.set_xlabel("feature 1")  # the bottom row labels the shared x axis
    figure.supylabel("feature 2")
    assert runner.label_problems(figure) == []
    plt.close(figure)


@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: (ax.scatter([0, 1], [0, 1], c=[0, 1]),),
        lambda ax: (ax.scatter([0], [0]), ax.scatter([1], [1])),
        lambda ax: (ax.plot([0], [0], "o"), ax.plot([1], [1], "s")),
    ],
    ids=["coloured by label", "one scatter per class", "markers per class"],
)
def test_points_of_several_classes_need_a_legend(draw):
    import matplotlib.pyplot as plt

    figure, axes = _figure(2)
    for ax in axes:
        _labelled(ax)
        ax.plot([0, 1], [0, 1])
    draw(axes[1])
    problems = runner.label_problems(figure)
    assert len(problems) == 1 and "no panel of its figure has a legend" in problems[0]
    figure.legend(["class a", "class b"])
    assert runner.label_problems(figure) == []
    plt.close(figure)


def test_the_named_exceptions_pass_unlabelled():
    """A colorbar, an Axes without its axis (text, a picture) and an image whose
    ticks name its rows and columns (a confusion matrix) need no axis labels; a
    scatter coloured by a continuous value needs no legend."""
    import matplotlib.pyplot as plt

    figure, axes = _figure(3)
    image = axes[0].imshow([[3, 1], [0, 4]])
    axes[0].set_xticks([0, 1], ["benign", "malignant"])
    axes[0].set_yticks([0, 1], ["benign", "malignant"])
    figure.colorbar(image, ax=axes[0])
    axes[1].text(0.5, 0.5, "a text panel")
    axes[1].axis("off")
    _labelled(axes[2])
    axes[2].scatter(range(30), range(30), c=range(30))
    assert runner.label_problems(figure) == []
    # an image with numbered ticks only is an x/y plot: it needs its labels
    axes[0].set_xticks([0, 1], ["", ""])
    assert runner.label_problems(figure) == ["Axes 'a panel' has no x or y label"]
    plt.close(figure)


def test_every_frame_of_an_animation_is_checked(tmp_path):
    script = tmp_path / "plot_frames.py"
    script.write_text(MOVING_POINT)
    assert runner.run(script) == []
    script.write_text(
        script.read_text().replace(
            "    return (line,)",
            "    ax.set_ylabel('' if i == 3 else 'y')\n    return (line,)",
        )
    )
    problems = runner.run(script)
    assert len(problems) == 1 and "frame 3: " in problems[0], problems


def test_the_dask_example_says_so_when_dask_is_missing(tmp_path):
    """Built without Dask, the sharded k-NN page shows a sentence saying so (and a
    figure holding it), not a placeholder."""
    script = ROOT / "examples" / "neighbors" / "plot_sharded_knn.py"
    hide_dask = (
        "import runpy, sys\n"
        "sys.modules['dask'] = sys.modules['distributed'] = None\n"
        f"sys.argv = [{str(RUNNER)!r}, {str(script)!r}]\n"
        f"runpy.run_path({str(RUNNER)!r}, run_name='__main__')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", hide_dask],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Dask is not installed" in result.stdout


def test_the_dask_example_runs_while_port_8787_is_taken(tmp_path):
    """Issue 37: the scheduler's web server took Dask's default port 8787 even with
    no dashboard, so another program holding it made the page print distributed's
    "Port 8787 is already in use" warning, and this test's gallery run fail."""
    pytest.importorskip("distributed")
    script = ROOT / "examples" / "neighbors" / "plot_sharded_knn.py"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        try:
            holder.bind(("127.0.0.1", 8787))
            holder.listen()
        except OSError as exc:  # (taken already: what the test needs)
            if exc.errno != errno.EADDRINUSE:
                raise
        _assert_clean_run(_run_script(script, tmp_path))

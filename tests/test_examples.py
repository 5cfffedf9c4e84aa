"""Every gallery script runs to the end, and every figure it shows has content.

Each script runs in a fresh interpreter (Agg backend) through ``gallery_runner.py``,
which executes it cell by cell and captures the figures at the end of each cell, as
sphinx-gallery does; a figure drawn across two cells, or any panel left empty, fails.
The selected scripts run side by side, one per core.
"""

import concurrent.futures
import importlib.util
import os
import pathlib
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


@pytest.mark.parametrize("script", [_script_param(script) for script in EXAMPLES])
def test_example_runs_and_every_figure_has_content(script, gallery_runs):
    result = gallery_runs[script].result()
    assert result.returncode == 0, result.stderr[-3000:]
    # what the rendered page shows: no warning, no path of this machine
    shown = result.stdout + result.stderr
    assert "Warning" not in shown, shown[-3000:]
    for path in (str(ROOT), "site-packages", os.path.expanduser("~")):
        assert path not in shown, f"{path!r} in the output:\n{shown[-3000:]}"


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


def test_an_animated_figure_is_checked_on_its_first_frame(tmp_path):
    script = tmp_path / "plot_animated.py"
    script.write_text(
        "import matplotlib.pyplot as plt\n"
        "from matplotlib.animation import FuncAnimation\n"
        "fig, ax = plt.subplots()\n"
        "ax.set_title('a point moving right')\n"
        "ax.set_xlim(0, 5)\n"
        "line, = ax.plot([], [], 'o')\n"
        "def frame(i):\n"
        "    line.set_data([i], [0])\n"
        "    return (line,)\n"
        "animation = FuncAnimation(fig, frame, frames=5)\n"
    )
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

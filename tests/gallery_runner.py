"""Run a gallery script the way sphinx-gallery does, and check every figure it captures.

sphinx-gallery executes a script cell by cell (a cell starts at a ``# %%`` line or a
line of 20 or more ``#``), saves every open figure at the end of each cell and then
closes them all.  A figure drawn across two cells is therefore captured half-drawn: the
built page shows an empty panel although ``python plot_x.py`` draws correctly.  This
runner reproduces that capture and reports, for each captured figure,

- a figure without any Axes, or without a title (an Axes title or a suptitle);
- a visible Axes on which nothing is drawn: no non-empty line, collection, image, patch,
  text or table (the frame, the axis labels, the title and the legend do not count).

Usage::

    python tests/gallery_runner.py examples/linear/plot_x.py [--save DIR]

A figure driven by a matplotlib ``Animation`` (sphinx-gallery embeds those as players)
is drawn once first, which renders the animation's first frame (or its ``init_func``):
that frame must already show something.

``--save DIR`` also writes each captured figure to ``DIR/<script>_<n>.png``, as the
built page would show it.  Exit code 0 when every figure passes, 1 with one line per
problem on standard error otherwise.  ``tests/test_examples.py`` runs it on every
script.
"""

import argparse
import pathlib
import re
import sys

CELL_START = re.compile(r"^(#{20,}.*|# ?%%.*)$")


def split_cells(source):
    """``[(first_line, code), ...]``: the script cut where sphinx-gallery cuts it.

    ``first_line`` is the 1-based line number of the cell's first line, so that
    tracebacks point at the script.
    """
    cells, start, lines = [], 1, []
    for number, line in enumerate(source.splitlines(keepends=True), start=1):
        if CELL_START.match(line.rstrip("\r\n")):
            cells.append((start, "".join(lines)))
            start, lines = number, []
        lines.append(line)
    cells.append((start, "".join(lines)))
    return [(first, code) for first, code in cells if code.strip()]


def draws_something(artist):
    """Whether ``artist`` puts ink on its Axes (visible and holding data)."""
    from matplotlib.collections import Collection, PathCollection
    from matplotlib.image import AxesImage
    from matplotlib.lines import Line2D
    from matplotlib.text import Text

    if not artist.get_visible():
        return False
    if isinstance(artist, Line2D):
        return len(artist.get_xdata()) > 0
    if isinstance(artist, PathCollection):  # scatter: one marker per offset
        return len(artist.get_offsets()) > 0 and len(artist.get_paths()) > 0
    if isinstance(artist, Collection):
        return any(len(path.vertices) for path in artist.get_paths())
    if isinstance(artist, AxesImage):
        return artist.get_array() is not None and artist.get_array().size > 0
    if isinstance(artist, Text):
        return bool(artist.get_text().strip())
    return True  # patches, tables, other artists added on purpose


def empty_axes_problems(figure):
    """Problems of one figure: no Axes, no title, or a visible Axes with nothing drawn."""
    axes = [ax for ax in figure.get_axes() if ax.get_visible()]
    if not axes:
        return ["the figure has no visible Axes"]
    problems = []
    suptitle = getattr(figure, "_suptitle", None)  # get_suptitle() needs matplotlib 3.8
    suptitle = suptitle.get_text() if suptitle is not None else ""
    if not suptitle.strip() and not any(ax.get_title().strip() for ax in axes):
        problems.append(
            "the figure has no title (neither an Axes title nor a suptitle)"
        )
    for position, ax in enumerate(axes):
        artists = [
            *ax.lines,
            *ax.collections,
            *ax.images,
            *ax.patches,
            *ax.texts,
            *ax.tables,
            *ax.artists,
        ]
        if not any(draws_something(artist) for artist in artists):
            name = ax.get_title() or f"Axes {position + 1} of {len(axes)}"
            problems.append(f"empty Axes {name!r}: nothing is drawn on it")
    return problems


def run(script, save_dir=None):
    """Execute ``script`` cell by cell; return the problems of the captured figures."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.animation import Animation

    script = pathlib.Path(script)
    namespace = {"__name__": "__main__", "__file__": str(script)}
    problems, captured = [], 0
    for first_line, code in split_cells(script.read_text(encoding="utf-8")):
        # Blank lines in front keep the script's line numbers in tracebacks.
        exec(compile("\n" * (first_line - 1) + code, str(script), "exec"), namespace)
        animated = {
            value._fig for value in namespace.values() if isinstance(value, Animation)
        }
        for number in plt.get_fignums():
            figure = plt.figure(number)
            if figure in animated:
                figure.canvas.draw()  # the first draw runs the animation's first frame
            captured += 1
            where = f"{script.name}, cell at line {first_line}, figure {captured}"
            problems += [
                f"{where}: {problem}" for problem in empty_axes_problems(figure)
            ]
            if save_dir is not None:
                figure.savefig(pathlib.Path(save_dir) / f"{script.stem}_{captured}.png")
        plt.close("all")
    if captured == 0:
        problems.append(f"{script.name}: no figure was drawn")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("script")
    parser.add_argument("--save", metavar="DIR", default=None)
    args = parser.parse_args(argv)
    if args.save is not None:
        pathlib.Path(args.save).mkdir(parents=True, exist_ok=True)
    problems = run(args.script, args.save)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

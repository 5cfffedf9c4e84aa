"""Run a gallery script the way sphinx-gallery does, and check every figure it captures.

sphinx-gallery executes a script cell by cell (a cell starts at a ``# %%`` line or a
line of 20 or more ``#``), saves every open figure at the end of each cell and then
closes them all.  A figure drawn across two cells is therefore captured half-drawn: the
built page shows an empty panel although ``python plot_x.py`` draws correctly.  This
runner reproduces that capture and reports, for each captured figure,

- a figure without any Axes, or without a title (an Axes title or a suptitle);
- a visible Axes on which nothing is drawn: no non-empty line, collection, image, patch,
  text or table (the frame, the axis labels, the title and the legend do not count);
- an Axes showing data without an x or a y label, or showing points of several
  classes (scatters or markers of distinct colours) without a legend
  (`label_problems` lists the few exceptions: colorbars, Axes drawn without their
  axis, images whose ticks name their rows and columns).

Usage::

    python tests/gallery_runner.py examples/linear/plot_x.py [--save DIR]

A figure driven by a matplotlib ``Animation`` (sphinx-gallery embeds those as players)
is drawn once first, which renders the animation's first frame (or its ``init_func``):
that frame must already show something; every frame then keeps its axis labels and
legend.

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


def _is_colorbar(ax):
    return ax.get_label() == "<colorbar>" or hasattr(ax, "_colorbar")


def _label_of(ax, which):
    """``ax``'s x or y label, else one of an Axes sharing that axis with it (shared
    axes are labelled once, on the outer panels), else the figure's sup-label."""
    group = ax.get_shared_x_axes() if which == "x" else ax.get_shared_y_axes()
    for other in [ax, *group.get_siblings(ax)]:
        label = other.get_xlabel() if which == "x" else other.get_ylabel()
        if label.strip():
            return label
    figure_label = getattr(ax.figure, f"_sup{which}label", None)
    return figure_label.get_text() if figure_label is not None else ""


def _point_sets(ax):
    """How many sets of points of distinct colours ``ax`` shows: one per scatter or
    marker-only line, or one per colour of a scatter coloured by labels (at most 20
    distinct values; more are a continuous quantity, shown by a colorbar)."""
    import numpy as np
    from matplotlib.collections import PathCollection
    from matplotlib.colors import to_hex
    from matplotlib.transforms import IdentityTransform

    colours = set()
    for artist in ax.collections:
        # a scatter places its markers at offsets in data coordinates; the
        # PathCollections of a contour set (matplotlib < 3.8) have no offsets
        placed = not isinstance(artist.get_offset_transform(), IdentityTransform)
        if isinstance(artist, PathCollection) and placed and draws_something(artist):
            values = artist.get_array()
            if values is not None and len(np.unique(values)) > 20:
                continue
            if values is not None:
                colours.update(("value", value) for value in np.unique(values))
            else:
                colours.update(to_hex(c) for c in artist.get_facecolors())
    for line in ax.lines:
        if (
            draws_something(line)
            and line.get_linestyle() in ("None", " ", "")
            and line.get_marker() not in (None, "None", "", " ")
        ):
            colours.add(to_hex(line.get_markerfacecolor()))
    return len(colours)


def label_problems(figure):
    """Axes showing data without an x or a y label, or with points of several classes
    and no legend.

    Exceptions, each an Axes that is not an x/y plot of data: colorbars, Axes drawn
    without their axis (``ax.axis("off")``: text panels, pictures), and images whose
    tick labels name the rows and columns (a confusion matrix).  One legend serves
    every panel of a figure (the panels of a gallery figure show the same classes):
    a figure legend, or a legend on any of its panels.
    """
    problems = []
    axes = [ax for ax in figure.get_axes() if ax.get_visible()]
    has_legend = bool(figure.legends) or any(
        ax.get_legend() is not None and ax.get_legend().get_visible() for ax in axes
    )
    for position, ax in enumerate(axes):
        artists = [*ax.lines, *ax.collections, *ax.images, *ax.patches, *ax.texts]
        if (
            _is_colorbar(ax)
            or not ax.axison
            or not any(draws_something(artist) for artist in artists)
        ):
            continue
        name = ax.get_title() or f"Axes {position + 1} of {len(axes)}"
        named_ticks = ax.images and all(
            any(tick.get_text().strip() for tick in ticks)
            for ticks in (ax.get_xticklabels(), ax.get_yticklabels())
        )
        if not named_ticks:
            missing = [which for which in "xy" if not _label_of(ax, which).strip()]
            if missing:
                problems.append(f"Axes {name!r} has no {' or '.join(missing)} label")
        if _point_sets(ax) > 1 and not has_legend:
            problems.append(
                f"Axes {name!r} shows points of several classes, and no panel of "
                "its figure has a legend"
            )
    return problems


def animation_frame_problems(animation):
    """`label_problems` of every frame of a ``FuncAnimation`` (each once)."""
    problems, seen = [], set()
    for frame in animation.new_frame_seq():
        animation._func(frame, *animation._args)
        for problem in label_problems(animation._fig):
            if problem not in seen:  # (a problem once, at the first frame showing it)
                seen.add(problem)
                problems.append(f"frame {frame}: {problem}")
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
        animations = {
            value._fig: value
            for value in namespace.values()
            if isinstance(value, Animation)
        }
        animated = set(animations)
        for number in plt.get_fignums():
            figure = plt.figure(number)
            if figure in animated:
                figure.canvas.draw()  # the first draw runs the animation's first frame
            captured += 1
            where = f"{script.name}, cell at line {first_line}, figure {captured}"
            problems += [
                f"{where}: {problem}"
                for problem in empty_axes_problems(figure) + label_problems(figure)
            ]
            if save_dir is not None:
                figure.savefig(pathlib.Path(save_dir) / f"{script.stem}_{captured}.png")
            if figure in animated:  # every later frame keeps its labels and legend
                problems += [
                    f"{where}: {problem}"
                    for problem in animation_frame_problems(animations[figure])
                ]
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

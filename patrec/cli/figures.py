"""The decision-region figure of ``patrec compare --plot``."""

import os
import textwrap
import warnings

import numpy as np

from .. import registry
from .._validation import plain
from ..model_selection import standardize
from ._common import UsageError, _first_line
from .classifiers import make_classifier, parse_params

# --plot names the classes in a legend up to this many (the colour map's colours).
_LEGEND_CLASSES = 10


def _figure_path(path):
    """The file ``--plot`` writes, checked before any work is done: its folder exists
    and matplotlib knows its format (a name without one gets ".png", as matplotlib
    adds it)."""
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise UsageError(f"cannot save the figure to {path}: no such directory")
    extension = os.path.splitext(path)[1][1:].lower()
    if not extension:
        return path + ".png"
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    if extension not in formats:
        raise UsageError(
            f"cannot save the figure to {path}: .{extension} is no image "
            f"format matplotlib writes ({', '.join(sorted(formats))})"
        )
    return path


class _Standardised:
    """A classifier fitted on standardised features, answering in the original units.

    The decision regions of 1- and 2-feature data are drawn on the features as
    measured (a single feature along the horizontal axis, the vertical one unused);
    the classifier itself saw ``(x - mean) / scale`` of the data's own features, as in
    the cross-validation.
    """

    def __init__(self, classifier, mean, scale):
        self.classifier, self.mean, self.scale = classifier, mean, scale
        self.classes_ = classifier.classes_
        if hasattr(classifier, "prototypes_"):
            prototypes = mean + scale * classifier.prototypes_
            self.prototypes_ = np.column_stack(
                [prototypes, np.zeros((len(prototypes), 2 - len(mean)))]
            )
            self.prototype_labels_ = classifier.prototype_labels_

    def predict(self, X):
        X = np.asarray(X)[:, : len(self.mean)]
        return self.classifier.predict((X - self.mean) / self.scale)


def plot_regions(rows, data, args, progress, note=None):
    """One panel per classifier, titled with its cross-validated error."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    families, data = _drawable(data, note)
    with plt.rc_context({"font.family": families}):
        _plot_regions(rows, data, args, progress)


def _drawable(data, note):
    """The font families the figure needs to draw the data's names (matplotlib's
    own, then installed fonts that have the missing characters), and the data with
    the names that no installed font draws replaced by numbers (said in a note)."""
    from matplotlib import font_manager, ft2font

    def charmap(path):
        try:
            return set(ft2font.FT2Font(path).get_charmap())
        except (OSError, RuntimeError):
            return set()

    classes = [str(plain(label)) for label in np.unique(data.y)]
    texts = [*data.feature_names, *classes, os.path.basename(str(data.name))]
    families = ["DejaVu Sans"]
    covered = charmap(font_manager.findfont("DejaVu Sans"))
    needed = {ord(c) for text in texts for c in text} - covered
    for entry in font_manager.fontManager.ttflist if needed else ():
        if entry.name.startswith("Last Resort"):  # a box for every character
            continue
        if entry.name not in families and needed & (found := charmap(entry.fname)):
            families.append(entry.name)
            covered |= found
            needed -= found
        if not needed:
            break
    if not needed:
        return families, data

    def drawn(text, stand_in):
        return text if all(ord(c) in covered for c in text) else stand_in

    names = [drawn(n, f"feature {i}") for i, n in enumerate(data.feature_names, 1)]
    labels = {c: drawn(c, f"class {i}") for i, c in enumerate(classes, 1)}
    if note is not None:
        note(
            "no installed font draws some of the names of the data; the figure shows "
            "them by number (feature 1, class 1, ...): install a font with their "
            "characters (for example Noto Sans CJK) to see them"
        )
    y = np.array([labels[str(plain(label))] for label in data.y])
    name = drawn(os.path.basename(str(data.name)), "the data")
    return families, data._replace(feature_names=names, y=y, name=name)


def _plot_regions(rows, data, args, progress):
    import matplotlib.pyplot as plt

    from ..plotting import plot_decision_regions

    X, y = data.X, data.y
    scaled = X if args.no_scale else standardize(X, X)[0]
    if X.shape[1] == 2:
        plane, axis_names = X, data.feature_names
        about = "on its two features"
    elif X.shape[1] == 1:
        plane = np.column_stack([X, np.zeros(len(X))])
        axis_names = [data.feature_names[0], ""]
        about = "on its single feature"
    else:
        centred = scaled - scaled.mean(axis=0)
        _, _, components = np.linalg.svd(centred, full_matrices=False)
        plane = centred @ components[:2].T
        axis_names = ["principal component 1", "principal component 2"]
        about = (
            f"refitted on the first two principal components of its "
            f"{X.shape[1]}{' standardised' if not args.no_scale else ''} features; "
            "errors are those of the table"
        )
    what = "this feature" if X.shape[1] == 1 else "these 2 features"
    columns = min(3, len(rows))
    grid_rows = -(-len(rows) // columns)
    figure, axes = plt.subplots(
        grid_rows,
        columns,
        squeeze=False,
        layout="constrained",
        figsize=(4.5 * columns, 4 * grid_rows + 0.6),
    )
    title = (
        f"{os.path.basename(str(data.name))} ({X.shape[0]} samples): each "
        f"classifier's {args.cv}-fold cross-validated error; decision regions {about}"
    )
    # about nine characters of the title's size to an inch: never cut at the edges
    figure.suptitle(
        textwrap.fill(title, int(9 * 4.5 * columns), break_on_hyphens=False)
    )
    params = parse_params(args.param, registry.classifier_names())
    # on the first panel that draws regions, while the classes' colours are distinct
    # (tab10's ten) and their list fits beside a panel
    legend = len(np.unique(y)) <= _LEGEND_CLASSES
    for number, (ax, (name, result, _)) in enumerate(zip(axes.flat, rows), start=1):
        progress.show(f"[patrec] plotting {number}/{len(rows)} {name} ...")
        if isinstance(result, str):  # failed in the table: no regions to draw
            ax.set_title(f"{name}: failed")
            _panel_note(ax, "failed in the cross-validation", result[len("failed: ") :])
            continue
        ax.set_title(f"{name}: CV error {result['error'].mean():.3f}")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # already reported in the table
                classifier = _fit_for_plot(name, args, params, plane, y, X.shape[1])
        except (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError) as exc:
            _panel_note(ax, f"cannot fit on {what}", _first_line(exc))
            continue
        plot_decision_regions(
            classifier,
            plane,
            y,
            ax=ax,
            resolution=150,
            prototypes=True if hasattr(classifier, "prototypes_") else None,
            legend=legend,
            feature_names=axis_names,
        )
        if X.shape[1] == 1:
            ax.set_yticks([])
        legend = False
    for ax in list(axes.flat)[len(rows) :]:
        ax.set_visible(False)
    try:
        figure.savefig(args.plot, dpi=100)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot save the figure to {args.plot}: {exc}") from None
    finally:
        plt.close(figure)


def _panel_note(ax, heading, reason):
    """A panel without regions: why, in its first sentence, wrapped to the panel."""
    ax.text(
        0.5,
        0.5,
        f"{heading}:\n"
        + textwrap.fill(reason.split(". ")[0], 40, break_on_hyphens=False),
        ha="center",
        va="center",
        fontsize="small",
        transform=ax.transAxes,
    )
    ax.set_axis_off()


def _fit_for_plot(name, args, params, plane, y, n_features):
    """The classifier fitted for its panel: on the principal-component plane of data
    with more than two features, else on the data's own features (standardised
    unless --no-scale) and answering on the plane."""
    classifier = make_classifier(name, args.seed, params)
    if n_features > 2:
        return classifier.fit(plane, y)
    features = plane[:, :n_features]
    mean, scale = np.zeros(n_features), np.ones(n_features)
    if not args.no_scale:
        mean = features.mean(axis=0)
        scale = features.std(axis=0)
        scale[scale == 0] = 1.0
    return _Standardised(classifier.fit((features - mean) / scale, y), mean, scale)

"""The branch-and-bound search of one query on a 2-D tree, the course's figure
(matplotlib, imported lazily)."""

import numpy as np

from ..neighbors.search.tree import node_geometry
from ._common import axis_names

__all__ = ["plot_search"]


def plot_search(
    tree,
    x,
    k=1,
    ax=None,
    *,
    explanation=None,
    samples=True,
    node_labels=True,
    feature_names=None,
):
    """Draw the branch-and-bound search of one query on a 2-D tree (the course's figure).

    Every node the search looked at is drawn as its ball: centre M_p, radius r_p
    (a circle for the euclidean metric, a diamond for cityblock, a square for
    chebyshev); the inner nodes of the k-d partition, tested by their boxes, as
    their bounding boxes.  Nodes the search entered are drawn in green, nodes pruned by
    rule 1 in red (dashed), and for the k-d partition the bounding boxes of the
    nodes pruned by the box rule in purple (dotted); the samples whose distance was
    computed in blue, those skipped by rule 2 as orange crosses, the k nearest as
    stars, and the query with the final bound B around it.

    Parameters
    ----------
    tree : BranchBoundTree
        Built on two features, with a euclidean, sqeuclidean, cityblock, chebyshev
        or minkowski metric.
    x : array-like of shape (2,)
        The query.
    k : int, default=1
        Neighbours searched for.
    ax : matplotlib Axes, default=None
        Where to draw; the current axes when None.
    explanation : SearchExplanation, default=None
        ``tree.explain(x, k)``, computed when None; one given must be for this
        ``x`` and ``k``.
    samples : bool, default=True
        Draw the training samples the search never reached, in light grey.
    node_labels : bool, default=True
        Write each drawn node's number at its mean M_p (the numbers of
        ``explanation.entered``, ``explanation.pruned`` and
        ``explanation.pruned_by_box``).
    feature_names : sequence of two str, default=None
        The axis labels; ``x1`` and ``x2`` when None.

    Returns
    -------
    ax : matplotlib Axes
        The axes drawn on; ``ax.explanation`` holds the explanation drawn.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from patrec.neighbors import BranchBoundTree
    >>> from patrec.plotting import plot_search
    >>> X = np.random.default_rng(0).uniform(size=(300, 2))
    >>> tree = BranchBoundTree(X, leaf_size=10, random_state=0)
    >>> ax = plot_search(tree, [0.5, 0.5])
    >>> len(ax.explanation.entered) > 0
    True
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon

    if tree.n_features != 2:
        raise ValueError(
            f"plot_search draws 2-D trees; this one has {tree.n_features} features."
        )
    metric = tree._metric
    if metric.transform is not None:
        raise ValueError(
            "plot_search draws the balls of the euclidean, cityblock, "
            "chebyshev and minkowski metrics; the mahalanobis tree "
            "lives in a mapped space."
        )
    if explanation is None:
        explanation = tree.explain(x, k)
    elif explanation.k != k or not np.array_equal(
        np.asarray(x, dtype=explanation.query.dtype).ravel(), explanation.query
    ):
        raise ValueError(
            "explanation must be tree.explain(x, k) for the x and k given here "
            f"(it searched for the {explanation.k} nearest of "
            f"{explanation.query.tolist()})."
        )
    if ax is None:
        ax = plt.gca()
    ball = _ball_outline(metric.name, metric.p)
    geometry = node_geometry(tree)
    centers, radius = geometry.centers.astype(np.float64), geometry.radius
    data = tree._training_rows().astype(np.float64)

    entered = explanation.entered["node"]
    for node in entered[1:] if len(entered) > 1 else entered:
        if tree._tree.use_boxes and tree._tree.node_nchild[node] > 0:
            # the k-d partition tests its inner nodes by their boxes alone
            ax.add_patch(
                Polygon(
                    _box_corners(tree, node),
                    closed=True,
                    fill=False,
                    edgecolor="tab:green",
                    linewidth=1.0,
                )
            )
            continue
        ax.add_patch(
            Polygon(
                centers[node] + radius[node] * ball,
                closed=True,
                fill=False,
                edgecolor="tab:green",
                linewidth=1.2,
            )
        )
    for node in explanation.pruned["node"]:
        ax.add_patch(
            Polygon(
                centers[node] + radius[node] * ball,
                closed=True,
                fill=True,
                facecolor=(0.84, 0.15, 0.16, 0.06),
                edgecolor="tab:red",
                linestyle="--",
                linewidth=1.0,
            )
        )
    boxed = explanation.pruned_by_box["node"]
    for node in boxed:  # the k-d partition's box rule
        ax.add_patch(
            Polygon(
                _box_corners(tree, node),
                closed=True,
                fill=True,
                facecolor=(0.58, 0.40, 0.74, 0.08),
                edgecolor="tab:purple",
                linestyle=":",
                linewidth=1.0,
            )
        )
    if node_labels:
        for node, colour in (
            [(n, "tab:green") for n in entered[1:]]
            + [(n, "tab:red") for n in explanation.pruned["node"]]
            + [(n, "tab:purple") for n in boxed]
        ):
            ax.annotate(
                str(node),
                centers[node],
                color=colour,
                fontsize=7,
                ha="center",
                va="center",
                zorder=3,
            )
    seen = explanation.distance_evaluations["sample"]
    seen = seen[seen >= 0]
    if samples:
        ax.scatter(data[:, 0], data[:, 1], s=6, color="0.8", zorder=1)
    ax.scatter(data[seen, 0], data[seen, 1], s=14, color="tab:blue", zorder=2)
    skipped = explanation.skipped["sample"]
    ax.scatter(
        data[skipped, 0],
        data[skipped, 1],
        s=22,
        marker="x",
        color="tab:orange",
        zorder=2,
    )
    near = explanation.indices
    ax.scatter(
        data[near, 0],
        data[near, 1],
        s=160,
        marker="*",
        color="gold",
        edgecolors="k",
        linewidths=0.8,
        zorder=4,
    )
    query = explanation.query.astype(np.float64)
    ax.scatter([query[0]], [query[1]], s=70, marker="P", color="k", zorder=5)
    bound = explanation.bound_updates["bound"][-1]
    ax.add_patch(
        Polygon(
            query + bound * ball,
            closed=True,
            fill=False,
            edgecolor="k",
            linestyle=":",
            linewidth=1.2,
        )
    )
    ax.set_aspect("equal")
    ax.autoscale_view()
    low, high = data.min(axis=0), data.max(axis=0)
    pad = 0.05 * (high - low)
    ax.set_xlim(low[0] - pad[0], high[0] + pad[0])
    ax.set_ylim(low[1] - pad[1], high[1] + pad[1])
    names = axis_names(tree, data, feature_names)
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    legend = [
        Line2D([], [], color="tab:green", label=f"node entered ({len(entered)})"),
        Line2D(
            [],
            [],
            color="tab:red",
            linestyle="--",
            label=f"node pruned by rule 1 ({len(explanation.pruned)})",
        ),
        *(
            [
                Line2D(
                    [],
                    [],
                    color="tab:purple",
                    linestyle=":",
                    label=f"box pruned by the box rule ({len(boxed)})",
                )
            ]
            if len(boxed)
            else []
        ),
        Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            color="tab:blue",
            label=f"distance computed ({len(seen)})",
        ),
        Line2D(
            [],
            [],
            marker="x",
            linestyle="",
            color="tab:orange",
            label=f"skipped by rule 2 ({len(skipped)})",
        ),
        Line2D(
            [],
            [],
            marker="*",
            linestyle="",
            color="gold",
            markeredgecolor="k",
            markersize=12,
            label=f"nearest neighbour{'s' if k > 1 else ''}",
        ),
        Line2D(
            [],
            [],
            marker="P",
            linestyle="",
            color="k",
            linewidth=1,
            label="query x, and B around it",
        ),
    ]
    ax.legend(handles=legend, loc="upper right", fontsize="small", framealpha=0.9)
    n_total = len(explanation.distance_evaluations)
    kinds = explanation.distance_evaluations["sample"]
    n_boxes = int(np.sum(kinds == -2))
    boxes = f", {n_boxes} to boxes" if n_boxes else ""
    ax.set_title(
        f"Branch and bound: {n_total} distances for {tree.n_samples} samples\n"
        f"({len(seen)} to samples, {int(np.sum(kinds == -1))} to node means"
        f"{boxes})"
    )
    ax.explanation = explanation
    return ax


def _box_corners(tree, node):
    """The four corners of a 2-D tree node's bounding box."""
    geometry = node_geometry(tree)
    low, high = (
        geometry.low[node].astype(np.float64),
        geometry.high[node].astype(np.float64),
    )
    return np.array([low, [high[0], low[1]], high, [low[0], high[1]]])


def _ball_outline(metric, p):
    """The unit ball's outline (closed polygon, shape (m, 2)) of a metric."""
    angles = np.linspace(0, 2 * np.pi, 121)
    if metric == "cityblock":
        p = 1.0
    elif metric == "chebyshev":
        return np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=float)
    elif metric in ("euclidean", "sqeuclidean"):
        p = 2.0
    cos, sin = np.cos(angles), np.sin(angles)
    # |u|^p + |v|^p = 1: u = sign(cos) |cos|^(2/p), v = sign(sin) |sin|^(2/p)
    return np.column_stack(
        [np.sign(cos) * np.abs(cos) ** (2 / p), np.sign(sin) * np.abs(sin) ** (2 / p)]
    )

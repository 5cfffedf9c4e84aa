"""Exercises of the nearest-neighbour chapter: the k-NN rule, the branch-and-bound
search, Wilson editing, multi-edit and Hart's condensing.

Each reference is patrec's own implementation: `KNeighborsClassifier` for the k-NN
rule, `BranchBoundTree.explain` for the search (the distance evaluations in the order
it makes them, what rule 1 pruned and rule 2 skipped), `edit`, `multiedit` and
`condense` with their recorded histories for the editing and condensing.  The
reports walk the same steps as the course: a query's neighbours then its vote, the
distance evaluations of the search one by one, the samples one by one, the rounds
of multi-edit one by one, the samples moved into the store in order.
"""

import numpy as np

from ..neighbors import (
    BranchBoundTree,
    BruteForce,
    KNeighborsClassifier,
    condense,
    edit,
    multiedit,
    pairwise_distances,
)
from ._checking import Case, Divergence, Exercise, shuffled_classes
from ._isolation import Unreadable
from ._notation import as_array, fmt, omega, ordinal, sub, unpack

# -- shared -------------------------------------------------------------------------


def _distances(X, x):
    """D(x, X[j]) for every row j (euclidean), for the reports."""
    return pairwise_distances(X, np.reshape(x, (1, -1)))[:, 0]


def _blobs(rng, n_classes, per_class, n_features=2, spread=1.5, grid=False):
    """Small samples around ``n_classes`` centres, every class present, shuffled.

    ``grid``: integer coordinates, so that equal distances (ties) are common.
    """
    centres = rng.uniform(0, 6, (n_classes, n_features))
    parts = [c + rng.normal(0, spread, (per_class, n_features)) for c in centres]
    return shuffled_classes(rng, [np.round(p) for p in parts] if grid else parts)


def _indices(value, name):
    """``value`` as a 1-D array of sample indices, or a `Divergence`."""
    array = as_array(value, name, (None,))
    if isinstance(array, Divergence):
        if isinstance(value, Unreadable):
            return array
        if np.ndim(value) == 0 or np.size(value) == 0:
            array = np.asarray(value, dtype=float).reshape(-1)
        else:
            return array
    if not (np.all(array == np.round(array)) and np.all(np.abs(array) < 2**31)):
        return Divergence(
            "what your function returned",
            f"{name} must hold sample indices (integers); yours holds {fmt(array)}.",
        )
    return array.astype(np.intp)


def _listing(indices):
    return ", ".join(f"X[{int(j)}]" for j in indices) if len(indices) else "none"


def _votes(classes):
    """k_i of every class among ``classes`` and the winner (lowest class on a tie)."""
    counts = np.bincount(np.asarray(classes, dtype=np.intp))
    return counts, int(np.argmax(counts))


def _said_votes(counts):
    """ "k₁ = 2, k₂ = 1" for the classes that received votes."""
    return ", ".join(f"k{sub(i + 1)} = {c}" for i, c in enumerate(counts) if c > 0)


def _nearest_others(X, labels, k):
    """Each sample's k nearest other samples (patrec's leave-one-out neighbours)."""
    model = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X, labels)
    return model.kneighbors()


# -- 1. the k-NN rule ---------------------------------------------------------------

_TIES_HINT = (
    "Equal distances go to the lower index: sort stably (np.argsort(d, "
    "kind='stable')), so that of two samples at the same distance the one with the "
    "lower j comes first."
)


class KNNExercise(Exercise):
    name = "knn"
    title = "The k-NN rule (euclidean distance, majority vote)"
    chapter = "neighbors"
    signature = "X, labels, queries, k"
    doc = """
    Classify each query by the k-NN rule of the training set X^N = {(x_j, θ_j)}.

    For a query x, the distance to every training sample is the euclidean
    δ(x, x_j) = ||x - x_j||.  Its k nearest neighbours are the k samples with the
    smallest δ, in increasing distance; samples at equal distance are taken in the
    order of their index j, the lower first (so which k samples vote is always
    determined).  Class ωᵢ gets g_i(x) = k_i votes, the number of its samples among
    the k neighbours, and x goes to the class with the most votes; on equal votes,
    to the class with the lowest index (ω₁ before ω₂).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The training samples x_j, one per row.
    labels : ndarray of int of shape (n_samples,)
        θ_j, the class of each sample: 0 for ω₁ up to c - 1.
    queries : ndarray of shape (n_queries, n_features)
        The samples x to classify.  A query may be a training sample too: that
        sample is then its nearest neighbour, at distance 0.
    k : int
        The number of neighbours.

    Returns
    -------
    neighbors : ndarray of int of shape (n_queries, k)
        Row q: the indices j of the k nearest training samples of queries[q],
        nearest first.
    predictions : ndarray of int of shape (n_queries,)
        The class of each query: 0 for ω₁ up to c - 1.
    """

    def cases(self, rng):
        X = np.array(
            [[0, 0], [1, 0], [0, 1], [1, 1], [4, 4], [5, 4], [4, 5], [2, 3], [3, 2]],
            dtype=float,
        )
        labels = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0])
        queries = np.array([[0.5, 0.2], [4.5, 4.5], [2.4, 2.6], [2.5, 2.5]])
        cases = [
            Case(
                "the course's picture: two classes, queries inside and between them",
                {"X": X, "labels": labels, "queries": queries, "k": 3},
            ),
            Case(
                "k = 2 on the same samples: X[3] of ω₁ and X[7] of ω₂ tie at [1.5, 2]",
                {"X": X, "labels": labels, "queries": np.array([[1.5, 2.0]]), "k": 2},
            ),
            Case(
                "duplicated samples of different classes, ω₃ before ω₂ in the data, "
                "query 0 on a training sample, equal votes, k = 2",
                {
                    "X": np.array(
                        [[1, 0], [0, 1], [0, 0], [0, 1], [1, 0], [1, 3], [3, 0]],
                        dtype=float,
                    ),
                    "labels": np.array([0, 1, 0, 1, 2, 2, 0]),
                    "queries": np.array([[1.0, 3.0], [1.5, 3.0], [2.5, 2.5]]),
                    "k": 2,
                },
            ),
        ]
        for number, (k, n_classes, grid) in enumerate(
            [(1, 2, False), (3, 3, True), (2, 2, True), (4, 2, True), (5, 3, False)],
            start=1,
        ):
            X, labels = _blobs(rng, n_classes, int(rng.integers(4, 7)), grid=grid)
            queries = rng.uniform(X.min(0), X.max(0), (5, X.shape[1]))
            if grid:  # on the grid too (equal distances), but never a sample
                queries = np.round(queries * 2) / 2 + 0.5
            ties = ", equal distances" if grid else ""
            ties += ", equal votes possible" if k % 2 == 0 else ""
            cases.append(
                Case(
                    f"random case {number}: {len(X)} samples, {n_classes} classes, "
                    f"k = {k}{ties}",
                    {"X": X, "labels": labels, "queries": queries, "k": k},
                )
            )
        return cases

    def reference(self, X, labels, queries, k):
        model = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X, labels)
        distances, neighbors = model.kneighbors(queries)
        return neighbors, model.predict(queries), distances

    def compare(self, args, expected, got):
        X, labels, queries, k = (args[n] for n in ("X", "labels", "queries", "k"))
        ref_neighbors, ref_predictions, ref_distances = expected
        parts = unpack(got, ("neighbors", "predictions"))
        if isinstance(parts, Divergence):
            return parts
        neighbors = as_array(parts[0], "neighbors", (len(queries), None))
        if isinstance(neighbors, Divergence):
            return neighbors
        if neighbors.shape[1] != k:
            off = neighbors.shape[1] - k
            return Divergence(
                "what your function returned",
                f"neighbors has {neighbors.shape[1]} columns; the k-NN rule with "
                f"k = {k} has {k} neighbours per query.",
                (f"k off by one ({off:+d}): " if abs(off) == 1 else "")
                + "take exactly the k nearest, e.g. order[:k] (not order[:k + 1] "
                "or order[1:k]).",
            )
        predictions = as_array(parts[1], "predictions", (len(queries),))
        if isinstance(predictions, Divergence):
            return predictions
        for q, x in enumerate(queries):
            D = _distances(X, x)
            if not np.array_equal(neighbors[q], ref_neighbors[q]):
                return self.wrong_neighbors(
                    q, x, X, D, k, ref_neighbors[q], neighbors[q],
                    self.mistake(X, queries, k, neighbors),
                )  # fmt: skip
            counts, winner = _votes(labels[ref_neighbors[q]])
            if predictions[q] != winner:
                n_classes = int(labels.max()) + 1
                return self.wrong_vote(q, counts, winner, predictions[q], n_classes)
        return None

    def wrong_neighbors(self, q, x, X, D, k, ref, yours, mistake):
        yours = yours.astype(np.intp)
        where = f"query {q}, x = {fmt(x)}"
        nearest = (
            f"the {k} nearest are {_listing(ref)} at distances {fmt(D[ref])}"
            if k > 1
            else f"the nearest is X[{ref[0]}] at distance {fmt(D[ref[0]])}"
        )
        strangers = [int(j) for j in yours if j not in set(ref.tolist())]
        valid = all(0 <= j < len(X) for j in yours)
        hint = mistake if valid else None
        if not valid:
            yours_text = f"yours are {fmt(yours)}, not all indices of X"
        elif strangers:
            j = strangers[0]
            kth = D[ref[-1]]
            if np.isclose(D[j], kth) and j > ref[-1]:
                relation = f"= the {ordinal(k)} nearest's {fmt(kth)}, but X[{ref[-1]}]"
                relation += " has the lower index"
                hint = hint or _TIES_HINT
            else:
                relation = f"> the {ordinal(k)} nearest's {fmt(kth)}"
            yours_text = (
                f"yours include X[{j}] at distance {fmt(D[j])} {relation}"
                f" (yours: {_listing(yours)})"
            )
        else:
            yours_text = (
                f"yours are the same samples in another order, {_listing(yours)} at "
                f"distances {fmt(D[yours])}"
            )
            increasing = np.diff(D[yours]) >= 0
            if np.all(increasing | np.isclose(D[yours][1:], D[yours][:-1])):
                # in increasing distance: only the order of equal distances differs
                t = int(np.flatnonzero(yours != ref)[0])
                yours_text += (
                    f": X[{yours[t]}] and X[{ref[t]}] are both at distance "
                    f"{fmt(D[ref[t]])}, and of equal distances the rule takes the "
                    f"lower index first, X[{ref[t]}]"
                )
                hint = hint or _TIES_HINT
            hint = hint or "List the neighbours nearest first, in increasing distance."
        return Divergence(where, f"{nearest};\n{yours_text}.", hint)

    @staticmethod
    def mistake(X, queries, k, neighbors):
        """The hint of the classic mistake that gives exactly these neighbours, for
        every query, or None."""
        if neighbors.shape[1] != k or not np.all(
            (neighbors >= 0) & (neighbors < len(X)) & (neighbors == np.round(neighbors))
        ):
            return None
        neighbors = neighbors.astype(np.intp)
        D = pairwise_distances(queries, X)
        stable = np.argsort(D, axis=1, kind="stable")
        city = np.abs(queries[:, None, :] - X[None, :, :]).sum(axis=2)
        if np.array_equal(neighbors, np.argsort(city, axis=1, kind="stable")[:, :k]):
            return (
                "These are the nearest by the city-block distance Σ|x_f - x_jf|; the "
                "rule here uses the euclidean distance ||x - x_j||."
            )
        mine = np.take_along_axis(D, neighbors, axis=1)
        if k > 1 and np.array_equal(
            np.sort(mine, axis=1), np.sort(D, axis=1)[:, ::-1][:, :k][:, ::-1]
        ):
            return (
                "These are the k farthest samples: you sorted the wrong way; the "
                "nearest neighbours have the smallest distances (np.argsort(d)[:k])."
            )
        if k + 1 <= len(X) and np.array_equal(neighbors, stable[:, 1 : k + 1]):
            return (
                "You left out the nearest sample of every query: k off by one.  Here "
                "the query is not left out of anything, so its nearest sample is a "
                "neighbour too (at distance 0 when it is the query itself): take "
                "order[:k]."
            )
        return None

    def wrong_vote(self, q, counts, winner, yours, n_classes):
        said = _said_votes(counts)
        top = np.flatnonzero(counts == counts.max())
        if yours == int(yours) and 0 <= yours < n_classes:
            yours_class = omega(yours)
        else:
            yours_class = (
                f"{fmt(yours)}, which is not a class index (0 to {n_classes - 1})"
            )
        hint = None
        if len(top) > 1 and int(yours) in top.tolist():
            hint = (
                f"Equal votes ({', '.join(omega(i) for i in top)} have {counts.max()} "
                "each): the rule gives x to the class with the lowest index, "
                f"{omega(top[0])} (np.argmax returns the first maximum)."
            )
        return Divergence(
            f"query {q}: the vote",
            f"votes {said} → {omega(winner)}; you said {yours_class}.",
            hint,
        )


# -- 2. the branch-and-bound search -------------------------------------------------


def _bnb_tree(X):
    """The course's tree over ``X``: hierarchical k-means, 3 children per node, a
    few samples per leaf (two levels below the root for the exercise's sizes),
    fixed seed: the cases and the reference build the same tree."""
    return BranchBoundTree(
        X,
        partition="kmeans",
        branching=3,
        leaf_size=max(3, len(X) // 6),
        random_state=0,
    )


def _tree_arrays(tree):
    """The tree as plain numpy: centers, radii, children, members, to_center.

    Read from the compiled tree's arrays: patrec has no public accessor of a
    tree's nodes (`patrec.plotting.plot_search` reads them the same way).
    """
    t = tree._tree
    n_nodes = len(t.node_start)
    children, members, to_center = [], [], []
    for p in range(n_nodes):
        n_children = int(t.node_nchild[p])
        children.append(np.arange(t.node_child[p], t.node_child[p] + n_children))
        if n_children:
            members.append(np.empty(0, dtype=np.intp))
            to_center.append(np.empty(0))
        else:
            start, stop = int(t.node_start[p]), int(t.node_end[p])
            members.append(np.asarray(t.order[start:stop], dtype=np.intp).copy())
            to_center.append(np.asarray(t.to_center[start:stop], dtype=float).copy())
    return {
        "centers": np.asarray(t.centers, dtype=float).copy(),
        "radii": np.asarray(t.radius, dtype=float).copy(),
        "children": children,
        "members": members,
        "to_center": to_center,
    }


class BranchBoundExercise(Exercise):
    name = "branch_and_bound"
    title = "The Fukunaga–Narendra branch-and-bound 1-NN search (rules 1 and 2)"
    chapter = "neighbors"
    signature = "X, x, centers, radii, children, members, to_center"
    doc = """
    Find the nearest neighbour of x by the branch-and-bound search on a given tree.

    The tree is built for you (hierarchical k-means).  Node p holds the subset
    X_p of the samples, their mean M_p and r_p = max D(x_i, M_p) over X_p; node 0
    is the root, and a leaf lists its samples with every D(x_i, M_p).  D is the
    euclidean distance.  The search, the course's steps 1° to 6°:

    1° B = ∞, no nearest neighbour yet; start at the root.
    2° (Expand) Compute D(x, M_p) of every child p of the current node.
    3° (Rule 1) A child with D(x, M_p) > B + r_p cannot hold the nearest
       neighbour: drop it.  Check each child with B as it is when its turn comes.
    5° Visit the children nearest first: increasing D(x, M_p), on equal distances
       the one listed first in children.  An internal child is searched in turn
       from 2° (depth first); after it, go on with the next child (4°: when none
       is left, go back up).
    6° At a leaf p, take its samples x_i in the order given (increasing
       D(x_i, M_p)).  Rule 2 uses the triangle inequality, D(x, x_i) >=
       |D(x, M_p) - D(x_i, M_p)|; with B as it is at that moment, skip x_i when

       - D(x, M_p) > B + D(x_i, M_p) (the course's rule 2), or
       - D(x_i, M_p) > B + D(x, M_p) (its other side: the samples still to come
         are farther from M_p, so they are all skipped too).

       Otherwise compute D(x, x_i) (an evaluation: append i to evaluated); when
       D(x, x_i) < B, or D(x, x_i) = B and i < NN, set NN = i and B = D(x, x_i).

    The distances D(x, M_p) to the nodes' means are not evaluations: only the
    D(x, x_i) to samples are listed.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The training samples x_i, one per row.
    x : ndarray of shape (n_features,)
        The query.
    centers : ndarray of shape (n_nodes, n_features)
        M_p of every node p; row 0 is the root.
    radii : ndarray of shape (n_nodes,)
        r_p of every node.
    children : list of n_nodes ndarrays of int
        children[p]: the nodes below p (empty for a leaf).
    members : list of n_nodes ndarrays of int
        members[p]: for a leaf, the indices i of the samples of X_p in increasing
        D(x_i, M_p); empty for an internal node.
    to_center : list of n_nodes ndarrays of float
        to_center[p]: D(x_i, M_p) of the samples members[p], in the same order.

    Returns
    -------
    nn : int
        The index NN of the nearest neighbour.
    B : float
        Its distance D(x, x_NN).
    evaluated : list of int
        Every i whose D(x, x_i) your search computed, in order.
    """

    def cases(self, rng):
        # Six groups of three, and a query near the group at (6, 0): its leaf is
        # searched first, and the B it gives lets rule 1 prune the far groups.
        X = np.array(
            [
                [0, 0], [1, 0], [0, 1], [6, 0], [7, 0], [6, 1],
                [0, 6], [1, 6], [0, 7], [6, 6], [7, 7], [6, 7],
                [3, 3], [3, 4], [4, 3], [9, 3], [9, 4], [10, 3],
            ],
            dtype=float,
        )  # fmt: skip
        cases = [
            self.case(
                "six groups of three, x near one: rule 1 prunes the far groups",
                X,
                np.array([5.2, 1.3]),
            )
        ]
        # At a leaf, rule 2 skips every sample that rule 1 would drop with the leaf
        # (D(x_i, M_p) <= r_p): only rule 1 at an internal node shows in the
        # evaluations.  With the group at (6, 0) spread wider, B = 0.5 from the first
        # leaf lets rule 1 prune the node above a leaf of two samples on either side
        # of its mean, which rule 2 alone would search (random cases seldom show it).
        wide = X.copy()
        wide[3:6] = [[6, 0], [4, 0], [6, 2]]
        cases.append(
            self.case(
                "the same groups, the one at (6, 0) spread wider, x beside it: rule 1 "
                "prunes a node whose samples rule 2 alone would not skip",
                wide,
                np.array([5.5, 2.0]),
            )
        )
        # Equal distances: x is √2 from X[0], X[11] and X[19], and the search meets
        # X[19] first; then x beside X[5] and its duplicate X[19].
        cases.append(
            self.case(
                "x at the same distance √2 from X[0], X[11] and X[19], X[19] met "
                "first: NN is the lowest index",
                np.array(
                    [
                        [1, 8],
                        [7, 4],
                        [0, 6],
                        [5, 4],
                        [6, 4],
                        [0, 2],
                        [7, 2],
                        [5, 6],
                        [2, 4],
                        [8, 6],
                        [4, 7],
                        [1, 6],
                        [4, 4],
                        [0, 6],
                        [5, 4],
                        [5, 0],
                        [6, 4],
                        [4, 5],
                        [6, 1],
                        [3, 8],
                        [0, 8],
                    ],
                    dtype=float,
                ),
                np.array([2.0, 7.0]),
            )
        )
        cases.append(
            self.case(
                "duplicated samples, x beside X[5] and its duplicate X[19]",
                np.array(
                    [
                        [4, 7],
                        [4, 3],
                        [0, 3],
                        [0, 2],
                        [0, 4],
                        [7, 2],
                        [3, 6],
                        [6, 8],
                        [4, 1],
                        [4, 2],
                        [7, 6],
                        [3, 6],
                        [0, 0],
                        [6, 0],
                        [0, 2],
                        [4, 5],
                        [3, 8],
                        [3, 1],
                        [6, 8],
                        [7, 2],
                        [8, 4],
                    ],
                    dtype=float,
                ),
                np.array([7.5, 2.5]),
            )
        )
        # each kind three times: rule 1's r_p and rule 2's sides matter only for some
        # queries, and every seed must show a search that ignores them
        kinds = ["uniform", "near", "duplicates", "far", "near", "near"] * 3
        for number, kind in enumerate(kinds, start=1):
            n = int(rng.integers(24, 40))
            X, _ = _blobs(rng, int(rng.integers(3, 5)), n // 4 + 1, spread=1.0)
            title = f"random case {number}: {len(X)} samples"
            query = rng.uniform(X.min(0), X.max(0))
            if kind == "near":  # the usual query: among the samples, B falls fast
                query = X[rng.integers(len(X))] + rng.normal(0, 0.3, X.shape[1])
                title += ", x among the samples"
            elif kind == "duplicates":  # equal distances to the nearest
                X[-3:] = X[:3]
                title += ", three duplicated samples"
                query = X[1] + rng.normal(0, 0.3, X.shape[1])
            elif kind == "far":  # a query far outside: little to prune
                query = X.max(0) + 4
                title += ", x far outside"
            cases.append(self.case(title, X, query))
        return cases

    def case(self, title, X, x=None):
        arrays = _tree_arrays(_bnb_tree(X))
        return Case(title, {"X": X, "x": x, **arrays})

    def reference(self, X, x, centers, radii, children, members, to_center):
        tree = _bnb_tree(X)
        arrays = _tree_arrays(tree)
        if not np.array_equal(arrays["centers"], centers):  # the cases ensure it
            raise ValueError("the tree handed to the student is not patrec's")
        steps = tree.explain(x, k=1)
        evaluations = steps.distance_evaluations
        evaluated = evaluations["sample"][evaluations["sample"] >= 0].astype(np.intp)
        return int(steps.indices[0]), float(steps.distances[0]), evaluated, steps

    def compare(self, args, expected, got):
        parts = unpack(got, ("nn", "B", "evaluated"))
        if isinstance(parts, Divergence):
            return parts
        nn, B, evaluated = parts
        ref_nn, ref_B, ref_evaluated, steps = expected
        evaluated = _indices(evaluated, "evaluated")
        if isinstance(evaluated, Divergence):
            return evaluated
        walk = _Walk(args, steps)
        answer = _answer(nn, B, len(walk.D))
        for t in range(max(len(evaluated), len(ref_evaluated))):
            r = int(ref_evaluated[t]) if t < len(ref_evaluated) else None
            s = int(evaluated[t]) if t < len(evaluated) else None
            if r != s:
                divergence = walk.diverged(t, ref_evaluated, evaluated, r, s, answer)
                if answer is not None:  # the answers too: B² shows there
                    divergence.message += "\n" + _said_answers(
                        answer, ref_nn, ref_B, walk.D
                    )
                return divergence
        if answer is None:
            return Divergence(
                "what your function returned",
                f"nn must be an int (a sample index) and B a number; yours are {nn!r} "
                f"and {B!r}.",
            )
        nn, B = answer
        D = walk.D
        if nn != ref_nn:
            hint = None
            if 0 <= nn < len(D) and D[nn] == D[ref_nn]:
                hint = (
                    "Equal distances: the rule keeps the lower index (update when "
                    "D(x, x_i) < B, or D(x, x_i) = B and i < NN)."
                )
            return Divergence(
                "the answer", _said_answers(answer, ref_nn, ref_B, D), hint
            )
        if not np.isclose(B, ref_B, rtol=1e-7, atol=1e-9):
            hint = None
            if np.isclose(B, ref_B**2, rtol=1e-7, atol=1e-9):
                hint = (
                    "Return B, the distance to the nearest neighbour, not its square."
                )
            return Divergence(
                "the answer", _said_answers(answer, ref_nn, ref_B, D), hint
            )
        return None


def _answer(nn, B, n_samples):
    """(nn, B) as an index and a number, or None when they are not."""
    try:
        B = float(B)
        whole = float(nn).is_integer()
    except (TypeError, ValueError, OverflowError):
        return None
    return (int(nn), B) if whole else None


def _said_answers(answer, ref_nn, ref_B, D):
    """The rule's NN and B beside the student's, with B² named when the student's
    B is the square of a distance the search met."""
    nn, B = answer
    text = (
        f"The rule's answer is NN = {ref_nn}, B = D(x, x_NN) = {fmt(ref_B)}; yours "
        f"is NN = {nn}, B = {fmt(B)}"
    )
    if 0 <= nn < len(D) and nn != ref_nn:
        text += f" (D(x, x_{nn}) = {fmt(D[nn])})"
    for name, value in [("D(x, x_NN)", ref_B)] + (
        [(f"D(x, x_{nn})", D[nn])] if 0 <= nn < len(D) and nn != ref_nn else []
    ):
        if value != 1 and np.isclose(B, value**2, rtol=1e-7, atol=1e-12):
            text += f": {fmt(B)} = {fmt(value)}² = {name}², a square, not a distance"
            break
    return text + "."


class _Walk:
    """What the rule's search did (from `BranchBoundTree.explain`), to explain a
    divergence in the course's notation."""

    def __init__(self, args, steps):
        self.X, self.x = args["X"], args["x"]
        self.centers, self.radii = args["centers"], args["radii"]
        self.children, self.members = args["children"], args["members"]
        self.to_center = args["to_center"]
        self.D = _distances(self.X, self.x)
        self.steps = steps
        self.parent = np.full(len(self.radii), -1)
        for p, kids in enumerate(self.children):
            self.parent[np.asarray(kids, dtype=np.intp)] = p
        self.leaf_of, self.position = {}, {}
        for p, samples in enumerate(self.members):
            for at, i in enumerate(samples):
                self.leaf_of[int(i)], self.position[int(i)] = p, at

    def path(self, node):
        """The nodes from below the root down to ``node``."""
        nodes = []
        while node > 0:
            nodes.append(node)
            node = int(self.parent[node])
        return nodes[::-1]

    def d_node(self, p):
        return float(np.sqrt(((self.centers[p] - self.x) ** 2).sum()))

    def sample(self, i):
        p = self.leaf_of[i]
        return float(self.to_center[p][self.position[i]])

    def diverged(self, t, ref_evaluated, evaluated, r, s, answer=None):
        done = ref_evaluated[:t]
        B = float(self.D[done].min()) if t else np.inf
        where = f"evaluation {t + 1} (B = {fmt(B)})"
        if s is not None and not 0 <= s < len(self.X):
            return Divergence(where, f"Your evaluated lists {s}, not a sample index.")
        hint = self.mistake(evaluated, answer)
        rule_all, yours_all = set(ref_evaluated.tolist()), set(evaluated.tolist())
        if r is None or (
            s is not None and r in yours_all and (s not in rule_all or s in done)
        ):
            return self.extra(where, t, ref_evaluated, r, s, B, hint)
        return self.missing(where, t, ref_evaluated, r, s, B, hint)

    def mistake(self, evaluated, answer=None):
        """The hint of the classic mistake whose search makes exactly the student's
        evaluations, all of them, and finds the same NN (and, keeping B squared,
        the same B), or None: a hint names a cause only when the student's search
        is that cause's."""
        yours = evaluated.tolist()
        hints = []
        for variant, hint in _MISTAKES.items():
            state = {}
            if _search(self, **dict(variant), state=state) != yours:
                continue
            updates = dict(variant).get("update", True)  # else NN is anyone's guess
            if updates and answer is not None and answer[0] != state["nn"]:
                continue
            squared = dict(variant).get("squared", False)
            if squared and (answer is None or not np.isclose(answer[1], state["B"])):
                continue
            hints.append(hint)
        if len(hints) > 1:  # the case cannot tell these mistakes apart
            return "Your evaluations are those of more than one mistake.  " + (
                "  Or: ".join(hints)
            )
        return hints[0] if hints else None

    def why_not(self, s, B):
        """Why the rule does not compute D(x, x_s): (text, kind) or None."""
        for row in self.steps.skipped:
            if int(row["sample"]) == s:
                d, b, c = row["distance"], row["bound"], row["to_center"]
                if row["far"]:
                    return (
                        f"the other side of rule 2 skips it: D(x_i, M_p) = {fmt(c)} > "
                        f"B + D(x, M_p) = {fmt(b)} + {fmt(d)} = {fmt(b + d)} (leaf node "
                        f"{int(row['node'])})",
                        "far",
                    )
                return (
                    f"rule 2 skips it: D(x, M_p) = {fmt(d)} > B + D(x_i, M_p) = "
                    f"{fmt(b)} + {fmt(c)} = {fmt(b + c)} (leaf node {int(row['node'])})",
                    "near",
                )
        pruned = {int(row["node"]): row for row in self.steps.pruned}
        for p in self.path(self.leaf_of[s]):
            if p in pruned:
                row = pruned[p]
                d, b, r = row["distance"], row["bound"], row["radius"]
                inside = "" if p == self.leaf_of[s] else f", above X[{s}]'s leaf"
                return (
                    f"rule 1 prunes node {p}{inside}: D(x, M_p) = {fmt(d)} > B + r_p = "
                    f"{fmt(b)} + {fmt(r)} = {fmt(b + r)}",
                    "rule 1",
                )
        return None

    def extra(self, where, t, ref_evaluated, r, s, B, hint):
        """The student computed D(x, x_s), which the rule does not compute here."""
        rule_next = (
            f"the rule computes D(x, x_{r}) next (X[{r}])"
            if r is not None
            else "the rule's search ends here"
        )
        if s in ref_evaluated[:t].tolist():
            text = f"the rule computed D(x, x_{s}) once already, at evaluation "
            text += f"{ref_evaluated[:t].tolist().index(s) + 1}"
            hint = hint or "Compute each D(x, x_i) once: each leaf is searched once."
        else:
            found = self.why_not(s, B)
            if found is None:  # the rule evaluates it later
                text, kind = f"the rule computes D(x, x_{s}) later", None
            else:
                text, kind = found
            if hint is not None:
                pass
            elif kind == "near":
                hint = (
                    "Apply rule 2 before computing D(x, x_i): skip x_i when D(x, M_p) > "
                    "B + D(x_i, M_p), with B as it is at that moment."
                )
            elif kind == "far":
                hint = (
                    "Rule 2 has two sides: D(x, x_i) >= |D(x, M_p) - D(x_i, M_p)|, so "
                    "x_i is skipped when D(x_i, M_p) > B + D(x, M_p) too."
                )
            elif kind == "rule 1":
                hint = (
                    "Apply rule 1 to each child when its turn comes, with the current "
                    "B: drop it when D(x, M_p) > B + r_p."
                )
        return Divergence(
            where,
            f"{rule_next}; your function computed D(x, x_{s}) = {fmt(self.D[s])} for "
            f"X[{s}], but {text}.",
            hint,
        )

    def missing(self, where, t, ref_evaluated, r, s, B, hint):
        """The rule computes D(x, x_r) here; the student did not (yet)."""
        leaf = self.leaf_of[r]
        d = self.d_node(leaf)
        c = self.sample(r)
        entered = {int(row["node"]): row for row in self.steps.entered}
        checks = []
        for p in self.path(leaf):
            b = float(entered[p]["bound"])
            dp = float(entered[p]["distance"])
            checks.append(
                f"node {p}: D(x, M_p) = {fmt(dp)} <= B + r_p = {fmt(b)} + "
                f"{fmt(self.radii[p])} = {fmt(b + self.radii[p])}"
            )
        keeps = (
            f"rule 1 kept its nodes when their turn came ({'; '.join(checks)}); and "
            f"now rule 2 keeps X[{r}]: "
            f"D(x, M_p) = {fmt(d)} <= B + D(x_i, M_p) = {fmt(B + c)} and "
            f"D(x_i, M_p) = {fmt(c)} <= B + D(x, M_p) = {fmt(B + d)}"
        )
        if s is None:
            yours = f"your function stopped after {t} evaluations"
        else:
            yours = f"your function computed D(x, x_{s}) for X[{s}] instead"
        later = s is not None and s in ref_evaluated[t:].tolist()
        if hint is None and later and self.leaf_of.get(s) == leaf:
            hint = (
                "Take a leaf's samples in the order given, increasing D(x_i, M_p) "
                "(members[p]), checking rule 2 for each."
            )
        elif hint is None and later:
            hint = self.order_hint(leaf, self.leaf_of[s])
        return Divergence(
            where,
            f"the rule computes D(x, x_{r}) = {fmt(self.D[r])} for X[{r}] in leaf "
            f"node {leaf}: {keeps};\n{yours}.",
            hint,
        )

    def order_hint(self, a, b):
        """The hint when leaf ``b`` was searched before leaf ``a``."""
        pa, pb = self.path(a), self.path(b)
        for u, v in zip(pa, pb):
            if u != v:
                return (
                    "Visit the children nearest first: node "
                    f"{u} (D(x, M_p) = {fmt(self.d_node(u))}) comes before node {v} "
                    f"(D(x, M_p) = {fmt(self.d_node(v))}), siblings under node "
                    f"{int(self.parent[u])}."
                )
        return "Visit the children nearest first, in increasing D(x, M_p)."


def _search(
    walk,
    rule1="course",
    rule2="both",
    nearest_first=True,
    update=True,
    squared=False,
    stale=False,
    state=None,
):
    """The evaluations of a search with one of the classic mistakes, on the tree
    of ``walk``: only to recognise a student's mistake (the reference is
    `BranchBoundTree.explain`).  ``squared``: B kept as D(x, x_i)²; ``stale``:
    rule 1 judges all the children of a node at once, with B as it is when the
    node is expanded.  ``state`` receives the search's NN and B."""
    evaluated = []
    state = {} if state is None else state
    state.update(B=np.inf, nn=-1)

    def prunes(p):
        d, B = walk.d_node(p), state["B"]
        return {
            "course": d > B + walk.radii[p],
            "no r_p": d > B,
            "none": False,
        }[rule1]

    def skips(d, c):
        B = state["B"]
        near, far = d > B + c, c > B + d
        return {
            "both": near or far,
            "course": near,
            "far": far,
            "sum": d + c > B,
        }[rule2]

    def visit(node):
        kids = np.asarray(walk.children[node], dtype=np.intp)
        if len(kids) == 0:
            d = walk.d_node(node)
            for i, c in zip(walk.members[node], walk.to_center[node]):
                if skips(d, c):
                    continue
                evaluated.append(int(i))
                D = walk.D[i] ** 2 if squared else walk.D[i]
                if D < state["B"] or (D == state["B"] and i < state["nn"]):
                    state["nn"] = int(i)
                    if update:
                        state["B"] = D
            return
        if nearest_first:
            kids = kids[np.argsort([walk.d_node(p) for p in kids], kind="stable")]
        if stale:
            kids = [p for p in kids if not prunes(int(p))]
        for p in kids:
            if stale or not prunes(int(p)):
                visit(int(p))

    visit(0)
    return evaluated


# The classic mistakes of the search, and what the report says of each.
_MISTAKES = {
    (("rule1", "no r_p"),): (
        "Rule 1 is D(x, M_p) > B + r_p: a node whose mean is farther than B may still "
        "hold a sample nearer than B (up to r_p from M_p); you seem to prune when "
        "D(x, M_p) > B, without r_p."
    ),
    (("rule1", "none"),): (
        "You do not apply rule 1: drop a child when D(x, M_p) > B + r_p, with B as it "
        "is when its turn comes.  At a leaf, rule 2 skips every sample that rule 1 "
        "would drop with the leaf; but only rule 1 prunes a node above the leaves, "
        "since rule 2 judges each sample by the mean of its own leaf."
    ),
    (("rule2", "sum"),): (
        "Rule 2 with the wrong side of the triangle inequality: x_i is skipped when "
        "D(x, M_p) > B + D(x_i, M_p) (or D(x_i, M_p) > B + D(x, M_p)), not when "
        "D(x, M_p) > B - D(x_i, M_p), which skips samples that may be nearer than B."
    ),
    (("rule2", "far"),): (
        "Rule 2 with only the other side of the triangle inequality: skip x_i when "
        "D(x, M_p) > B + D(x_i, M_p) (the course's rule 2) as well as when "
        "D(x_i, M_p) > B + D(x, M_p)."
    ),
    (("rule2", "course"),): (
        "Rule 2 has two sides: D(x, x_i) >= |D(x, M_p) - D(x_i, M_p)|, so x_i is "
        "skipped when D(x_i, M_p) > B + D(x, M_p) too (the course's step 6° writes "
        "only the first; this search uses both)."
    ),
    (("nearest_first", False),): (
        "Visit the children nearest first, in increasing D(x, M_p), not in the order "
        "they are listed: the nearest node most likely holds the nearest neighbour, "
        "and the B it gives prunes the others."
    ),
    (("update", False),): (
        "You do not update B: whenever D(x, x_i) < B, set NN = i and B = D(x, x_i); "
        "with B = ∞ the rules prune nothing."
    ),
    (("squared", True),): (
        "Your search keeps B as the square D(x, x_i)²: rules 1 and 2 add B to "
        "distances (B + r_p, B + D(x_i, M_p)), so B must be a distance too; a "
        "squared B below 1 prunes nodes that may hold the nearest neighbour, above "
        "1 it prunes too little."
    ),
    (("stale", True),): (
        "Rule 1 judges each child when its turn comes, with B as it is then: you "
        "judged all the children of a node at once, with the B of the moment the "
        "node was expanded, so a B lowered in an earlier child prunes nothing."
    ),
}


# -- 3. Wilson editing ---------------------------------------------------------------


class WilsonEditingExercise(Exercise):
    name = "wilson_editing"
    title = "Wilson editing with the k-NN rule"
    chapter = "neighbors"
    signature = "X, labels, k=3"
    doc = """
    Edit the training set by Wilson's rule: remove the samples that the k-NN rule
    of the other samples misclassifies.

    Each sample x_j is classified by its k nearest OTHER samples (leave-one-out:
    x_j is not its own neighbour; a duplicate of it at distance 0 is a neighbour),
    with the k-NN rule of the course: euclidean distance, equal distances taken
    by the lower index, and on equal votes the class with the lowest index.  All
    the decisions are made on the original set; then every misclassified sample
    (whose vote differs from θ_j) is removed, all at once.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The samples x_j, one per row.
    labels : ndarray of int of shape (n_samples,)
        θ_j, the class of each sample: 0 for ω₁ up to c - 1.
    k : int
        The number of neighbours.

    Returns
    -------
    kept : ndarray of int
        The indices j of the samples kept, in increasing order.
    """

    def cases(self, rng):
        X = np.array(
            [[0.0], [1.0], [2.0], [2.1], [3.0], [5.0], [5.5], [7.0], [8.0], [9.0]]
        )
        labels = np.array([0, 0, 0, 1, 0, 1, 0, 1, 1, 1])
        cases = [
            Case(
                "two classes on a line, a sample of ω₂ among ω₁ and two on the border",
                {"X": X, "labels": labels, "k": 3},
            ),
            Case(
                "duplicated samples of different classes (X[2], X[4] and X[7]; X[5] "
                "and X[8]), ω₃ first in the data, equal votes with k = 2",
                {
                    "X": np.array(
                        [
                            [3, 2],
                            [2, 0],
                            [2, 2],
                            [0, 3],
                            [2, 2],
                            [3, 1],
                            [3, 3],
                            [2, 2],
                            [3, 1],
                        ],
                        dtype=float,
                    ),  # fmt: skip
                    "labels": np.array([2, 1, 2, 2, 1, 0, 2, 1, 1]),
                    "k": 2,
                },
            ),
        ]
        for number, (k, n_classes, grid) in enumerate(
            [(3, 2, False), (3, 3, True), (1, 2, False), (4, 2, True), (5, 3, False)],
            start=1,
        ):
            X, labels = _blobs(rng, n_classes, int(rng.integers(5, 9)), grid=grid)
            ties = ", equal distances" if grid else ""
            cases.append(
                Case(
                    f"random case {number}: {len(X)} samples, {n_classes} overlapping "
                    f"classes, k = {k}{ties}",
                    {"X": X, "labels": labels, "k": k},
                )
            )
        return cases

    def reference(self, X, labels, k):
        kept, history = edit(X, labels, n_neighbors=k, return_history=True)
        return kept, history

    def compare(self, args, expected, got):
        X, labels, k = args["X"], args["labels"], args["k"]
        kept = _indices(got, "kept")
        if isinstance(kept, Divergence):
            return kept
        ref_kept, history = expected
        values, counts = np.unique(kept, return_counts=True)
        if np.any(counts > 1):
            return Divergence(
                "what your function returned",
                f"Your kept lists X[{int(values[counts > 1][0])}] more than once: each "
                "kept sample appears once.",
            )
        if len(kept) > 1 and np.any(np.diff(kept) <= 0):
            if set(kept.tolist()) == set(ref_kept.tolist()):
                return Divergence(
                    "what your function returned",
                    f"Your kept holds the right samples but not in increasing order: "
                    f"{fmt(kept)}.",
                    "Return np.sort(kept).",
                )
        yours, rule = set(kept.tolist()), set(ref_kept.tolist())
        if yours == rule:
            return None
        differing = sorted(yours ^ rule)
        j = differing[0]
        if not 0 <= j < len(X):
            return Divergence(
                "what your function returned", f"kept holds {j}, not a sample index."
            )
        _, neighbours = _nearest_others(X, labels, k)
        counts, winner = _votes(labels[neighbours[j]])
        removes = j not in rule
        said = (
            f"its {k} nearest other samples {_listing(neighbours[j])} vote "
            f"{_said_votes(counts)} → {omega(winner)}: "
            + ("misclassified, the rule removes it" if removes else "correct, it stays")
        )
        yours_text = "you kept it" if removes else "you removed it"
        hint = self.variant_hint(X, labels, k, yours, j) or self.hint(removes)
        return Divergence(
            f"sample X[{j}] of class {omega(labels[j])}",
            f"{said}; {yours_text}.",
            hint,
        )

    @staticmethod
    def variant_hint(X, labels, k, yours, j):
        """The hint of the classic mistake whose kept set is exactly the student's,
        or None: a hint names a cause only when the student's output is that
        cause's."""
        D = pairwise_distances(X, X)
        order = np.argsort(D, axis=1, kind="stable")  # equal distances: lower index
        duplicates = [i for i in np.flatnonzero(D[j] == 0) if i != j]

        def kept(neighbours, vote=None):
            """The samples a variant keeps, deciding all on the original set."""
            out = set()
            for i in range(len(X)):
                counts, winner = _votes(labels[neighbours(i)])
                if vote is not None:
                    winner = vote(counts, labels[i])
                if winner == labels[i]:
                    out.add(i)
            return out

        def others(i):
            return [m for m in order[i] if m != i][:k]

        mine = others(j)
        hints = []
        if yours == kept(lambda i: order[i][:k]):
            hints.append(
                f"The sample counted as its own neighbour: X[{j}] is at distance 0 "
                f"from itself, so its k nearest include it "
                f"({_listing(order[j][:k])}).  Leave it out: classify x_j by its k "
                "nearest OTHER samples."
            )
        if yours == kept(lambda i: order[i][1 : k + 1]):
            hints.append(
                "You left each sample out by dropping the first column of the sorted "
                "distances: where a duplicate of x_j with a lower index sorts first, "
                "that duplicate is dropped and x_j itself votes"
                + (
                    f" (X[{duplicates[0]}] and X[{j}] are at the same place)"
                    if duplicates
                    else ""
                )
                + ".  Leave out x_j by its index (d[j] = np.inf), not by its place "
                "in the sort."
            )
        if duplicates and yours == kept(
            lambda i: [m for m in order[i] if D[i, m] > 0][:k]
        ):
            hints.append(
                f"You left out every sample at distance 0 from x_j: X[{duplicates[0]}], "
                f"a duplicate of X[{j}], is another sample and votes (it is among "
                f"{_listing(mine)}).  Leave out x_j alone, by its index."
            )
        if yours == kept(
            others,
            vote=lambda counts, theta: (
                theta if theta < len(counts) and counts[theta] == counts.max() else -1
            ),
        ):
            hints.append(
                "You kept a sample whose class is among the most voted: on equal "
                "votes the k-NN rule decides for the class with the lowest index "
                "(np.argmax of the counts), and the sample is misclassified when "
                "that is not its class."
            )
        if yours == kept(
            others,
            vote=lambda counts, theta: len(counts) - 1 - int(np.argmax(counts[::-1])),
        ):
            hints.append(
                "On equal votes you decided for the class with the highest index; "
                "the k-NN rule decides for the lowest (np.argmax of the counts "
                "returns the first maximum)."
            )
        alive = np.ones(len(X), dtype=bool)
        for i in range(len(X)):
            rest = np.flatnonzero(alive)
            rest = rest[rest != i]
            if len(rest) == 0:
                break
            found = rest[
                BruteForce(X[rest]).query(
                    X[i : i + 1], min(k, len(rest)), return_distance=False
                )[0]
            ]
            alive[i] = _votes(labels[found])[1] == labels[i]
        else:
            if yours == set(np.flatnonzero(alive).tolist()):
                gone = [i for i in range(j) if not alive[i]]
                hints.append(
                    f"You removed samples one by one: {_listing(gone)}, removed before "
                    f"X[{j}] was judged, no longer voted for it.  Make every decision "
                    "on the original set, then remove all the misclassified samples "
                    "at once."
                )
        if len(hints) > 1:  # the case cannot tell these mistakes apart
            return "Your kept set is that of more than one mistake.  " + (
                "  Or: ".join(hints)
            )
        return hints[0] if hints else None

    @staticmethod
    def hint(removes):
        """What the rule does with the sample, when no mistake explains the whole
        kept set."""
        if not removes:
            return "Remove only the samples whose vote differs from their class θ_j."
        return None


# -- 4. multi-edit ------------------------------------------------------------------


class MultieditExercise(Exercise):
    name = "multiedit"
    title = "Multi-edit (Devijver and Kittler), with given random splits"
    chapter = "neighbors"
    signature = "X, labels, n_splits=3, seed=0, max_iter=100"
    doc = """
    Edit the training set by multi-edit: 1-NN judgements across random splits,
    round after round.

    Draw the splits exactly so (then your run is the rule's, split for split):
    rng = np.random.default_rng(seed) once, before the first round; each round,
    with remaining the sorted indices of the samples still kept,
    subsets = np.array_split(rng.permutation(remaining), n_splits).

    In a round, every sample of subset i is classified by the 1-NN rule
    (euclidean) trained on subset (i + 1) mod n_splits (the next one; the last is
    judged by the first): its nearest sample there, on equal distances the one
    that comes first in that subset.  A sample whose nearest sample has another
    class is discarded; the discards take effect after the round (every judging
    subset is whole).  Rounds repeat until a round discards nothing, or max_iter
    rounds have run, or fewer than n_splits samples remain.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The samples x_j, one per row.
    labels : ndarray of int of shape (n_samples,)
        θ_j, the class of each sample: 0 for ω₁ up to c - 1.
    n_splits : int
        The number s of subsets per round.
    seed : int
        Seeds the splits, as above.
    max_iter : int
        The most rounds.

    Returns
    -------
    kept : ndarray of int
        The indices j of the samples kept, in increasing order.
    discarded : list of ndarray of int
        One entry per round run: the indices discarded in that round (any order;
        the last entry is empty when a round discarding nothing ended the editing).
    """

    def cases(self, rng):
        X = np.r_[np.arange(10.0), np.arange(8.0, 18.0)].reshape(-1, 1)
        labels = np.repeat([0, 1], 10)
        labels[[2, 15]] = [1, 0]
        cases = [
            Case(
                "two classes on a line that overlap, one mislabelled sample in each",
                {"X": X, "labels": labels, "n_splits": 2, "seed": 2, "max_iter": 100},
            )
        ]
        # unbalanced classes (seven samples of ω₁, one of ω₃), duplicated samples
        X = np.array(
            [
                [3, 0],
                [0, 3],
                [1, 3],
                [2, 3],
                [2, 1],
                [3, 1],
                [3, 3],
                [3, 2],
                [2, 2],
                [1, 0],
            ],
            dtype=float,
        )
        labels = np.array([0, 0, 0, 2, 0, 1, 0, 1, 0, 0])
        for max_iter, title in [
            (100, "three unbalanced classes on a grid, equal distances, s = 3 subsets"),
            (2, "the same samples with max_iter = 2: the rule stops after round 2"),
        ]:
            cases.append(
                Case(
                    title,
                    {
                        "X": X,
                        "labels": labels,
                        "n_splits": 3,
                        "seed": 43,
                        "max_iter": max_iter,
                    },
                )
            )
        for number, (n_splits, n_classes, grid) in enumerate(
            [(3, 2, False), (2, 3, True), (3, 3, False), (4, 2, True)], start=1
        ):
            X, labels = _blobs(rng, n_classes, int(rng.integers(8, 13)), grid=grid)
            ties = ", equal distances" if grid else ""
            cases.append(
                Case(
                    f"random case {number}: {len(X)} samples, {n_classes} overlapping "
                    f"classes, s = {n_splits} subsets{ties}",
                    {
                        "X": X,
                        "labels": labels,
                        "n_splits": n_splits,
                        "seed": int(rng.integers(0, 1000)),
                        "max_iter": 100,
                    },
                )
            )
        return cases

    def reference(self, X, labels, n_splits, seed, max_iter):
        return multiedit(
            X,
            labels,
            n_splits=n_splits,
            max_iter=max_iter,
            random_state=seed,
            return_history=True,
        )

    def compare(self, args, expected, got):
        X, labels, s = args["X"], args["labels"], args["n_splits"]
        ref_kept, history = expected
        parts = unpack(got, ("kept", "discarded"))
        if isinstance(parts, Divergence):
            return parts
        kept, discarded = parts
        if not isinstance(discarded, (list, tuple)):
            return Divergence(
                "what your function returned",
                "discarded must be a list with one entry per round: the samples "
                f"discarded in it (the rule runs {history.n_rounds} rounds here).",
            )
        rounds = []
        for number, entry in enumerate(discarded):
            entry = _indices(entry, f"discarded[{number}]")
            if isinstance(entry, Divergence):
                return entry
            rounds.append(set(entry.tolist()))
        for r, record in enumerate(history.rounds):
            if r == len(rounds):
                return self.stopped(r, history)
            rule = set(np.concatenate(record.discarded).tolist())
            if rounds[r] != rule:
                mistake = _multiedit_mistake(args, rounds)
                return self.wrong_round(
                    r, record, rule, rounds[r], X, labels, s, mistake
                )
        if len(rounds) > history.n_rounds:
            last = history.rounds[-1]
            n_last = len(np.concatenate(last.discarded))
            why = (
                "it discarded nothing"
                if n_last == 0
                else "max_iter rounds ran, or fewer than n_splits samples remain"
            )
            return Divergence(
                f"the end of round {history.n_rounds}",
                f"The rule stops after round {history.n_rounds}: {why}; your function "
                f"went on to {len(rounds)} rounds.",
                "Stop after the first round that discards nothing (or after max_iter "
                "rounds).",
            )
        kept = _indices(kept, "kept")
        if isinstance(kept, Divergence):
            return kept
        if not np.array_equal(kept, ref_kept):
            return Divergence(
                "the samples kept",
                f"Your rounds are the rule's, which keeps {_listing(ref_kept)}; your "
                f"kept is {_listing(kept)}.",
                "Return the sorted indices of the samples never discarded.",
            )
        return None

    def stopped(self, r, history):
        before = len(np.concatenate(history.rounds[r - 1].discarded)) if r else 0
        return Divergence(
            f"the end of round {r}",
            f"Round {r} discarded {before} samples, so the rule runs round {r + 1} "
            f"(it runs {history.n_rounds} rounds here, the last discarding nothing); "
            f"your function stopped after round {r}.",
            "Repeat the rounds until a round discards nothing (or max_iter rounds "
            "ran): one round is not enough, the next split judges what is left "
            "anew.",
        )

    def wrong_round(self, r, record, rule, yours, X, labels, s, mistake):
        subsets = record.subsets
        for i, judged in enumerate(subsets):
            judge = subsets[(i + 1) % s]
            for j in judged.tolist():
                if (j in rule) == (j in yours):
                    continue
                m, dm = _nearest_in(X, j, judge)
                discards = j in rule
                verdict = (
                    f"class {omega(labels[m])} ≠ {omega(labels[j])}: misclassified, "
                    "the rule discards it; you kept it"
                    if discards
                    else f"class {omega(labels[m])} too: correct, it stays; you "
                    "discarded it"
                )
                split = "; ".join(
                    f"subset {n + 1}: {_listing(sub)}" for n, sub in enumerate(subsets)
                )
                message = (
                    f"Round {r + 1} splits the remaining samples into {split}.\n"
                    f"X[{j}] of class {omega(labels[j])} is in subset {i + 1}, judged "
                    f"by subset {(i + 1) % s + 1}: its nearest sample there is X[{m}] "
                    f"at distance {fmt(dm)}, of {verdict}.\n"
                    f"In round {r + 1} the rule discards {_listing(sorted(rule))}; "
                    f"you discarded {_listing(sorted(yours))}."
                )
                return Divergence(
                    f"round {r + 1}, sample X[{j}] of class {omega(labels[j])}",
                    message,
                    mistake,
                )
        j = min(yours - set(np.concatenate(subsets).tolist()))
        if not 0 <= j < len(X):
            return Divergence(
                f"round {r + 1}",
                f"You discarded {j} in round {r + 1}, which is not a sample: the "
                f"indices run from 0 to {len(X) - 1}.",
            )
        return Divergence(
            f"round {r + 1}",
            f"You discarded X[{j}] in round {r + 1}, but it was no longer there: "
            "an earlier round discarded it.",
            "Each round splits only the samples still kept.",
        )


def _multiedit_run(X, labels, n_splits, seed, max_iter, judge="next", fresh=False,
                   at_once=True, ties="first"):  # fmt: skip
    """The discards, round by round, of multi-edit run with one of the classic
    mistakes: only to recognise a student's mistake (the reference is
    `multiedit`).  ``judge``: the subset that judges subset i ("next", "itself"
    leaving the sample out, "previous", or all the "others"); ``fresh``: a new
    generator each round; ``at_once=False``: a discard leaves the judging subsets
    at once; ``ties="last"``: the last of equal distances."""
    D = pairwise_distances(X, X)
    rng = np.random.default_rng(seed)
    remaining = np.arange(len(X))
    rounds = []
    while len(rounds) < max_iter and len(remaining) >= n_splits:
        if fresh:
            rng = np.random.default_rng(seed)
        subsets = np.array_split(rng.permutation(remaining), n_splits)
        gone = set()
        for i, judged in enumerate(subsets):
            by = {
                "next": subsets[(i + 1) % n_splits],
                "previous": subsets[(i - 1) % n_splits],
                "itself": judged,
                "others": np.concatenate(
                    [sub for n, sub in enumerate(subsets) if n != i]
                ),
            }[judge]
            for j in judged.tolist():
                among = [
                    m for m in by.tolist() if m != j and (at_once or m not in gone)
                ]
                if not among:
                    continue
                d = D[j, among]
                if ties == "first":
                    m = among[int(np.argmin(d))]
                else:
                    m = among[len(d) - 1 - int(np.argmin(d[::-1]))]
                if labels[m] != labels[j]:
                    gone.add(j)
        rounds.append(gone)
        if not gone:
            break
        remaining = np.setdiff1d(remaining, sorted(gone))
    return rounds


# The classic mistakes of multi-edit, and what the report says of each.
_MULTIEDIT_MISTAKES = {
    (("judge", "itself"),): (
        "You classified each subset with itself (leave-one-out): subset i is judged "
        "by the 1-NN rule of the NEXT subset, (i + 1) mod s, so that no sample is "
        "judged by a classifier trained with its own subset."
    ),
    (("judge", "previous"),): (
        "You judged subset i by the previous subset; the rule uses the next one, "
        "(i + 1) mod s."
    ),
    (("judge", "others"),): (
        "You judged subset i by all the other subsets together; the rule uses the "
        "next one alone, (i + 1) mod s."
    ),
    (("fresh", True),): (
        "You created the generator anew each round, so every round draws the same "
        "permutation: create rng = np.random.default_rng(seed) once, before the "
        "first round."
    ),
    (("at_once", False),): (
        "A sample you discarded stopped judging the others within the same round; "
        "the discards take effect after the round, every judging subset whole."
    ),
    (("ties", "last"),): (
        "Of samples at equal distance in the judging subset you took the last; the "
        "rule takes the one that comes first in that subset (np.argmin returns the "
        "first minimum)."
    ),
}


def _multiedit_mistake(args, rounds):
    """The hint of the classic mistake whose rounds are exactly the student's, or
    None."""
    hints = [
        hint
        for variant, hint in _MULTIEDIT_MISTAKES.items()
        if _multiedit_run(**args, **dict(variant)) == rounds
    ]
    if len(hints) > 1:  # the case cannot tell these mistakes apart
        return "Your rounds are those of more than one mistake.  " + "  Or: ".join(
            hints
        )
    return hints[0] if hints else None


def _nearest_in(X, j, among):
    """The nearest sample to X[j] among ``among`` (first on a tie), by patrec's 1-NN
    search, and its distance."""
    among = np.asarray(among, dtype=np.intp)
    distance, found = BruteForce(X[among]).query(X[j : j + 1], k=1)
    return int(among[found[0, 0]]), float(distance[0, 0])


# -- 5. Hart's condensing -----------------------------------------------------------


class HartCondensingExercise(Exercise):
    name = "hart_condensing"
    title = "Hart's condensed nearest neighbour (CNN)"
    chapter = "neighbors"
    signature = "X, labels"
    doc = """
    Condense the training set by Hart's rule: keep a store X_S on which the 1-NN
    rule classifies every training sample correctly.

    The store X_S starts with the first sample, X[0]; all the others are in X_G.
    A pass visits the samples of X_G in the order of their index; a sample whose
    nearest sample in the store (euclidean; on equal distances, the one stored
    first) has another class is misclassified and moves into the store at once,
    so that the samples visited after it see it.  Passes repeat until a pass moves
    nothing.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The samples x_j, one per row.
    labels : ndarray of int of shape (n_samples,)
        θ_j, the class of each sample: 0 for ω₁ up to c - 1.

    Returns
    -------
    store : list of int
        The indices of the stored samples, in the order they entered the store
        (0 first).
    """

    def cases(self, rng):
        X = np.array(
            [[0.0], [9.0], [1.0], [8.0], [4.0], [5.0], [3.0], [6.0], [2.0], [7.0]]
        )
        labels = np.array([0, 1, 0, 1, 0, 1, 1, 0, 0, 1])
        cases = [
            Case(
                "two classes on a line that interleave: more than one pass",
                {"X": X, "labels": labels},
            ),
            Case(
                "three classes on a grid, ω₂ first in the data, duplicated samples "
                "and equal distances to the store",
                {
                    "X": np.array(
                        [
                            [3, 3],
                            [1, 1],
                            [2, 0],
                            [1, 1],
                            [3, 0],
                            [0, 0],
                            [2, 0],
                            [3, 1],
                        ],
                        dtype=float,
                    ),
                    "labels": np.array([1, 1, 1, 2, 0, 2, 1, 1]),
                },
            ),
        ]
        for number, (n_classes, grid) in enumerate(
            [(2, False), (3, True), (2, True), (3, False)], start=1
        ):
            X, labels = _blobs(rng, n_classes, int(rng.integers(6, 10)), grid=grid)
            ties = ", equal distances" if grid else ""
            cases.append(
                Case(
                    f"random case {number}: {len(X)} samples, {n_classes} overlapping "
                    f"classes{ties}",
                    {"X": X, "labels": labels},
                )
            )
        return cases

    def reference(self, X, labels):
        _, history = condense(X, labels, return_history=True)
        return history

    def compare(self, args, expected, got):
        X, labels = args["X"], args["labels"]
        store = _indices(got, "store")
        if isinstance(store, Divergence):
            return store
        history = expected
        stored = history.stored
        mistake = _hart_mistake(X, labels, store)
        if np.array_equal(np.sort(store), np.sort(stored)) and not np.array_equal(
            store, stored
        ):
            return self.reordered(stored, store, mistake)
        # the pass in which each stored sample entered (0: the first sample)
        passes = np.concatenate(
            [np.zeros(len(history.seeds), dtype=int)]
            + [np.full(len(p), n + 1) for n, p in enumerate(history.passes)]
        )
        for t in range(max(len(store), len(stored))):
            r = int(stored[t]) if t < len(stored) else None
            s = int(store[t]) if t < len(store) else None
            if r != s:
                return self.diverged(X, labels, stored, passes, t, r, s, mistake)
        return None

    @staticmethod
    def reordered(stored, store, mistake):
        """The right samples in the store, listed in another order than they
        entered it."""
        how = " (sorted by index)" if np.all(np.diff(store) > 0) else ""
        return Divergence(
            "the order of the store",
            f"Your store holds exactly the rule's samples, but not in the order they "
            f"entered it: the rule stores {_listing(stored)}, in that order; yours "
            f"lists {_listing(store)}{how}.",
            mistake
            or (
                "Return the store in the order the samples entered it, X[0] first: "
                "append each moved sample at the end, and do not sort the store."
                if how
                else None
            ),
        )

    def diverged(self, X, labels, stored, passes, t, r, s, mistake):
        if t == 0:
            return Divergence(
                "the start",
                f"The store starts with the first sample, X[0]; yours starts with "
                f"{'nothing' if s is None else f'X[{s}]'}.",
                mistake or "Put X[0] into the store before the first pass.",
            )
        if s is not None and not 0 <= s < len(X):
            return Divergence("the store", f"Your store holds {s}, not a sample index.")
        store = stored[:t]
        last, p_last = int(stored[t - 1]), int(passes[t - 1])
        n_passes = int(passes.max()) + 1  # the last pass moves nothing

        def visit(j):  # (pass, index) of the rule's next visit of j after `last`
            if p_last == 0:
                return (1, j)
            return (p_last, j) if j > last else (p_last + 1, j)

        if s is not None and s in set(store.tolist()):
            return Divergence(
                f"store position {t + 1}",
                f"X[{s}] is in the store already (position "
                f"{store.tolist().index(s) + 1}); your store lists it again.",
                mistake or "A pass visits only the samples not yet stored (X_G).",
            )
        if s is not None and (r is None or visit(s) < (int(passes[t]), r)):
            p, _ = visit(s)
            m, dm = _nearest_in(X, s, store)
            where = f"pass {p}, sample X[{s}] of class {omega(labels[s])}"
            message = (
                f"its nearest stored sample is X[{m}] at distance {fmt(dm)}, of class "
                f"{omega(labels[m])} too: correctly classified, it stays in X_G; you "
                f"moved it into the store (the store then: {_listing(store)})."
            )
            return Divergence(where, message, mistake)
        p = int(passes[t])
        m, dm = _nearest_in(X, r, store)
        where = f"pass {p}, sample X[{r}] of class {omega(labels[r])}"
        yours = (
            f"you stored X[{s}] next"
            if s is not None
            else "your function stopped, with the store " + _listing(store)
        )
        message = (
            f"its nearest stored sample is X[{m}] at distance {fmt(dm)}, of class "
            f"{omega(labels[m])}: misclassified, it moves into the store; {yours}."
        )
        hint = mistake
        if hint is None and s is None and p > p_last:
            hint = (
                f"Condensing goes on until a pass moves nothing: pass {p_last} still "
                f"moved samples, so the rule runs pass {p} (and {n_passes} passes "
                "in all, the last moving nothing).  One pass is not enough: a sample "
                "visited early may be misclassified by the store that grew after it."
            )
        return Divergence(where, message, hint)


def _condense(X, labels, passes=None, pool="store", ties="first stored",
              at_once=True, start="X[0]", inverted=False):  # fmt: skip
    """The store of Hart's rule run with one of the classic mistakes: only to
    recognise a student's mistake (the reference is `condense`)."""
    if start == "X[0]":
        store = [0]
    else:  # the first sample of each class
        store = sorted(int(np.flatnonzero(labels == c)[0]) for c in np.unique(labels))
    D = pairwise_distances(X, X)
    done = 0
    while passes is None or done < passes:
        moved = []
        for j in range(len(X)):
            if j in store:
                continue
            among = np.array(
                store if pool == "store" else np.delete(np.arange(len(X)), j)
            )
            d = D[j, among]
            if ties == "first stored":
                m = among[np.argmin(d)]
            elif ties == "lowest index":
                m = among[np.lexsort((among, d))[0]]
            else:  # the last stored
                m = among[len(d) - 1 - int(np.argmin(d[::-1]))]
            if (labels[m] != labels[j]) != inverted:
                moved.append(j)
                if at_once:
                    store.append(j)
        if not at_once:
            store.extend(moved)
        done += 1
        if not moved:
            break
    return store


# The classic mistakes of condensing, and what the report says of each.
_HART_MISTAKES = {
    (("pool", "whole"),): (
        "You judged each sample by its nearest sample in the whole training set "
        "instead of the store X_S: a sample is judged by the 1-NN rule of the "
        "stored samples only."
    ),
    (("inverted", True),): (
        "Your test is inverted: you stored the correctly classified samples; the "
        "rule stores a sample whose nearest stored sample has another class."
    ),
    (("ties", "lowest index"),): (
        "Of stored samples at equal distance you took the one with the lowest "
        "index; the rule takes the one stored first (np.argmin over the store, "
        "kept in the order the samples entered it)."
    ),
    (("ties", "last stored"),): (
        "Of stored samples at equal distance you took the one stored last; the rule "
        "takes the one stored first (np.argmin returns the first minimum, a test "
        "d <= best takes the last)."
    ),
    (("at_once", False),): (
        "You moved the misclassified samples into the store at the end of the pass; "
        "the rule moves each at once, so that the samples visited after it are "
        "judged with it in the store."
    ),
    (("start", "one per class"),): (
        "You started the store with one sample of each class; the rule starts with "
        "X[0] alone, and the others enter when they are misclassified."
    ),
}


def _hart_mistake(X, labels, store):
    """The hint of the classic mistake whose store is exactly the student's, or
    None."""
    yours = store.tolist()
    hints = [
        hint
        for variant, hint in _HART_MISTAKES.items()
        if _condense(X, labels, **dict(variant)) == yours
    ]
    if len(hints) > 1:  # the case cannot tell these mistakes apart
        return "Your store is that of more than one mistake.  " + "  Or: ".join(hints)
    return hints[0] if hints else None

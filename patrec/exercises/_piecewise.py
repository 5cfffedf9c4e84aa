"""Exercises of the piecewise chapter: the minimum-distance classifier.

The student's function gets the subclass means m_i^l (the prototypes) and returns the
discriminants g_i(x) = min_l ||x - m_i^l|| and the decisions argmin_i g_i(x).  The
report checks the discriminants first, entry by entry, then the decisions, and
recognises squared distances, a minimum over every prototype instead of those of the
class, and argmax in place of argmin.
"""

import numpy as np

from ..piecewise import MinimumDistanceClassifier
from ._checking import Case, Divergence, Exercise
from ._notation import as_array, close, fmt, omega, sub, unpack

# Two subclass means for ω₁, one for ω₂, two for ω₃; the last query lies exactly
# halfway between m₁¹ and m₂¹, a tie that goes to the lower class index, ω₁.
_EXAMPLE_PROTOTYPES = np.array([[0, 0], [6, 6], [4, 0], [0, 4], [8, 2]], dtype=float)
_EXAMPLE_LABELS = np.array([0, 0, 1, 2, 2])
_EXAMPLE_X = np.array([[1, 1], [5, 1], [6, 4], [1, 5], [2, 0]], dtype=float)


class MinimumDistanceExercise(Exercise):
    name = "minimum_distance"
    title = "The minimum-distance classifier over subclass means"
    chapter = "piecewise"
    signature = "prototypes, prototype_labels, X, n_classes"
    doc = """
    Classify by the distance to the nearest subclass mean, as the course's rule.

    Class ω_i has L_i subclasses with means m_i^1, ..., m_i^{L_i} (the prototypes).
    Its discriminant is the Euclidean distance to the nearest of its own means,

        g_i(x) = min_{l = 1..L_i} ||x - m_i^l||,

    (the distance itself, not its square), and x goes to the class with the
    smallest discriminant, class(x) = argmin_i g_i(x); on an exact tie, the lowest
    class index wins (as np.argmin and patrec's MinimumDistanceClassifier do).

    Parameters
    ----------
    prototypes : ndarray of shape (n_prototypes, n_features)
        The subclass means m_i^l, one per row, in any order.
    prototype_labels : ndarray of int of shape (n_prototypes,)
        The class i of each prototype, 0 for ω₁ up to n_classes - 1; every class
        has at least one.
    X : ndarray of shape (n_samples, n_features)
        The samples x to classify.
    n_classes : int
        The number of classes c.

    Returns
    -------
    G : ndarray of shape (n_samples, n_classes)
        G[q, i] = g_i(X[q]).
    predicted : ndarray of int of shape (n_samples,)
        The class index argmin_i g_i(X[q]) of each sample, 0 for ω₁.
    """
    returns = ("G", "predicted")

    def cases(self, rng):
        cases = [
            Case(
                "a small example: ω₁ and ω₃ with two subclass means, ω₂ with one; "
                "X[4] is as far from m₁¹ as from m₂¹",
                {
                    "prototypes": _EXAMPLE_PROTOTYPES.copy(),
                    "prototype_labels": _EXAMPLE_LABELS.copy(),
                    "X": _EXAMPLE_X.copy(),
                    "n_classes": 3,
                },
            ),
            Case(
                "the prototypes' classes in no order (ω₂ first), X[1] on a prototype, "
                "X[0] as far from ω₁'s mean as from one of ω₃'s (a tie)",
                {
                    "prototypes": np.array(
                        [[2, 4], [3, 3], [2, 1], [1, 2]], dtype=float
                    ),
                    "prototype_labels": np.array([1, 2, 2, 0]),
                    "X": np.array([[0, 0], [1, 2], [1, 0], [1, 3]], dtype=float),
                    "n_classes": 3,
                },
            ),
        ]
        for number, (c, d) in enumerate([(3, 2), (4, 2), (3, 3), (5, 2)], start=1):
            per_class = rng.integers(1, 4, c)
            while True:  # distinct prototypes on a small integer grid
                prototypes = rng.integers(-5, 6, (int(per_class.sum()), d)).astype(
                    float
                )
                if len(np.unique(prototypes, axis=0)) == len(prototypes):
                    break
            labels = np.repeat(np.arange(c), per_class)
            order = rng.permutation(len(labels))
            X = rng.integers(-6, 7, (6, d)).astype(float)
            counts = ", ".join(f"L{sub(i + 1)} = {n}" for i, n in enumerate(per_class))
            cases.append(
                Case(
                    f"random case {number}: {c} classes ({counts} subclass means), "
                    f"{d} features, {len(X)} samples",
                    {
                        "prototypes": prototypes[order],
                        "prototype_labels": labels[order],
                        "X": X,
                        "n_classes": c,
                    },
                )
            )
        return cases

    def reference(self, prototypes, prototype_labels, X, n_classes):
        if n_classes < 3:
            raise ValueError("the cases have 3 classes or more")  # G from the scores
        # k-means with as many subclasses as samples gives back the samples: the
        # model's prototypes are the given subclass means
        counts = {i: int(np.sum(prototype_labels == i)) for i in range(n_classes)}
        model = MinimumDistanceClassifier(n_prototypes=counts, random_state=0)
        model.fit(prototypes, prototype_labels)
        for i in range(n_classes):
            mine = model.prototypes_[model.prototype_labels_ == i]
            given = prototypes[prototype_labels == i]
            if not np.array_equal(np.unique(mine, axis=0), np.unique(given, axis=0)):
                raise RuntimeError("the reference's prototypes are not the given ones")
        return -model.decision_function(X), model.predict(X)

    def compare(self, args, expected, got):
        P, labels, X, c = (
            args["prototypes"],
            args["prototype_labels"],
            args["X"],
            args["n_classes"],
        )
        G, predicted = expected
        parts = unpack(got, self.returns)
        if isinstance(parts, Divergence):
            return parts
        got_g, got_p = parts
        n = len(X)
        got_g = as_array(got_g, "G", (n, c))
        if isinstance(got_g, Divergence):
            return got_g
        distances = np.sqrt(((X[:, None, :] - P[None, :, :]) ** 2).sum(axis=2))
        if not close(got_g, G):
            wrong = ~np.isclose(
                got_g, G, rtol=1e-7, atol=1e-9 * max(1.0, np.abs(G).max())
            )
            q, i = (int(v) for v in np.argwhere(wrong)[0])
            mine = np.flatnonzero(labels == i)
            listed = ", ".join(f"||x - P[{j}]|| = {fmt(distances[q, j])}" for j in mine)
            message = (
                f"g{sub(i + 1)}(x) = min_l ||x - m{sub(i + 1)}^l|| at x = X[{q}] = "
                f"{fmt(X[q])}: the means of {omega(i)} are the rows {mine.tolist()} of "
                f"prototypes, {listed}, so g{sub(i + 1)}(x) = {fmt(G[q, i])};\n"
                f"yours is {fmt(got_g[q, i])}."
            )
            every = np.repeat(distances.min(axis=1, keepdims=True), c, axis=1)
            class_means = np.array([P[labels == r].mean(axis=0) for r in range(c)])
            to_mean = np.sqrt(((X[:, None, :] - class_means[None]) ** 2).sum(axis=2))
            variants = [
                (
                    G**2,
                    "Your G holds squared distances: they give the same decisions, but "
                    "g_i(x) is the distance itself, min_l ||x - m_i^l|| (take the square "
                    "root).",
                ),
                (
                    every,
                    "You took the minimum over every prototype, whatever its class: "
                    "g_i(x) is the minimum over the means of class ω_i only, "
                    "prototypes[prototype_labels == i].",
                ),
                (
                    to_mean,
                    "Your g_i is the distance to the mean of the class's subclass means: "
                    "the course's g_i is the distance to the nearest subclass mean, "
                    "min_l ||x - m_i^l||.",
                ),
                (
                    np.array(
                        [distances[:, labels == r].max(axis=1) for r in range(c)]
                    ).T,
                    "g_i(x) is the distance to the nearest mean of ω_i: a minimum over l, "
                    "not a maximum.",
                ),
                (
                    np.array(
                        [distances[:, labels == r].sum(axis=1) for r in range(c)]
                    ).T,
                    "g_i(x) is the distance to the nearest mean of ω_i, min over l, not "
                    "the sum of the distances to all of them.",
                ),
                (
                    -G,
                    "Your G has the wrong sign: g_i(x) is the distance itself, and the "
                    "class with the smallest g_i wins.",
                ),
                (
                    _per_class(np.abs(X[:, None, :] - P[None]).sum(axis=2), labels, c),
                    "Your G holds city-block distances Σ|x_f - m_f|; the rule's are "
                    "euclidean, ||x - m_i^l||.",
                ),
                (
                    _per_class(np.abs(X[:, None, :] - P[None]).max(axis=2), labels, c),
                    "Your G holds Chebyshev distances max|x_f - m_f|; the rule's are "
                    "euclidean, ||x - m_i^l||.",
                ),
            ]
            seen = list(dict.fromkeys(np.asarray(labels).tolist()))
            if len(seen) == c and seen != sorted(seen):
                variants.append(
                    (
                        G[:, seen],
                        "Your columns follow the order in which the classes first "
                        f"appear in prototype_labels ({', '.join(map(omega, seen))}); "
                        "column i of G is class ω_i, label i, whatever the order of "
                        "the prototypes.",
                    )
                )
            hint = next((text for value, text in variants if close(got_g, value)), None)
            return Divergence(
                f"G[{q}, {i}] = g{sub(i + 1)}(X[{q}]), the discriminant of {omega(i)}",
                message,
                hint,
            )
        got_p = as_array(got_p, "predicted", (n,))
        if isinstance(got_p, Divergence):
            return got_p
        for q in range(n):
            if got_p[q] == predicted[q]:
                continue
            listed = ", ".join(f"g{sub(r + 1)} = {fmt(G[q, r])}" for r in range(c))
            smallest = np.flatnonzero(G[q] == G[q].min())
            message = (
                f"At x = X[{q}] = {fmt(X[q])}: {listed}. The smallest is "
                f"g{sub(predicted[q] + 1)}, so x goes to {omega(predicted[q])} (index "
                f"{predicted[q]}); yours says {fmt(got_p[q])}."
            )
            hint = None
            if close(got_p, np.argmax(G, axis=1)):
                hint = (
                    "You took argmax: g_i is a distance, so the class with the "
                    "smallest g_i wins, class(x) = argmin_i g_i(x)."
                )
            elif close(got_p, predicted + 1):
                hint = "The class indices start at 0 for ω₁ (np.argmin gives them so)."
            elif len(smallest) > 1 and got_p[q] in smallest:
                hint = (
                    f"An exact tie between {', '.join(omega(r) for r in smallest)}: it "
                    "goes to the lowest class index, as np.argmin does (the first "
                    "minimum)."
                )
            elif close(got_p, labels[np.argmin(distances, axis=1)]) and not close(
                got_p, predicted
            ):
                hint = (
                    "The decision is argmin_i g_i(x) over the classes: the class of the "
                    "nearest prototype is the same except on ties, which go to the "
                    "lowest class index."
                )
            return Divergence(f"the decision for X[{q}]", message, hint)
        return None


def _per_class(distances, labels, c):
    """min over each class's prototypes of ``distances`` (samples by prototypes)."""
    return np.array([distances[:, labels == r].min(axis=1) for r in range(c)]).T

"""Exercises of the piecewise chapter: the minimum-distance classifier and the
piecewise-linear machine's subclass error correction.

For the minimum-distance classifier the student's function gets the subclass means
m_i^l (the prototypes) and returns the discriminants g_i(x) = min_l ||x - m_i^l|| and
the decisions argmin_i g_i(x).  The report checks the discriminants first, entry by
entry, then the decisions, and recognises squared distances, a minimum over every
prototype instead of those of the class, and argmax in place of argmin.

The piecewise-linear machine is checked visit by visit, as the linear machine is:
the student's function returns the subclass weights after every visit, and the
report names the first visit where they differ from the rule's (replayed from
`PiecewiseLinearClassifier`'s recorded history), with every subclass's score.
"""

import numpy as np

from ..piecewise import MinimumDistanceClassifier, PiecewiseLinearClassifier
from ._checking import Case, Divergence, Exercise, shuffled_classes
from ._linear import _changed_rows, _ErrorCorrecting
from ._notation import as_array, close, fmt, omega, sub, unpack

_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def subclass(row, n_subclasses):
    """The subclass weights of row ``row``: a₁² for row 1 with 2 subclasses."""
    i, piece = divmod(int(row), n_subclasses)
    return "a" + sub(i + 1) + str(piece + 1).translate(_SUPERSCRIPTS)


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


# -- the piecewise-linear machine ---------------------------------------------------


class PiecewiseLinearExercise(_ErrorCorrecting):
    name = "piecewise_linear"
    title = "The piecewise-linear machine: subclass error correction"
    chapter = "piecewise"
    signature = "X, labels, n_classes, n_subclasses, rho=1.0, max_epochs=100"
    doc = """
    Train the piecewise-linear machine by the course's subclass error correction.

    Class ωᵢ has n_subclasses subclasses; subclass l has augmented weights a_i^l,
    a linear discriminant a_i^l . y of y = (x, 1), and the class scores the best of
    them, g_i(x) = max_l a_i^l . y.  Start from every a_i^l = 0 and visit the
    samples in their order, epoch after epoch.  For a sample of class ωᵢ let m be
    its best subclass of ωᵢ (the largest a_i^m . y; the lowest l on a tie) and n
    the best subclass of all the other classes (the largest a_r^n . y over r != i;
    the first row of A on a tie).  The sample is a mistake when
    a_r^n . y >= a_i^m . y (a tie is a mistake); then the rule corrects those two:

        a_i^m <- a_i^m + ρ y,      a_r^n <- a_r^n - ρ y.

    Stop after the first epoch without a mistake, or after max_epochs epochs.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The samples x, one per row.
    labels : ndarray of int of shape (n_samples,)
        The class of each sample, 0 for ω₁ up to n_classes - 1.
    n_classes : int
        The number of classes c.
    n_subclasses : int
        The subclasses of every class (at most the samples of any class).
    rho : float
        The step ρ.
    max_epochs : int
        The most passes over the samples.

    Returns
    -------
    A : ndarray of shape (n_classes * n_subclasses, n_features + 1)
        The final weights: row i * n_subclasses + l is a_i^l (class by class, the
        subclasses of a class together).
    steps : list of ndarray of shape (n_classes * n_subclasses, n_features + 1)
        A after every visit of a sample, corrected or not, in order: n_samples
        entries per epoch.
    """
    returns = ("A", "steps")

    def cases(self, rng):
        # ω₁ in two groups, ω₂ and ω₃ beside them: corrections for 7 epochs, then
        # an epoch without one
        X = np.array(
            [[4, 4], [7, 1], [6, -1], [5, 2], [0, 2], [2, 3], [3, 1], [0, 2]],
            dtype=float,
        )
        labels = np.array([0, 1, 1, 0, 2, 0, 0, 2])
        cases = [
            Case(
                "ω₁ in two groups, ω₂ and ω₃ beside them: two subclasses each",
                {
                    "X": X,
                    "labels": labels,
                    "n_classes": 3,
                    "n_subclasses": 2,
                    "rho": 1.0,
                    "max_epochs": 100,
                },
            ),  # fmt: skip
            Case(
                "three classes that overlap, ω₃ listed first, two subclasses each: "
                "ties among the rivals; every epoch makes mistakes, so the rule stops "
                "after max_epochs = 2 epochs; ρ = 0.5",
                {
                    "X": np.array(
                        [[2, 2], [0, 0], [3, 0], [1, 1], [0, 3], [2, 0], [1, 2]],
                        dtype=float,
                    ),
                    "labels": np.array([2, 0, 1, 0, 2, 1, 0]),
                    "n_classes": 3,
                    "n_subclasses": 2,
                    "rho": 0.5,
                    "max_epochs": 2,
                },
            ),
        ]
        for number, (n_classes, n_subclasses) in enumerate(
            [(2, 2), (3, 2), (2, 3), (3, 1)], start=1
        ):
            parts = []
            for _ in range(n_classes):  # each class in two clumps
                centres = rng.integers(-6, 7, (2, 2))
                parts.append(
                    np.concatenate(
                        [
                            c + rng.integers(-1, 2, (int(rng.integers(2, 4)), 2))
                            for c in centres
                        ]
                    )
                )
            X, labels = shuffled_classes(rng, parts)
            cases.append(
                Case(
                    f"random case {number}: {len(X)} samples, {n_classes} classes in two "
                    f"clumps each, {n_subclasses} subclasses each, 4 epochs at most",
                    {
                        "X": X,
                        "labels": labels,
                        "n_classes": n_classes,
                        "n_subclasses": n_subclasses,
                        "rho": 1.0,
                        "max_epochs": 4,
                    },
                )  # fmt: skip
            )
        return cases

    def fit_reference(self, X, labels, n_classes, n_subclasses, rho, max_epochs):
        if len(np.unique(labels)) != n_classes:
            raise ValueError("every class must have a sample")  # the cases ensure it
        model = PiecewiseLinearClassifier(
            n_subclasses=n_subclasses,
            init="zeros",
            learning_rate=rho,
            max_epochs=max_epochs,
            shuffle=False,
            record_history=True,
        )
        model.fit(X, labels)
        if model.history_.shrinks:
            raise RuntimeError("the weights were rescaled")  # never at these sizes
        return model

    mistakes = (
        (
            (("tie", "correct"),),
            "A tie is a mistake too: the sample is corrected when a_r^n . y >= "
            "a_i^m . y.",
        ),
        (
            (("own", "first"),),
            "You always raised the first subclass of the sample's class; the rule "
            "raises its best one, m, the largest a_i^m . y: each subclass is a piece "
            "of the boundary, and the piece nearest the sample moves.",
        ),
        (
            (("rival", "any other row"),),
            "Your rival may be another subclass of the sample's own class; the rival "
            "n is the best subclass of the OTHER classes (r != i): the subclasses of "
            "one class do not compete.",
        ),
        (
            (("rival", "every"),),
            "The rule lowers one rival, the best subclass of the other classes; you "
            "lowered every subclass that scored at least as much as a_i^m.",
        ),
        (
            (("rival", "last"),),
            "Of rivals with equal scores you lowered the last; the rule lowers the "
            "first row of A (np.argmax returns the first maximum).",
        ),
        (
            (("rival", "argmax"),),
            "You corrected only when argmax_i g_i(x) is not the sample's class: a tie "
            "with a class after it is a mistake too (np.argmax returns the first "
            "maximum).",
        ),
        (
            (("layout", "subclass-major"),),
            "Your rows are ordered subclass by subclass; A holds the subclasses of a "
            "class together: row i * n_subclasses + l is a_i^l.",
        ),
        (
            (("step", 1.0),),
            lambda args: (
                f"Your corrections are y, not ρ y with ρ = {fmt(args['rho'])}."
                if args["rho"] != 1
                else None
            ),
        ),
    )

    def run(self, X, labels, n_classes, n_subclasses, rho, max_epochs,
            tie="mistake", own="best", rival="best", layout="class-major",
            step=None):  # fmt: skip
        L = n_subclasses
        Y = np.hstack([X, np.ones((len(X), 1))])
        A, steps = np.zeros((n_classes * L, Y.shape[1])), []
        rho = rho if step is None else step
        classes = np.repeat(np.arange(n_classes), L)
        for _ in range(max_epochs):
            mistakes = 0
            for y, i in zip(Y, labels):
                g = A @ y
                mine = np.flatnonzero(classes == i)
                m = mine[0] if own == "first" else mine[int(np.argmax(g[mine]))]
                others = np.flatnonzero(classes != i)
                if rival == "any other row":
                    others = np.delete(np.arange(len(A)), m)
                n = others[int(np.argmax(g[others]))]
                lowered = [n]
                if rival == "last":
                    lowered = [others[g[others] == g[n]][-1]]
                elif rival == "every":
                    lowered = [r for r in others if g[r] >= g[m]]
                mistake = g[n] >= g[m] if tie == "mistake" else g[n] > g[m]
                if rival == "argmax":
                    best = int(
                        np.argmax([g[classes == c].max() for c in range(n_classes)])
                    )
                    mistake = best != i
                    n = np.flatnonzero(classes == best)[
                        int(np.argmax(g[classes == best]))
                    ]
                    lowered = [n]
                if mistake:
                    A[m] += rho * y
                    for r in lowered:
                        A[r] -= rho * y
                    mistakes += 1
                steps.append(A.copy())
            if mistakes == 0:
                break
        if layout == "subclass-major":
            order = np.arange(len(A)).reshape(n_classes, L).T.ravel()
            steps = [W[order] for W in steps]
        return steps

    def diverged(self, t, X, labels, rho, before, after, got):
        j = t % len(X)
        i = int(labels[j])
        n_classes = int(labels.max()) + 1
        L = len(before) // n_classes
        y = np.append(X[j], 1.0)
        scores = before @ y
        listed = ", ".join(
            f"{subclass(r, L)} . y = {fmt(score)}" for r, score in enumerate(scores)
        )
        raised, lowered = _changed_rows(before, after)
        stu_raised, stu_lowered = _changed_rows(before, got)
        mine = range(i * L, (i + 1) * L)
        m = max(mine, key=lambda r: (scores[r], -r))
        if raised:
            (n,) = lowered
            rule = (
                f"Its best subclass is {subclass(m, L)} and the best of the other "
                f"classes {subclass(n, L)}: {subclass(n, L)} . y = {fmt(scores[n])} >= "
                f"{subclass(m, L)} . y = {fmt(scores[m])}, a mistake, so the rule sets "
                f"{subclass(m, L)} += ρ y and {subclass(n, L)} -= ρ y with "
                f"ρ = {fmt(rho)}"
            )
        else:
            rule = (
                f"Its best subclass {subclass(m, L)} scores more than every subclass "
                "of the other classes: nothing changes"
            )
        if not stu_raised and not stu_lowered:
            yours = "your function changed nothing"
        else:
            moves = [
                f"added {fmt(got[r] - before[r])} to {subclass(r, L)}"
                for r in stu_raised
            ]
            moves += [
                f"subtracted {fmt(before[r] - got[r])} from {subclass(r, L)}"
                for r in stu_lowered
            ]
            yours = "your function " + ", ".join(moves)
        hint = None
        if raised and stu_lowered == lowered and stu_raised and stu_raised != raised:
            hint = (
                f"You raised another subclass of {omega(i)}: the rule raises its best, "
                f"{subclass(m, L)}, the largest a_i^m . y (the lowest l on a tie)."
            )
        elif raised and stu_raised == raised and stu_lowered and stu_lowered != lowered:
            hint = (
                "You lowered another rival: the rule lowers the best subclass of the "
                "other classes (the first row of A on a tie)."
            )
        elif not raised and (stu_raised or stu_lowered):
            hint = "Correct only mistakes: when a_i^m . y beats every rival, nothing changes."
        return Divergence(
            self.visit(t, len(X), labels),
            f"Before the visit, for y = {fmt(y)}: {listed}.\n{rule};\n{yours}.",
            hint,
        )

"""Exercises of the linear chapter: the perceptron, the linear machine, Kesler.

The two error-correcting rules are checked visit by visit: the student's function
returns its weights after every sample it visits, and the report names the first
visit where they differ from the rule's (replayed from patrec's recorded
``history_``), with what the rule does there and what the function did.
"""

import numpy as np

from ..linear import LinearMachine, Perceptron, kesler_construct
from ._checking import Case, Divergence, Exercise, shuffled_classes
from ._notation import as_array, close, fmt, omega, sub, unpack, weight

# The course's three classes on a line and an axis: corrections in the first epochs.
_COURSE_X = np.array([[0, 0], [1, 0], [5, 0], [6, 0], [0, 5], [0, 6]], dtype=float)
_COURSE_CLASSES = np.array([0, 0, 1, 1, 2, 2])


def _random_classes(rng, n_classes, separable):
    """Small integer-valued samples around ``n_classes`` centres: a readable case
    (integer features give exact scores), separable or overlapping."""
    n_features = int(rng.integers(2, 4))
    per_class = int(rng.integers(3, 6))
    spread = 1 if separable else 4
    centres = rng.permutation(np.arange(n_classes * n_features) % 7)[
        : n_classes * n_features
    ].reshape(n_classes, n_features) * (6 if separable else 1)
    return shuffled_classes(
        rng,
        [
            c + rng.integers(-spread, spread + 1, (per_class, n_features))
            for c in centres
        ],
    )


def visit_weights(history, X):
    """W after every visit of training, shape (n_visits, n_rows, n_features + 1).

    Replays the recorded corrections (``t`` counts the visits, from 1) onto the
    initial weights; a visit without a correction repeats the weights before it.
    """
    n_visits = history.n_epochs * history.visits_per_epoch
    W = history.weights[0].astype(float)
    after = np.empty((n_visits,) + W.shape)
    done = 0
    for row in history.corrections:
        t = int(row["t"])
        after[done : t - 1] = W
        z = np.append(X[row["sample"]], 1.0)
        if row["raised"] >= 0:
            W[row["raised"]] += row["step"] * z
        if row["lowered"] >= 0:
            W[row["lowered"]] -= row["share"] * z
        after[t - 1] = W
        done = t
    after[done:] = W
    return after


class _ErrorCorrecting(Exercise):
    """An error-correcting rule checked visit by visit.

    A subclass gives the reference learner (`learner`), the shape of its weights
    and `explain`, which says what the rule does on one visit.
    """

    chapter = "linear"
    returns = ("a", "steps")

    def fit_reference(self, X, labels, rho, max_epochs):
        raise NotImplementedError

    def reference(self, **args):
        X = args["X"]
        model = self.fit_reference(**args)
        steps = visit_weights(model.history_, X)
        return self.shape_weights(
            steps[-1] if len(steps) else model.history_.weights[0]
        ), [self.shape_weights(W) for W in steps]

    def shape_weights(self, W):
        return W

    def compare(self, args, expected, got):
        X, labels = args["X"], args["labels"]
        parts = unpack(got, self.returns)
        if isinstance(parts, Divergence):
            return parts
        a, steps = parts
        final, ref_steps = expected
        a = self.check_weights(a, "a", final.shape, X)
        if isinstance(a, Divergence):
            return a
        if not isinstance(steps, (list, tuple, np.ndarray)) or len(steps) == 0:
            return Divergence(
                "what your function returned",
                "steps must be a list with the weights after every visit of a sample "
                f"(the rule makes {len(ref_steps)} visits here).",
                "Append a copy of the weights after each sample: steps.append(a.copy()).",
            )
        stu = []
        for number, W in enumerate(steps):
            W = self.check_weights(W, f"steps[{number}]", final.shape, X)
            if isinstance(W, Divergence):
                return W
            stu.append(W)
        n = len(X)
        if len(steps) > 1 and all(W is steps[0] for W in steps[1:]):
            return Divergence(
                "what your function returned",
                "Every entry of your steps is the same array object: the weights "
                "after the last visit.",
                "Append a copy: steps.append(a.copy()), not steps.append(a), which "
                "keeps a reference that later corrections change.",
            )
        corrected = _after_corrections(ref_steps, np.zeros_like(final))
        if (
            len(stu) != len(ref_steps)
            and len(stu) == len(corrected)
            and all(close(W, R) for W, R in zip(stu, corrected))
        ):
            return Divergence(
                "what your function returned",
                f"Your steps hold the weights after each of the {len(corrected)} "
                f"corrections, all as the rule makes them; steps records the weights "
                f"after every visit ({len(ref_steps)} here), corrected or not.",
                "Append a copy of the weights after each sample, also when it is "
                "classified correctly.",
            )
        before = np.zeros_like(final)
        for t in range(min(len(stu), len(ref_steps))):
            if not close(stu[t], ref_steps[t]):
                divergence = self.diverged(
                    t, X, labels, args["rho"], before, ref_steps[t], stu[t]
                )
                divergence.hint = self.mistake(args, stu) or divergence.hint
                return divergence
            before = ref_steps[t]
        if len(stu) != len(ref_steps):
            divergence = self.wrong_length(
                len(stu), len(ref_steps), n, args["max_epochs"]
            )
            divergence.hint = self.mistake(args, stu) or divergence.hint
            return divergence
        if not close(a, final):
            return Divergence(
                "the weights returned",
                f"Your steps end with the rule's weights {fmt(final)}, but the "
                f"{self.returns[0]} your function returned is {fmt(a)}.",
                "Return the weights after the last visit.",
            )
        return None

    # (changes of the rule, hint) pairs: the classic mistakes `run` can replay
    mistakes = ()

    def run(self, X, labels, rho, max_epochs, **change):
        """The weights after every visit of the rule with ``change``, a classic
        mistake: only to recognise a student's mistake."""
        raise NotImplementedError

    def mistake(self, args, steps):
        """The hint of the classic mistake whose weights after every visit are
        exactly the student's, or None: a hint names a cause only when the
        student's whole run is that cause's."""
        args = {name: args[name] for name in self.signature_names()}
        hints = []
        for change, hint in self.mistakes:
            theirs = self.run(**args, **dict(change))
            if len(theirs) == len(steps) and all(
                close(W, V) for W, V in zip(steps, theirs)
            ):
                hints.append(hint(args) if callable(hint) else hint)
        hints = [hint for hint in hints if hint]
        if len(hints) > 1:  # the case cannot tell these mistakes apart
            return "Your run is that of more than one mistake.  " + "  Or: ".join(hints)
        return hints[0] if hints else None

    def signature_names(self):
        return [part.split("=")[0].strip() for part in self.signature.split(",")]

    def check_weights(self, W, name, shape, X):
        array = as_array(W, name)
        if isinstance(array, Divergence):
            return array
        if array.shape == shape:
            return array
        d = X.shape[1]
        if array.shape[-1:] == (d,) and shape[-1] == d + 1:
            return Divergence(
                "what your function returned",
                f"{name} has shape {array.shape}; augmented weights have d + 1 = {d + 1} "
                f"entries per vector, shape {shape}.",
                "You forgot the augmented 1: the rule works on y = (x, 1), so that "
                "the bias is the last weight.",
            )
        return as_array(W, name, shape)

    @staticmethod
    def visit(t, n, labels):
        return (
            f"epoch {t // n + 1}, step t = {t + 1}: sample X[{t % n}] of class "
            f"{omega(labels[t % n])}"
        )

    def wrong_length(self, got, wanted, n, max_epochs):
        epochs, ref_epochs = -(-got // n), wanted // n
        if got < wanted:
            return Divergence(
                f"the end of epoch {epochs}",
                f"Your function stopped after {got} visits; the rule goes on to "
                f"{wanted} ({ref_epochs} epochs of {n} samples): epoch {epochs} still "
                "made a correction.",
                "Stop only after an epoch with no correction (or after max_epochs "
                "epochs), and record every visit, corrected or not.",
            )
        why = (
            f"max_epochs = {max_epochs}"
            if ref_epochs == max_epochs
            else f"epoch {ref_epochs} made no correction"
        )
        return Divergence(
            f"the end of epoch {ref_epochs}",
            f"The rule stops after {wanted} visits ({why}); your function went on "
            f"to {got}.",
            "Stop after the first epoch without a correction, or after max_epochs.",
        )


class PerceptronExercise(_ErrorCorrecting):
    name = "perceptron"
    title = "The binary perceptron on augmented vectors"
    signature = "X, labels, rho=1.0, max_epochs=100"
    doc = """
    Train the two-class perceptron on augmented vectors, in the course's rule.

    The augmented sample is y = (x, 1) and a = (w, b), so g(x) = a . y.  Start from
    a = 0 and visit the samples in their order, epoch after epoch.  A sample with
    label z = +1 (class ω₁) or z = -1 (class ω₂) is a mistake when z a . y <= 0 (a
    tie is a mistake); then a <- a + ρ z y.  Stop after the first epoch without a
    mistake, or after max_epochs epochs.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The samples x, one per row.
    labels : ndarray of shape (n_samples,)
        z of each sample: +1 or -1.
    rho : float
        The step ρ.
    max_epochs : int
        The most passes over the samples.

    Returns
    -------
    a : ndarray of shape (n_features + 1,)
        The final weights (w, b).
    steps : list of ndarray of shape (n_features + 1,)
        a after every visit of a sample, corrected or not, in order: n_samples
        entries per epoch.
    """

    def cases(self, rng):
        course = Case(
            "the course's points: ω₂ near the origin, ω₁ further along the axes",
            {
                "X": _COURSE_X.copy(),
                "labels": np.where(_COURSE_CLASSES > 0, 1.0, -1.0),
                "rho": 1.0,
                "max_epochs": 100,
            },
        )
        xor = Case(
            "four samples in XOR position, never separable: every epoch makes "
            "mistakes, so the rule stops after max_epochs = 3 epochs; ρ = 0.5",
            {
                "X": np.array([[0, 0], [1, 1], [1, 0], [0, 1]], dtype=float),
                "labels": np.array([1.0, 1.0, -1.0, -1.0]),
                "rho": 0.5,
                "max_epochs": 3,
            },
        )
        cases = [course, xor]
        for number in range(1, 6):
            separable = number != 5
            X, classes = _random_classes(rng, 2, separable)
            cases.append(
                Case(
                    f"random case {number}: {len(X)} samples, {X.shape[1]} features, "
                    + ("separable" if separable else "overlapping, 4 epochs at most"),
                    {
                        "X": X,
                        "labels": np.where(classes == 0, 1.0, -1.0),
                        "rho": [1.0, 0.5, 2.0, 1.0, 1.0][number - 1],
                        "max_epochs": 100 if separable else 4,
                    },
                )
            )
        return cases

    def fit_reference(self, X, labels, rho, max_epochs):
        model = Perceptron(
            learning_rate=rho, max_epochs=max_epochs, shuffle=False, record_history=True
        )
        # classes_ is [-1, 1]: the perceptron's positive class is z = +1
        return model.fit(X, labels)

    def shape_weights(self, W):
        return W[0]

    mistakes = (
        (
            (("tie", "correct"),),
            "A tie, z a . y = 0, is a mistake too: the test is z a . y <= 0, not < 0.",
        ),
        (
            (("sign", -1.0),),
            "You moved a the wrong way: a correction adds ρ z y, which for z = -1 "
            "subtracts y.",
        ),
        (
            (("bias", False),),
            "The bias moves too: y = (x, 1), so a correction changes b by ρ z.",
        ),
        (
            (("step", 1.0),),
            lambda args: (
                f"Your corrections are y, not ρ z y with ρ = {fmt(args['rho'])}."
                if args["rho"] != 1
                else None
            ),
        ),
    )

    def run(self, X, labels, rho, max_epochs, tie="mistake", sign=1.0, bias=True,
            step=None):  # fmt: skip
        Y = np.hstack([X, np.ones((len(X), 1))])
        a, steps = np.zeros(Y.shape[1]), []
        rho = rho if step is None else step
        for _ in range(max_epochs):
            mistakes = 0
            for y, z in zip(Y, labels):
                score = z * (a @ y)
                if score < 0 or (score == 0 and tie == "mistake"):
                    change = sign * rho * z * y
                    if not bias:
                        change[-1] = 0.0
                    a = a + change
                    mistakes += 1
                steps.append(a.copy())
            if mistakes == 0:
                break
        return steps

    @staticmethod
    def visit(t, n, labels):
        z = labels[t % n]
        return (
            f"epoch {t // n + 1}, step t = {t + 1}: sample X[{t % n}] of class "
            f"{omega(0 if z > 0 else 1)} (z = {z:+.0f})"
        )

    def diverged(self, t, X, labels, rho, before, after, got):
        j = t % len(X)
        y = np.append(X[j], 1.0)
        z = labels[j]
        score = float(before @ y)
        rule_moves = not close(after, before)
        moved = got - before
        said = (
            f"a = {fmt(before)}, y = {fmt(y)}, z = {z:+.0f}, z a . y = {fmt(z * score)}"
        )
        if rule_moves:
            rule = (
                f"a mistake (z a . y <= 0): the rule sets a ← a + ρ z y with "
                f"ρ = {fmt(rho)}: a = {fmt(after)}"
            )
        else:
            rule = "correct (z a . y > 0): the rule leaves a unchanged"
        if close(moved, np.zeros_like(moved)):
            yours = "your function left a unchanged"
        else:
            yours = f"your function changed a by {fmt(moved)}, to {fmt(got)}"
        hint = None
        step = after - before
        if rule_moves and close(moved, -step):
            hint = (
                "You moved a the wrong way: a correction adds ρ z y, which for "
                "z = -1 subtracts y."
            )
        elif rule_moves and not close(moved, np.zeros_like(moved)):
            ratio = float(moved @ step) / float(step @ step)
            if close(moved, ratio * step):
                hint = (
                    f"Your correction is {fmt(ratio)} times the rule's ρ z y = "
                    f"{fmt(step)}, with ρ = {fmt(rho)}."
                )
        elif not rule_moves and not close(moved, np.zeros_like(moved)):
            hint = "Correct only mistakes: a sample with z a . y > 0 changes nothing."
        return Divergence(
            self.visit(t, len(X), labels),
            f"Before the visit {said}.\n{rule};\n{yours}.",
            hint,
        )


class LinearMachineExercise(_ErrorCorrecting):
    name = "linear_machine"
    title = "The multiclass linear machine (the course's rule)"
    signature = "X, labels, n_classes, rho=1.0, max_epochs=100"
    doc = """
    Train the multiclass linear machine with the course's correction rule.

    Class ωᵢ has augmented weights aᵢ = (wᵢ, bᵢ) and g_i(x) = aᵢ . y with
    y = (x, 1).  Start from every aᵢ = 0 and visit the samples in their order,
    epoch after epoch.  A sample of class ωᵢ is a mistake when some other class
    scores at least as much, a_r . y >= aᵢ . y for an r != i (a tie is a mistake).
    Then the rule corrects two vectors: aᵢ <- aᵢ + ρ y, and a_r <- a_r - ρ y for
    the rival r, the other class with the largest score (the first such r on a
    tie).  Stop after the first epoch without a mistake, or after max_epochs epochs.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The samples x, one per row.
    labels : ndarray of int of shape (n_samples,)
        The class of each sample, 0 for ω₁ up to n_classes - 1.
    n_classes : int
        The number of classes c.
    rho : float
        The step ρ.
    max_epochs : int
        The most passes over the samples.

    Returns
    -------
    A : ndarray of shape (n_classes, n_features + 1)
        The final weights, row i the vector aᵢ = (wᵢ, bᵢ).
    steps : list of ndarray of shape (n_classes, n_features + 1)
        A after every visit of a sample, corrected or not, in order: n_samples
        entries per epoch.
    """
    returns = ("A", "steps")

    def cases(self, rng):
        cases = [
            Case(
                "the course's three classes on two axes",
                {
                    "X": _COURSE_X.copy(),
                    "labels": _COURSE_CLASSES.copy(),
                    "n_classes": 3,
                    "rho": 1.0,
                    "max_epochs": 100,
                },
            ),
            Case(
                "three classes that overlap, ω₃ listed first: every epoch makes "
                "mistakes, so the rule stops after max_epochs = 2 epochs; ρ = 0.5",
                {
                    "X": np.array(
                        [[2, 2], [0, 0], [3, 0], [1, 1], [0, 3], [2, 0], [1, 2]],
                        dtype=float,
                    ),
                    "labels": np.array([2, 0, 1, 0, 2, 1, 0]),
                    "n_classes": 3,
                    "rho": 0.5,
                    "max_epochs": 2,
                },
            ),
        ]
        for number in range(1, 6):
            n_classes = [3, 4, 3, 5, 3][number - 1]
            separable = number != 5
            X, labels = _random_classes(rng, n_classes, separable)
            cases.append(
                Case(
                    f"random case {number}: {len(X)} samples, {X.shape[1]} features, "
                    f"{n_classes} classes, "
                    + ("separable" if separable else "overlapping, 3 epochs at most"),
                    {
                        "X": X,
                        "labels": labels,
                        "n_classes": n_classes,
                        "rho": [1.0, 0.5, 2.0, 1.0, 1.0][number - 1],
                        "max_epochs": 100 if separable else 3,
                    },
                )
            )
        return cases

    def fit_reference(self, X, labels, n_classes, rho, max_epochs):
        model = LinearMachine(
            learning_rate=rho, max_epochs=max_epochs, shuffle=False, record_history=True
        )
        return model.fit(X, labels)

    mistakes = (
        (
            (("tie", "correct"),),
            "A tie is a mistake too: the sample is corrected when a_r . y >= aᵢ . y "
            "for some r != i.",
        ),
        (
            (("tie", "argmax"),),
            "You corrected only when argmax_j g_j(x) is not i: a tie with a class "
            "that comes after ωᵢ is a mistake too (np.argmax returns the first "
            "maximum, which is then i); the rule corrects when a_r . y >= aᵢ . y for "
            "some r != i.",
        ),
        (
            (("rival", "every"),),
            "The course's rule lowers one rival, the best-scoring other class; you "
            "lowered every class that scored at least as much as ωᵢ.",
        ),
        (
            (("rival", "first"),),
            "You lowered the first class that scored at least as much as ωᵢ; the "
            "rival is the best-scoring other class (the first of them on a tie).",
        ),
        (
            (("rival", "last"),),
            "Of rivals with equal scores you lowered the last; the rule lowers the "
            "first (np.argmax returns the first maximum).",
        ),
        (
            (("rival", "none"),),
            "The rule corrects two vectors: the rival's loses ρ y.",
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

    def run(self, X, labels, n_classes, rho, max_epochs, tie="mistake",
            rival="best", step=None):  # fmt: skip
        Y = np.hstack([X, np.ones((len(X), 1))])
        A, steps = np.zeros((n_classes, Y.shape[1])), []
        rho = rho if step is None else step
        for _ in range(max_epochs):
            mistakes = 0
            for y, i in zip(Y, labels):
                g = A @ y
                rivals = [j for j in range(n_classes) if j != i and g[j] >= g[i]]
                if tie == "correct":
                    rivals = [j for j in rivals if g[j] > g[i]]
                elif tie == "argmax":
                    rivals = [int(np.argmax(g))] if int(np.argmax(g)) != i else []
                if rivals:
                    best = max(g[j] for j in rivals)
                    lowered = {
                        "best": [next(j for j in rivals if g[j] == best)],
                        "every": rivals,
                        "first": rivals[:1],
                        "last": [[j for j in rivals if g[j] == best][-1]],
                        "none": [],
                    }[rival]
                    A[i] += rho * y
                    for j in lowered:
                        A[j] -= rho * y
                    mistakes += 1
                steps.append(A.copy())
            if mistakes == 0:
                break
        return steps

    def reference(self, **args):
        if len(np.unique(args["labels"])) != args["n_classes"]:
            raise ValueError("every class must have a sample")  # the cases ensure it
        return super().reference(**args)

    def diverged(self, t, X, labels, rho, before, after, got):
        j = t % len(X)
        i = int(labels[j])
        y = np.append(X[j], 1.0)
        scores = before @ y
        listed = ", ".join(f"g{sub(r + 1)} = {fmt(s)}" for r, s in enumerate(scores))
        raised, lowered = _changed_rows(before, after)
        stu_raised, stu_lowered = _changed_rows(before, got)
        if raised:
            (r,) = lowered
            rule = (
                f"{omega(r)} scores at least as much as {omega(i)}, so the rule sets "
                f"{weight(i)} += ρ y and {weight(r)} -= ρ y with ρ = {fmt(rho)}: "
                f"{weight(i)} = {fmt(after[i])}, {weight(r)} = {fmt(after[r])}"
            )
        else:
            rule = f"{omega(i)} scores more than every other class: nothing changes"
        if not stu_raised and not stu_lowered:
            yours = "your function changed nothing"
        else:
            moves = [
                f"added {fmt(got[r] - before[r])} to {weight(r)}" for r in stu_raised
            ]
            moves += [
                f"subtracted {fmt(before[r] - got[r])} from {weight(r)}"
                for r in stu_lowered
            ]
            yours = "your function " + ", ".join(moves)
        hint = None
        if raised and stu_raised == raised and len(stu_lowered) > 1:
            hint = (
                "The course's rule lowers one rival, the best-scoring other class; "
                f"you lowered {len(stu_lowered)}."
            )
        elif raised and stu_raised == raised and stu_lowered and stu_lowered != lowered:
            hint = (
                "You corrected another rival: it is the class r != i with the "
                "largest a_r . y (the first on a tie)."
            )
        elif raised and not stu_lowered and stu_raised == raised:
            hint = "The rule corrects two vectors: the rival's loses ρ y."
        elif not raised and (stu_raised or stu_lowered):
            hint = (
                "Correct only mistakes: when ωᵢ scores strictly more, nothing changes."
            )
        return Divergence(
            self.visit(t, len(X), labels),
            f"Before the visit {listed} for y = {fmt(y)}.\n{rule};\n{yours}.",
            hint,
        )


def _after_corrections(steps, start):
    """The weights after each visit that changed them."""
    kept, before = [], start
    for W in steps:
        if not close(W, before):
            kept.append(W)
        before = W
    return kept


def _changed_rows(before, after):
    """The rows of W that rose and those that fell (by their first changed entry)."""
    raised, lowered = [], []
    for r in range(len(before)):
        diff = after[r] - before[r]
        if not close(after[r], before[r]):
            nonzero = diff[np.abs(diff) > 1e-12]
            (raised if nonzero.size and nonzero[-1] > 0 else lowered).append(r)
    return raised, lowered


class KeslerExercise(Exercise):
    name = "kesler"
    title = "Kesler's construction (the multivector ψ(x, i))"
    chapter = "linear"
    signature = "X, labels, n_classes"
    doc = """
    Build Kesler's multivector ψ(x, i) of every sample.

    ψ(x, i) has n_classes blocks of n_features + 1 entries: block i holds the
    augmented sample y = (x, 1) and every other block is zero, so that for the
    stacked weights a = (a₁, ..., a_c), a . ψ(x, i) = aᵢ . y = g_i(x): the linear
    machine is one linear function of ψ.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The samples x, one per row.
    labels : ndarray of int of shape (n_samples,)
        The class i of each sample, 0 for ω₁ up to n_classes - 1.
    n_classes : int
        The number of classes c.

    Returns
    -------
    psi : ndarray of shape (n_samples, n_classes * (n_features + 1))
        Row j is ψ(X[j], labels[j]).
    """

    def cases(self, rng):
        cases = [
            Case(
                "the course's three classes",
                {
                    "X": _COURSE_X.copy(),
                    "labels": _COURSE_CLASSES.copy(),
                    "n_classes": 3,
                },
            ),
            Case(
                "c = 5 classes, ω₂ and ω₅ without a sample, the labels not in "
                "sorted order: the blocks follow the labels, for all c classes",
                {
                    "X": np.array(
                        [[1, 2], [3, -1], [0, 4], [2, 2], [5, 1]], dtype=float
                    ),
                    "labels": np.array([3, 0, 3, 2, 0]),
                    "n_classes": 5,
                },
            ),
        ]
        for number in range(1, 4):
            n_classes = int(rng.integers(2, 6))
            X, labels = _random_classes(rng, n_classes, True)
            cases.append(
                Case(
                    f"random case {number}: {len(X)} samples, {X.shape[1]} features, "
                    f"{n_classes} classes",
                    {"X": X, "labels": labels, "n_classes": n_classes},
                )
            )
        return cases

    def reference(self, X, labels, n_classes):
        return kesler_construct(X, labels, n_classes)

    def compare(self, args, expected, got):
        X, labels = args["X"], args["labels"]
        n, d = X.shape
        c = args["n_classes"]
        psi = as_array(got, "psi")
        if isinstance(psi, Divergence):
            return psi
        if psi.shape == (n, c * d):
            return Divergence(
                "what your function returned",
                f"psi has shape {psi.shape}: blocks of d = {d} entries; each block "
                f"holds the augmented sample, d + 1 = {d + 1} entries, shape "
                f"{expected.shape}.",
                "You forgot the augmented 1: block i holds y = (x, 1).",
            )
        psi = as_array(psi, "psi", expected.shape)
        if isinstance(psi, Divergence):
            return psi
        for j in range(n):
            if close(psi[j], expected[j]):
                continue
            i = int(labels[j])
            block = d + 1
            y = expected[j, i * block : (i + 1) * block]
            blocks = psi[j].reshape(c, block)
            others = [b for b in range(c) if b != i]
            found = [b for b in others if close(blocks[b], y)]
            where = f"row {j}: sample X[{j}] of class {omega(i)}"
            message = (
                f"ψ(x, {i}) holds y = {fmt(y)} in block {i} (columns "
                f"{i * block} to {(i + 1) * block - 1}, blocks counted from 0 as the "
                f"labels are) and zeros elsewhere:\n{fmt(expected[j])};\nyours is\n"
                f"{fmt(psi[j])}."
            )
            hint = None
            if close(psi[j].reshape(block, c).T.ravel(), expected[j]):
                hint = (
                    "Your row interleaves the classes feature by feature; ψ keeps each "
                    "class's d + 1 entries together, block after block."
                )
            elif not close(blocks[i], y) and found:
                hint = (
                    f"Your row has y in block {found[0]}: the block is the label, "
                    f"block {i} for label {i} ({omega(i)}), columns i (d + 1) to "
                    "i (d + 1) + d."
                )
            elif close(blocks[i], np.roll(y, 1)):
                hint = (
                    f"Your block {i} holds (1, x) = {fmt(blocks[i])}: the augmented "
                    "sample is y = (x, 1), its 1 last."
                )
            elif close(blocks[i], y):
                negative = [b for b in others if close(blocks[b], -y)]
                if negative:
                    hint = (
                        f"Your block {negative[0]} holds -y: ψ(x, i) has no negative "
                        "block (-y appears only in ψ(x, i) - ψ(x, j))."
                    )
                elif found:
                    hint = (
                        f"Your block {found[0]} holds y too: ψ(x, i) holds y in block "
                        "i only, zeros elsewhere."
                    )
            return Divergence(where, message, hint)
        return None

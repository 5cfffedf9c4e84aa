"""Exercises of the linear chapter: decoding error-correcting output codes.

The student's function gets a coding matrix M and the scores f(x) of the binary
models and returns the distance of every score vector to every code word M(r), by
Hamming or loss-based decoding, and the nearest class.  The course's worked example
comes first (Hamming: class 3; exponential loss: class 4).  The report checks the
distances first, term by term for the first that differs, then the decisions.
"""

import numpy as np

from ..linear import decode
from ._checking import Case, Divergence, Exercise
from ._notation import as_array, close, fmt, omega, unpack

# The course's worked example (Allwein, Schapire and Singer's decoding).
_COURSE_M = np.array(
    [
        [-1, 0, -1, -1, 1, -1, -1],
        [1, -1, 0, 1, 1, 1, -1],
        [1, 0, -1, -1, -1, 1, 1],
        [-1, -1, 1, 0, -1, -1, 1],
    ],
    dtype=float,
)
_COURSE_F = np.array([[0.5, -7, -1, -2, -10, -12, 9]])

# Zeros in the code and in the scores, and rows at equal distances.
_ZEROS_M = np.array([[0, -1, 0, 0], [1, 0, 0, 1], [0, -1, 1, 1]], dtype=float)
_ZEROS_F = np.array([[0.5, 0, 0.5, 1.5], [1, 1.5, -1, 2], [-2, 0, -0.5, 0.5]])

_LOSSES = {
    "hinge": ("max(0, 1 - z)", lambda z: np.maximum(0.0, 1.0 - z)),
    "exp": ("exp(-z)", lambda z: np.exp(-z)),
    "log": ("ln(1 + exp(-z))", lambda z: np.logaddexp(0.0, -z)),
}


def _hamming_terms(M, f):
    return (1.0 - np.sign(M * f)) / 2.0


class OutputCodesExercise(Exercise):
    name = "output_codes"
    title = "Output codes: Hamming and loss-based decoding"
    chapter = "linear"
    signature = 'M, F, method="hamming"'
    doc = """
    Decode the scores of the binary models with a coding matrix.

    Row r of the coding matrix M (entries -1, 0, +1) is the code word of class
    ω_{r+1}; column s is binary problem s, whose model scores f_s(x).  The distance
    of the score vector f = (f_1(x), ..., f_l(x)) to the code word M(r) is

    - Hamming decoding (method="hamming"):
      d_H(M(r), f) = Σ_s (1 - sign(M(r, s) f_s)) / 2, with sign(0) = 0: an
      agreement counts 0, a disagreement 1, and a zero in M or in f counts 1/2;
    - loss-based decoding (method names the loss L): d_L(M(r), f) =
      Σ_s L(M(r, s) f_s), the loss of the margin z = M(r, s) f_s, with
      method="exp" L(z) = exp(-z) (the course's example), "hinge"
      L(z) = max(0, 1 - z) or "log" L(z) = ln(1 + exp(-z)).

    x goes to the class whose code word is nearest, argmin_r d(M(r), f); on an
    exact tie the lowest row wins (as np.argmin does).

    Parameters
    ----------
    M : ndarray of shape (n_classes, n_columns)
        The coding matrix, row r for class ω_{r+1}.
    F : ndarray of shape (n_samples, n_columns)
        The scores f_s(x) of the binary models, one row per sample x.
    method : {"hamming", "exp", "hinge", "log"}
        Hamming decoding, or loss-based decoding with that loss.

    Returns
    -------
    distances : ndarray of shape (n_samples, n_classes)
        distances[q, r] = d(M(r), F[q]).
    classes : ndarray of int of shape (n_samples,)
        The nearest row r of each sample, 0 for ω₁.
    """
    returns = ("distances", "classes")

    def cases(self, rng):
        cases = [
            Case(
                "the course's worked example, Hamming decoding (class 3)",
                {
                    "M": _COURSE_M.copy(),
                    "F": _COURSE_F.copy(),
                    "method": "hamming",
                },
            ),
            Case(
                "the course's worked example, exponential loss (class 4)",
                {
                    "M": _COURSE_M.copy(),
                    "F": _COURSE_F.copy(),
                    "method": "exp",
                },
            ),
        ]
        # zeros in M and in f (each counts 1/2 in Hamming decoding, L(0) in
        # loss-based decoding) and rows at equal distances (the lowest row wins)
        for method, what in [
            ("hamming", "Hamming decoding"),
            ("hinge", "hinge loss"),
            ("log", "logistic loss"),
            ("exp", "exponential loss"),
        ]:
            cases.append(
                Case(
                    f"zeros in M and in the scores, code words at equal distances: "
                    f"{what}",
                    {"M": _ZEROS_M.copy(), "F": _ZEROS_F.copy(), "method": method},
                )
            )
        for number, method in enumerate(["hamming", "hinge", "log", "exp"], start=1):
            k, n_columns = int(rng.integers(3, 6)), int(rng.integers(4, 8))
            M = rng.choice([-1.0, 0.0, 1.0], size=(k, n_columns), p=[0.35, 0.3, 0.35])
            F = rng.integers(-6, 7, (5, n_columns)) / 2.0  # halves, zeros among them
            what = "Hamming decoding" if method == "hamming" else f"{method} loss"
            cases.append(
                Case(
                    f"random case {number}: {k} classes, {n_columns} columns, {len(F)} samples, "
                    f"{what}",
                    {"M": M, "F": F, "method": method},
                )
            )
        return cases

    def reference(self, M, F, method):
        if method == "hamming":
            kind, loss = "hamming", "hinge"  # the loss is not used
        else:
            kind, loss = "loss", method
        classes, distances = decode(M, F, method=kind, loss=loss, return_distances=True)
        return distances, classes

    def compare(self, args, expected, got):
        M, F, method = args["M"], args["F"], args["method"]
        loss = None if method == "hamming" else method
        distances, classes = expected
        parts = unpack(got, self.returns)
        if isinstance(parts, Divergence):
            return parts
        got_d, got_c = parts
        n, k = distances.shape
        got_d = as_array(got_d, "distances", (n, k))
        if isinstance(got_d, Divergence):
            return got_d
        if not close(got_d, distances):
            return self._distance_divergence(M, F, method, loss, distances, got_d)
        got_c = as_array(got_c, "classes", (n,))
        if isinstance(got_c, Divergence):
            return got_c
        for q in range(n):
            if got_c[q] == classes[q]:
                continue
            listed = ", ".join(
                f"d(M({r}), f) = {fmt(distances[q, r])}" for r in range(k)
            )
            message = (
                f"For f = F[{q}]: {listed}. The smallest is row {classes[q]} (0-based), "
                f"class {omega(classes[q])}; yours says {fmt(got_c[q])}."
            )
            hint = None
            nearest = np.flatnonzero(distances[q] == distances[q].min())
            if close(got_c, np.argmax(distances, axis=1)):
                hint = (
                    "You took argmax: these are distances, so the nearest code word, "
                    "argmin_r d(M(r), f), wins."
                )
            elif close(got_c, classes + 1):
                hint = (
                    "Return the 0-based row of M: the course's class 3 is row 2 "
                    "(np.argmin gives it so)."
                )
            elif len(nearest) > 1 and got_c[q] in nearest:
                hint = (
                    f"An exact tie between rows {nearest.tolist()}: the lowest row wins, "
                    "as np.argmin does."
                )
            return Divergence(f"the decision for F[{q}]", message, hint)
        return None

    def _distance_divergence(self, M, F, method, loss, distances, got):
        scale = max(1.0, float(np.abs(distances).max()))
        wrong = ~np.isclose(got, distances, rtol=1e-7, atol=1e-9 * scale)
        q, r = (int(v) for v in np.argwhere(wrong)[0])
        f = F[q]
        margins = M[r] * f
        if method == "hamming":
            terms = _hamming_terms(M[r], f)
            formula = "d_H(M(r), f) = Σ_s (1 - sign(M(r, s) f_s)) / 2"
        else:
            name, function = _LOSSES[loss]
            terms = function(margins)
            formula = f"d_L(M(r), f) = Σ_s L(M(r, s) f_s) with L(z) = {name}"
        message = (
            f"{formula}, for class {omega(r)}: M({r}) = {fmt(M[r])} and f = F[{q}] "
            f"= {fmt(f)}, so the margins M(r, s) f_s are {fmt(margins)}, the terms "
            f"{fmt(terms)} and d = {fmt(distances[q, r])};\nyours is {fmt(got[q, r])}."
        )
        margins_all = M[None, :, :] * F[:, None, :]
        sign_f = np.sign(F)
        if method == "hamming":
            variants = [
                (
                    (M[None, :, :] != sign_f[:, None, :]).sum(axis=2),
                    "You counted a 0 as a disagreement: a zero in M (or in f) counts "
                    "1/2, since sign(0) = 0 gives (1 - 0) / 2. Compute "
                    "(1 - sign(M(r, s) f_s)) / 2 term by term.",
                ),
                (
                    (margins_all < 0).sum(axis=2),
                    "You counted only the disagreements: a zero in M (or in f) counts "
                    "1/2, since sign(0) = 0 gives (1 - 0) / 2.",
                ),
                (
                    ((1.0 + np.sign(margins_all)) / 2.0).sum(axis=2),
                    "You counted the agreements, (1 + sign(M(r, s) f_s)) / 2; the "
                    "distance counts the disagreements, (1 - sign(M(r, s) f_s)) / 2.",
                ),
                (
                    (1.0 - np.sign(margins_all)).sum(axis=2),
                    "Each term is (1 - sign(M(r, s) f_s)) / 2: you left out the / 2.",
                ),
            ]
        else:
            function = _LOSSES[loss][1]
            variants = [
                (
                    np.repeat(function(F).sum(axis=1, keepdims=True), len(M), axis=1),
                    "You applied the loss to f_s alone: its argument is the margin "
                    "z = M(r, s) f_s, the score times the code word's entry.",
                ),
                (
                    (M[None, :, :] * function(F)[:, None, :]).sum(axis=2),
                    "You multiplied the loss of f_s by M(r, s): the loss is taken of the "
                    "margin, L(M(r, s) f_s).",
                ),
                (
                    function(-margins_all).sum(axis=2),
                    "The margin is z = M(r, s) f_s, positive when f_s agrees with the code "
                    "word: you used -z.",
                ),
                (
                    function(M[None, :, :] * sign_f[:, None, :]).sum(axis=2),
                    "Loss-based decoding uses the scores f_s themselves, not their "
                    "signs: that is what it adds to Hamming decoding.",
                ),
                (
                    _hamming_terms(M[None, :, :], F[:, None, :]).sum(axis=2),
                    f"You decoded by Hamming distance: method={method!r} is loss-based "
                    "decoding, the sum of L(M(r, s) f_s).",
                ),
            ]
            for other, (name, other_function) in _LOSSES.items():
                if other != loss:
                    variants.append(
                        (
                            other_function(margins_all).sum(axis=2),
                            f"You used the {other} loss, L(z) = {name}; "
                            f"method={loss!r} is L(z) = {_LOSSES[loss][0]}.",
                        )
                    )
        variants.append(
            (
                distances / M.shape[1],
                "Your distances are the means of the terms; d is their sum, "
                "divided by nothing.",
            )
        )
        with np.errstate(over="ignore", invalid="ignore"):
            hint = next((text for value, text in variants if close(got, value)), None)
        return Divergence(
            f"distances[{q}, {r}] = d(M({r}), F[{q}]), the distance to the code "
            f"word of {omega(r)}",
            message,
            hint,
        )

"""Exercises of the discriminant chapter: multiclass Fisher LDA and QDA.

Both are checked in the order a student computes them: the class statistics first
(S_w then S_b; the means m_i then the covariances Σ_i), then what is built on them
(the directions W; the discriminants g_i).  The report names the first quantity that
differs, shows the rule's value next to the function's, and recognises the classic
mistakes: a covariance where the course wants a scatter matrix, S_b without the class
sizes N_i, the biased covariance, a discriminant without ln|Σ_i| or the prior.
"""

import numpy as np
from scipy import linalg

from ..discriminant import QDA, FisherLDA
from ._checking import Case, Divergence, Exercise, shuffled_classes
from ._notation import as_array, close, fmt, omega, ordinal, sub, unpack

# Three classes in the plane with N₁ = 3, N₂ = 4, N₃ = 5 samples: unequal sizes, so
# that m (the mean of all samples) is not the mean of the class means.
_EXAMPLE_X = np.array(
    [
        [0, 0],
        [2, 1],
        [1, 2],
        [6, 0],
        [8, 1],
        [7, 3],
        [6, 2],
        [1, 6],
        [3, 7],
        [2, 9],
        [0, 8],
        [4, 8],
    ],
    dtype=float,
)
_EXAMPLE_LABELS = np.array([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2])


def _random_classes(rng, n_classes, n_features):
    """Samples with one decimal around ``n_classes`` centres, unequal class sizes,
    every class covariance well conditioned (so S_w and every Σ_i are invertible)."""
    while True:
        sizes = rng.choice(np.arange(n_features + 2, n_features + 7), n_classes, False)
        centres = rng.integers(-4, 5, (n_classes, n_features)) * 2
        parts = [
            np.round(c + rng.normal(0, 1.5, (n, n_features)), 1)
            for c, n in zip(centres, sizes)
        ]
        if all(np.linalg.cond(np.cov(p, rowvar=False)) < 1e3 for p in parts):
            break
    return shuffled_classes(rng, parts)


def _case_title(number, X, labels, n_classes):
    sizes = ", ".join(
        f"N{sub(i + 1)} = {int(np.sum(labels == i))}" for i in range(n_classes)
    )
    return (
        f"random case {number}: {len(X)} samples, {X.shape[1]} features, "
        f"{n_classes} classes ({sizes})"
    )


def _first_entry(expected, got):
    """The index of the first entry that differs, as a tuple."""
    scale = max(1.0, float(np.abs(expected).max()))
    wrong = ~np.isclose(got, expected, rtol=1e-7, atol=1e-9 * scale)
    return tuple(int(i) for i in np.argwhere(wrong)[0])


def _matrix_divergence(where, formula, expected, got, variants):
    """A `Divergence` for a matrix that differs, with the hint of the first variant
    (a classic mistake computed from the case) that ``got`` equals."""
    entry = _first_entry(expected, got)
    hint = next((text for value, text in variants if close(got, value)), None)
    return Divergence(
        where,
        f"{formula} is\n{fmt(expected)};\nyours is\n{fmt(got)}\n"
        f"(entry {entry}: {fmt(expected[entry])} expected, yours {fmt(got[entry])}).",
        hint,
    )


def _class_statistics(X, labels, n_classes):
    """The counts N_i, the means m_i and the per-class scatter matrices."""
    counts = np.array([np.sum(labels == i) for i in range(n_classes)])
    means = np.array([X[labels == i].mean(axis=0) for i in range(n_classes)])
    scatters = np.array(
        [
            (X[labels == i] - means[i]).T @ (X[labels == i] - means[i])
            for i in range(n_classes)
        ]
    )
    return counts, means, scatters


def _between(counts, means, centre):
    deviations = means - centre
    return (deviations.T * counts) @ deviations


class FisherLDAExercise(Exercise):
    name = "fisher_lda"
    title = "Multiclass Fisher LDA: S_w, S_b and the projection W"
    chapter = "discriminant"
    signature = "X, labels, n_classes"
    doc = """
    Compute Fisher's scatter matrices and the c - 1 projection directions.

    With m_i the mean of the N_i samples of class ω_i and m the mean of all N
    samples (not the mean of the class means):

        S_w = Σ_i Σ_{x in ω_i} (x - m_i)(x - m_i)^T   (within-class scatter)
        S_b = Σ_i N_i (m_i - m)(m_i - m)^T            (between-class scatter)

    Both are sums, divided by nothing.  W has as its columns the c - 1 solutions
    w of S_b w = λ S_w w with the largest λ, in decreasing order of λ.

    A solution w is defined only up to its length and sign (and, when two λ are
    equal, up to mixing the columns that share it), so W is checked column by
    column: W[:, 0] must be a nonzero w with S_b w = λ S_w w for the largest λ,
    W[:, 1] for the 2nd largest, and so on.  Scale the columns as you like
    (||w|| = 1, or w^T S_w w = 1).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The samples x, one per row.
    labels : ndarray of int of shape (n_samples,)
        The class of each sample, 0 for ω₁ up to n_classes - 1.
    n_classes : int
        The number of classes c (at most n_features + 1).

    Returns
    -------
    S_w : ndarray of shape (n_features, n_features)
        The within-class scatter matrix.
    S_b : ndarray of shape (n_features, n_features)
        The between-class scatter matrix.
    W : ndarray of shape (n_features, n_classes - 1)
        The directions w, one per column, the largest λ first.
    """
    returns = ("S_w", "S_b", "W")

    def cases(self, rng):
        cases = [
            Case(
                "a small example: three classes in the plane, N₁ = 3, N₂ = 4, N₃ = 5",
                {
                    "X": _EXAMPLE_X.copy(),
                    "labels": _EXAMPLE_LABELS.copy(),
                    "n_classes": 3,
                },
            )
        ]
        for number, (c, d) in enumerate([(2, 2), (3, 3), (4, 3), (3, 2)], start=1):
            X, labels = _random_classes(rng, c, d)
            cases.append(
                Case(
                    _case_title(number, X, labels, c),
                    {"X": X, "labels": labels, "n_classes": c},
                )
            )
        return cases

    def reference(self, X, labels, n_classes):
        # solver="eigen" solves S_b w = λ S_w w on S_w / N and S_b / N: the same
        # directions and the same λ as the course's sums
        model = FisherLDA(solver="eigen").fit(X, labels)
        n = len(X)
        S_w = n * model.covariance_
        centre = model.priors_ @ model.means_  # the priors are N_i / N: m
        deviations = model.means_ - centre
        S_b = n * (deviations.T * model.priors_) @ deviations
        W = model.scalings_[:, : n_classes - 1]
        lambdas = np.einsum("fk,fg,gk->k", W, S_b, W) / np.einsum(
            "fk,fg,gk->k", W, S_w, W
        )
        every = np.sort(linalg.eigh(S_b, S_w, eigvals_only=True))[::-1]
        return S_w, S_b, W, lambdas, every

    def compare(self, args, expected, got):
        X, labels, c = args["X"], args["labels"], args["n_classes"]
        n, d = X.shape
        S_w, S_b, W_ref, lambdas, every = expected
        parts = unpack(got, self.returns)
        if isinstance(parts, Divergence):
            return parts
        got_w, got_b, got_W = parts
        counts, means, scatters = _class_statistics(X, labels, c)
        m = X.mean(axis=0)

        got_w = as_array(got_w, "S_w", (d, d))
        if isinstance(got_w, Divergence):
            return got_w
        if not close(got_w, S_w):
            total = (X - m).T @ (X - m)
            variants = [
                (
                    S_w / n,
                    f"Your S_w is the sum divided by N = {n}: that is a covariance, the "
                    "pooled one. The course's S_w is a scatter matrix, the plain sum "
                    "over all samples of (x - m_i)(x - m_i)^T, divided by nothing.",
                ),
                (
                    np.sum(scatters / counts[:, None, None], axis=0),
                    "Your S_w adds up the class covariances (each class's sum divided "
                    "by N_i). The course's S_w is a scatter matrix: the plain sums, "
                    "divided by nothing.",
                ),
                (
                    np.sum(scatters / (counts - 1)[:, None, None], axis=0),
                    "Your S_w adds up the class covariances (each class's sum divided "
                    "by N_i - 1). The course's S_w is a scatter matrix: the plain sums, "
                    "divided by nothing.",
                ),
                (
                    S_w / (n - c),
                    f"Your S_w is the sum divided by N - c = {n - c} (the unbiased pooled "
                    "covariance). The course's S_w is the plain sum, divided by nothing.",
                ),
                (
                    total,
                    "Your S_w is the total scatter Σ_x (x - m)(x - m)^T around the mean "
                    "m of all samples: within a class, subtract that class's mean m_i.",
                ),
            ]
            return _matrix_divergence(
                "S_w, the within-class scatter matrix",
                "S_w = Σ_i Σ_{x in ω_i} (x - m_i)(x - m_i)^T",
                S_w,
                got_w,
                variants,
            )

        got_b = as_array(got_b, "S_b", (d, d))
        if isinstance(got_b, Divergence):
            return got_b
        if not close(got_b, S_b):
            mean_of_means = means.mean(axis=0)
            ones = np.ones(c)
            variants = [
                (
                    _between(ones, means, m),
                    "Your S_b leaves out the class sizes: each term is weighted by N_i, "
                    "S_b = Σ_i N_i (m_i - m)(m_i - m)^T, so a class with more samples "
                    "counts more.",
                ),
                (
                    _between(counts, means, mean_of_means),
                    "Your m is the mean of the class means; the course's m is the mean "
                    "of all N samples, Σ_i N_i m_i / N. The two differ when the classes "
                    "have different sizes N_i.",
                ),
                (
                    _between(ones, means, mean_of_means),
                    "Your S_b leaves out the class sizes N_i and takes m as the mean of "
                    "the class means: S_b = Σ_i N_i (m_i - m)(m_i - m)^T with m the mean "
                    "of all N samples.",
                ),
                (
                    S_b / n,
                    f"Your S_b is divided by N = {n} (the class proportions N_i / N in "
                    "place of the sizes N_i). The course's S_b is weighted by N_i and "
                    "divided by nothing.",
                ),
                (
                    _between(counts - 1, means, m),
                    "Your S_b weights class ω_i by N_i - 1; the course's weight is N_i.",
                ),
            ]
            return _matrix_divergence(
                "S_b, the between-class scatter matrix",
                "S_b = Σ_i N_i (m_i - m)(m_i - m)^T, with m the mean of all samples,",
                S_b,
                got_b,
                variants,
            )
        return self._compare_directions(S_w, S_b, lambdas, every, got_W, d, c)

    def _compare_directions(self, S_w, S_b, lambdas, every, got_W, d, c):
        k = c - 1
        if isinstance(got_W, np.ndarray) and np.iscomplexobj(got_W):
            # np.linalg.eig returns complex arrays, their imaginary parts zero here
            if np.abs(got_W.imag).max(initial=0.0) > 1e-9 * max(
                1.0, float(np.abs(got_W).max(initial=0.0))
            ):
                return Divergence(
                    "what your function returned",
                    "W has complex entries; the solutions of S_b w = λ S_w w are real "
                    "(S_b and S_w are symmetric, S_w positive definite).",
                    "Take the real part of what np.linalg.eig returns (its imaginary "
                    "parts are rounding), or use scipy.linalg.eigh(S_b, S_w).",
                )
            got_W = got_W.real
        array = as_array(got_W, "W")
        if isinstance(array, Divergence):
            return array
        if array.shape == (k, d) and k != d:
            return Divergence(
                "what your function returned",
                f"W must have shape ({d}, {k}), one direction w per column; yours has "
                f"shape {array.shape}.",
                "You put the directions in the rows: W holds them as columns (return "
                "W.T, or stack them with np.column_stack).",
            )
        if array.shape == (d, d) and d != k:
            return Divergence(
                "what your function returned",
                f"W must have shape ({d}, {k}): the c - 1 = {k} leading solutions only; "
                f"yours has shape {array.shape}.",
                f"Keep the c - 1 = {k} solutions with the largest λ: S_b has rank at most "
                "c - 1, so the others have λ = 0 and separate nothing.",
            )
        array = as_array(array, "W", (d, k))
        if isinstance(array, Divergence):
            return array
        for column in range(k):
            failure = _eigen_failure(S_w, S_b, array[:, column], lambdas[column])
            if failure is None:
                continue
            where = f"W[:, {column}]: the direction w of the {_ordinal(column + 1)} λ"
            if failure in ("zero", "not finite"):
                return Divergence(
                    where,
                    f"Your column is {'zero' if failure == 'zero' else 'not finite'}"
                    f" ({fmt(array[:, column])}); a direction must be a nonzero solution "
                    "of S_b w = λ S_w w.",
                )
            w = array[:, column]
            wanted = lambdas[column]
            message = (
                f"The column must solve S_b w = λ S_w w with λ = {fmt(wanted)} (the "
                f"λ of S_b w = λ S_w w are {fmt(every)}). For your w = {fmt(w)}: "
                f"S_b w = {fmt(S_b @ w)} and λ S_w w = {fmt(wanted * (S_w @ w))}."
            )
            mu = float(w @ S_b @ w) / float(w @ S_w @ w)
            hint = None
            if d == k and all(
                _eigen_failure(S_w, S_b, array[r], lambdas[r]) is None for r in range(k)
            ):
                hint = (
                    "Your rows are the directions: W holds them as columns (the "
                    "eigenvectors of np.linalg.eig are its columns V[:, k], not its "
                    "rows V[k])."
                )
            elif _eigen_failure(S_w, S_b, w, mu) is None:
                message += f"\nYour w solves it with λ = {fmt(mu)}."
                if mu < wanted:
                    hint = (
                        "You took a solution with a smaller λ: the columns of W go in "
                        "decreasing order of λ, the largest first (np.linalg.eig returns "
                        "the eigenvalues unsorted and scipy.linalg.eigh in increasing "
                        "order: sort them, largest first)."
                    )
                else:
                    hint = "Sort the columns by λ, largest first."
            elif (
                _eigen_failure(np.eye(d), S_b, w, float(w @ S_b @ w) / float(w @ w))
                is None
            ):
                hint = (
                    "Your w is an eigenvector of S_b alone: the eigenproblem is "
                    "S_b w = λ S_w w, that of S_w^-1 S_b."
                )
            else:
                message += "\nYour w solves S_b w = λ S_w w for no λ."
                if _a_row_of_the_eigenvectors(S_w, S_b, w):
                    hint = (
                        "Your w is a row of the eigenvector matrix V of "
                        "np.linalg.eig(np.linalg.solve(S_w, S_b)): the eigenvectors "
                        "are its columns V[:, k], not its rows."
                    )
            return Divergence(where, message, hint)
        return None


def _a_row_of_the_eigenvectors(S_w, S_b, w):
    """Whether ``w`` is parallel to a row of the eigenvector matrix of S_w^-1 S_b
    (the columns are the eigenvectors)."""
    try:
        V = np.linalg.eig(np.linalg.solve(S_w, S_b))[1].real
    except np.linalg.LinAlgError:
        return False
    norm = np.linalg.norm(w)
    rows = np.linalg.norm(V, axis=1)
    if norm == 0 or np.any(rows == 0):
        return False
    cosines = np.abs(V @ w) / (rows * norm)
    return bool(np.any(np.isclose(cosines, 1.0, rtol=0, atol=1e-9)))


def _eigen_failure(S_w, S_b, w, lam):
    """None when ``w`` solves S_b w = lam S_w w to rounding; else "not finite",
    "zero" or "residual"."""
    if not np.all(np.isfinite(w)):
        return "not finite"
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        return "zero"
    w = w / norm
    residual = np.linalg.norm(S_b @ w - lam * (S_w @ w))
    scale = np.linalg.norm(S_b, 2) + abs(lam) * np.linalg.norm(S_w, 2)
    return None if residual <= 1e-7 * scale else "residual"


def _ordinal(number):
    """ "largest" for 1, "2nd largest" for 2 ..."""
    return "largest" if number == 1 else f"{ordinal(number)} largest"


class QDAExercise(Exercise):
    name = "qda"
    title = "Quadratic discriminant analysis: m_i, Σ_i and g_i(x)"
    chapter = "discriminant"
    signature = "X, labels, n_classes, X_test"
    doc = """
    Estimate every class's Gaussian and evaluate the quadratic discriminants.

    From the N_i samples x_j of class ω_i, as the course estimates them:

        m_i = (1 / N_i) Σ_j x_j
        Σ_i = 1 / (N_i - 1) Σ_j (x_j - m_i)(x_j - m_i)^T     (N_i - 1, not N_i)

    With the prior P(ω_i) = N_i / N, the share of class ω_i among the N training
    samples, the discriminant of ω_i is patrec's QDA's

        g_i(x) = -1/2 (x - m_i)^T Σ_i^-1 (x - m_i) - 1/2 ln|Σ_i| + ln P(ω_i),

    the logarithm of P(ω_i) p(x | ω_i) without the constant -d/2 ln(2π); ln is the
    natural logarithm.  A sample goes to the class with the largest g_i(x).  (The
    course writes g_i(x) = k_i² - (x - m_i)^T Σ_i^-1 (x - m_i): that is 2 g_i(x)
    with k_i² = 2 ln P(ω_i) - ln|Σ_i|, the same decision.)

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The training samples, one per row.
    labels : ndarray of int of shape (n_samples,)
        The class of each sample, 0 for ω₁ up to n_classes - 1.
    n_classes : int
        The number of classes c; every class has more samples than features.
    X_test : ndarray of shape (n_test, n_features)
        The samples x at which to evaluate the discriminants.

    Returns
    -------
    means : ndarray of shape (n_classes, n_features)
        Row i is m_i.
    covariances : ndarray of shape (n_classes, n_features, n_features)
        covariances[i] is Σ_i.
    G : ndarray of shape (n_test, n_classes)
        G[q, i] = g_i(X_test[q]).
    """
    returns = ("means", "covariances", "G")

    def cases(self, rng):
        cases = [
            Case(
                "a small example: three classes in the plane, N₁ = 3, N₂ = 4, N₃ = 5",
                {
                    "X": _EXAMPLE_X.copy(),
                    "labels": _EXAMPLE_LABELS.copy(),
                    "n_classes": 3,
                    "X_test": np.array(
                        [[0.0, 1.0], [4.0, 4.0], [7.0, 2.0], [2.0, 7.0]]
                    ),
                },
            )
        ]
        for number, (c, d) in enumerate([(2, 2), (3, 3), (4, 2), (3, 2)], start=1):
            X, labels = _random_classes(rng, c, d)
            X_test = np.round(rng.uniform(X.min(0), X.max(0), (4, d)), 1)
            cases.append(
                Case(
                    _case_title(number, X, labels, c) + ", 4 test samples",
                    {"X": X, "labels": labels, "n_classes": c, "X_test": X_test},
                )
            )
        return cases

    def reference(self, X, labels, n_classes, X_test):
        model = QDA(store_covariance=True).fit(X, labels)
        # g_i from the fitted model: Σ_i^-1 = L_i^-T L_i^-1, precision_factors_ the L_i^-1
        G = np.empty((len(X_test), n_classes))
        for i in range(n_classes):
            z = (X_test - model.means_[i]) @ model.precision_factors_[i].T
            G[:, i] = -0.5 * (
                np.sum(z**2, axis=1) + model.log_determinants_[i]
            ) + np.log(model.priors_[i])
        return model.means_, model.covariance_, G

    def compare(self, args, expected, got):
        X, labels, c, X_test = (
            args["X"],
            args["labels"],
            args["n_classes"],
            args["X_test"],
        )
        d = X.shape[1]
        means, covariances, G = expected
        parts = unpack(got, self.returns)
        if isinstance(parts, Divergence):
            return parts
        got_m, got_s, got_g = parts
        counts = np.array([np.sum(labels == i) for i in range(c)])

        got_m = as_array(got_m, "means", (c, d))
        if isinstance(got_m, Divergence):
            return got_m
        for i in range(c):
            if not close(got_m[i], means[i]):
                hint = None
                if close(got_m[i], X.mean(axis=0)):
                    hint = (
                        "That is the mean m of all samples: m_i averages the samples of "
                        "ω_i only, X[labels == i].mean(axis=0)."
                    )
                elif close(got_m[i], counts[i] * means[i]):
                    hint = f"That is the sum of the samples: divide it by N_i = {counts[i]}."
                return Divergence(
                    f"the mean m{sub(i + 1)} of class {omega(i)}",
                    f"m{sub(i + 1)} = (1 / N{sub(i + 1)}) Σ_j x_j over the "
                    f"N{sub(i + 1)} = {counts[i]} samples of {omega(i)} is "
                    f"{fmt(means[i])}; yours is {fmt(got_m[i])}.",
                    hint,
                )

        got_s = as_array(got_s, "covariances", (c, d, d))
        if isinstance(got_s, Divergence):
            return got_s
        for i in range(c):
            if close(got_s[i], covariances[i]):
                continue
            n_i = counts[i]
            scatter = covariances[i] * (n_i - 1)
            variants = [
                (
                    scatter / n_i,
                    f"You divided by N_i = {n_i}: that is the biased (maximum-likelihood) "
                    f"covariance. The course divides by N_i - 1 = {n_i - 1} (np.cov does, "
                    "with its default ddof=1).",
                ),
                (
                    scatter,
                    f"Your Σ{sub(i + 1)} is the scatter matrix, a sum: divide it by "
                    f"N_i - 1 = {n_i - 1}.",
                ),
                (
                    np.cov(X, rowvar=False),
                    "Your Σ_i is the covariance of all the samples, whatever their "
                    "class: QDA estimates one covariance per class, from the samples "
                    "of ω_i only (a shared covariance is LDA's).",
                ),
            ]
            return _matrix_divergence(
                f"the covariance Σ{sub(i + 1)} of class {omega(i)}",
                f"Σ{sub(i + 1)} = 1 / (N{sub(i + 1)} - 1) Σ_j (x_j - m{sub(i + 1)})"
                f"(x_j - m{sub(i + 1)})^T, with N{sub(i + 1)} = {n_i},",
                covariances[i],
                got_s[i],
                variants,
            )

        got_g = as_array(got_g, "G", (len(X_test), c))
        if isinstance(got_g, Divergence):
            return got_g
        if close(got_g, G):
            return None
        q, i = _first_entry(G, got_g)
        x = X_test[q]
        terms = _qda_terms(means[i], covariances[i], counts[i] / counts.sum(), x)
        quad, logdet, log_prior = terms
        message = (
            f"g{sub(i + 1)}(x) = -1/2 (x - m{sub(i + 1)})^T Σ{sub(i + 1)}^-1 "
            f"(x - m{sub(i + 1)}) - 1/2 ln|Σ{sub(i + 1)}| + ln P({omega(i)}) at "
            f"x = X_test[{q}] = {fmt(x)} is\n"
            f"-1/2 ({fmt(quad)}) - 1/2 ({fmt(logdet)}) + ({fmt(log_prior)}) = "
            f"{fmt(G[q, i])};\nyours is {fmt(got_g[q, i])}."
        )
        hint = _qda_hint(
            got_g, X, labels, c, X_test, means, covariances, counts, q, i, G
        )
        return Divergence(
            f"G[{q}, {i}] = g{sub(i + 1)}(X_test[{q}]), the discriminant of {omega(i)}",
            message,
            hint,
        )


def _qda_terms(mean, covariance, prior, x):
    """(x - m)^T Σ^-1 (x - m), ln|Σ| and ln P."""
    diff = x - mean
    quad = float(diff @ np.linalg.solve(covariance, diff))
    logdet = float(np.linalg.slogdet(covariance)[1])
    return quad, logdet, float(np.log(prior))


def _qda_hint(got, X, labels, c, X_test, means, covariances, counts, q, i, G):
    """The classic mistake ``got`` matches, checked on every entry of G."""
    n = counts.sum()

    def table(combine, covs=covariances, inverse=True):
        out = np.empty_like(G)
        for r in range(c):
            diff = X_test - means[r]
            if inverse:
                quad = np.einsum("qf,qf->q", diff, np.linalg.solve(covs[r], diff.T).T)
            else:
                quad = np.einsum("qf,fg,qg->q", diff, covs[r], diff)
            logdet = np.linalg.slogdet(covs[r])[1]
            out[:, r] = combine(quad, logdet, counts[r] / n)
        return out

    biased = covariances * ((counts - 1) / counts)[:, None, None]
    variants = [
        (
            table(lambda Q, L, P: -0.5 * Q - 0.5 * L + np.log(P), covs=biased),
            "Your g_i uses the biased covariance (divided by N_i): Σ_i divides by "
            "N_i - 1, in g_i as in the covariances you return.",
        ),
        (
            table(lambda Q, L, P: -0.5 * Q + np.log(P)),
            "You forgot the term -1/2 ln|Σ_i|: classes with different covariances "
            "need it (it is what makes QDA more than a Mahalanobis distance).",
        ),
        (
            table(lambda Q, L, P: -0.5 * Q - L + np.log(P)),
            "The determinant term is -1/2 ln|Σ_i|: you left out the 1/2.",
        ),
        (
            table(lambda Q, L, P: -0.5 * Q + 0.5 * L + np.log(P)),
            "The determinant term is -1/2 ln|Σ_i|, with a minus: a wider class has a "
            "lower density.",
        ),
        (
            table(lambda Q, L, P: -Q - 0.5 * L + np.log(P)),
            "The quadratic term is -1/2 (x - m_i)^T Σ_i^-1 (x - m_i): you left out "
            "the 1/2.",
        ),
        (
            table(lambda Q, L, P: 2 * (-0.5 * Q - 0.5 * L + np.log(P))),
            "Your G is 2 g_i(x), the course's form k_i² - (x - m_i)^T Σ_i^-1 (x - m_i): "
            "the same decision, but this exercise asks for g_i itself (divide by 2).",
        ),
        (
            table(lambda Q, L, P: -0.5 * Q - 0.5 * L + np.log(P), inverse=False),
            "You used Σ_i where the rule has its inverse: the quadratic term is "
            "(x - m_i)^T Σ_i^-1 (x - m_i) (np.linalg.solve(Σ_i, x - m_i), or "
            "np.linalg.inv).",
        ),
        (
            table(lambda Q, L, P: -0.5 * Q - 0.5 * L),
            "You left out the prior: g_i ends with + ln P(ω_i), P(ω_i) = N_i / N.",
        ),
        (
            table(lambda Q, L, P: -0.5 * Q - 0.5 * L + P),
            "The prior enters as its logarithm: + ln P(ω_i), not + P(ω_i).",
        ),
        (
            table(lambda Q, L, P: -0.5 * Q - 0.5 * L + np.log(1.0 / c)),
            f"The prior is the class's share of the samples, P(ω_i) = N_i / N, not "
            f"1 / c = 1 / {c}.",
        ),
        (
            table(lambda Q, L, P: 0.5 * Q - 0.5 * L + np.log(P)),
            "The quadratic term has a minus sign: -1/2 (x - m_i)^T Σ_i^-1 (x - m_i), "
            "so g_i falls away from m_i.",
        ),
    ]
    hint = next((text for value, text in variants if close(got, value)), None)
    return hint or _qda_terms_hint(got, X_test, means, covariances, counts)


def _qda_terms_hint(got, X_test, means, covariances, counts):
    """When the student's G is, entry for entry, α Q + β ln|Σ_i| + γ ln P(ω_i)
    (+ δ) with other coefficients than the rule's -1/2, -1/2, 1 (and 0): which
    term differs and by what factor.  None when G is no such combination."""
    c = len(means)
    Q = np.empty_like(got)
    for r in range(c):
        diff = X_test - means[r]
        Q[:, r] = np.einsum("qf,qf->q", diff, np.linalg.solve(covariances[r], diff.T).T)
    L = np.broadcast_to([np.linalg.slogdet(S)[1] for S in covariances], got.shape)
    P = np.broadcast_to(np.log(counts / counts.sum()), got.shape)
    columns = [Q.ravel(), L.ravel(), P.ravel()]
    for design in (
        np.column_stack(columns),
        np.column_stack(columns + [np.ones(Q.size)]),
    ):
        if np.linalg.matrix_rank(design) < design.shape[1]:
            continue  # the case cannot tell the terms apart
        coefficients = np.linalg.lstsq(design, got.ravel(), rcond=None)[0]
        if close(design @ coefficients, got.ravel()):
            break
    else:
        return None
    rule = np.array([-0.5, -0.5, 1.0, 0.0])[: len(coefficients)]
    names = [
        "(x - m_i)^T Σ_i^-1 (x - m_i)",
        "ln|Σ_i|",
        "ln P(ω_i)",
        "the constant",
    ]

    def term(coefficient, name):
        if coefficient == 1:
            return name
        return f"-{name}" if coefficient == -1 else f"{fmt(coefficient)} {name}"

    said = []
    for name, yours, wanted in zip(names, coefficients, rule):
        if np.isclose(yours, wanted, rtol=1e-6, atol=1e-9):
            continue
        if wanted == 0:
            said.append(f"a constant {fmt(yours)} that the rule does not add")
            continue
        ratio = yours / wanted
        text = (
            f"{term(float(fmt(yours)), name)} where the rule has {term(wanted, name)}"
        )
        if np.isclose(ratio, 0.5):
            text += " (a factor 2 missing)"
        elif np.isclose(ratio, 2.0):
            text += " (twice the rule's)"
        elif np.isclose(ratio, 1 / np.log(10)):
            text += " (a base-10 logarithm: ln is np.log)"
        elif np.isclose(ratio, 0.0, atol=1e-9):
            text = f"no {name} term where the rule has {term(wanted, name)}"
        said.append(text)
    if not said:
        return None
    return (
        "Your G is, entry for entry, the rule's terms with other coefficients: "
        + "; ".join(said)
        + ".  g_i(x) = -1/2 (x - m_i)^T Σ_i^-1 (x - m_i) - 1/2 ln|Σ_i| + ln P(ω_i)."
    )

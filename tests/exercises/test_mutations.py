"""The mutation suite: wrong implementations, as students write them, never pass.

For every exercise, a right implementation (plain numpy, as a student writes it)
passes at the default seed and at 20 others, and at least eight wrong ones fail at
every one of those seeds.  A wrong implementation here is a small change of the
right one that a student makes: a tie broken the other way, a sort that is not
stable, a duplicate sample taken for the sample itself, an off-by-one, a class
order taken from the data...  Most are not among the mistakes the exercise pages
list.  The exercises' fixed cases (the course's examples and the cases made to
separate the rule from its near misses) are what catch them at every seed, not
the luck of the random ones.

At the default seed the checks run as a student runs them, in a child process; at
the 20 other seeds in this process (``isolated=False``, the same cases and
comparison, without the cost of a child).  The child process itself is tested in
test_isolation.py.
"""

import collections

import numpy as np
import pytest

from patrec.exercises import check, names

SEEDS = range(21)  # the default seed, 0, and 20 others

CORRECT = {}
MUTANTS = collections.defaultdict(list)


def right(name):
    def register(function):
        CORRECT[name] = function
        return function

    return register


def wrong(name):
    def register(function):
        MUTANTS[name].append(function)
        return function

    return register


def augment(X):
    return np.hstack([X, np.ones((len(X), 1))])


def norms(X, x):
    return np.sqrt(((np.asarray(X, dtype=float) - x) ** 2).sum(axis=1))


# -- the perceptron -----------------------------------------------------------------


def _perceptron(X, labels, rho=1.0, max_epochs=100, *, test=lambda s: s <= 0,
                Y=None, step=None, start=None, record="every", epochs=None,
                stop="epoch", order=None):  # fmt: skip
    Y = augment(X) if Y is None else Y(X)
    a = np.zeros(Y.shape[1]) if start is None else start(Y.shape[1])
    steps = []
    for epoch in range(max_epochs if epochs is None else epochs(max_epochs)):
        mistakes = 0
        visits = range(len(Y)) if order is None else order(len(Y), epoch)
        for j in visits:
            y, z = Y[j], labels[j]
            if test(z * (a @ y)):
                a = a + (rho * z * y if step is None else step(rho, z, y))
                mistakes += 1
                steps.append(a.copy())
            elif record == "every":
                steps.append(a.copy())
        if mistakes == 0:
            break
        if stop == "all correct now" and all(
            z * (a @ y) > 0 for y, z in zip(Y, labels)
        ):
            break
    return a, steps


@right("perceptron")
def perceptron(X, labels, rho=1.0, max_epochs=100):
    return _perceptron(X, labels, rho, max_epochs)


@wrong("perceptron")
def perceptron_tie_is_correct(X, labels, rho=1.0, max_epochs=100):
    return _perceptron(X, labels, rho, max_epochs, test=lambda s: s < 0)


@wrong("perceptron")
def perceptron_one_in_front(X, labels, rho=1.0, max_epochs=100):
    Y = lambda X: np.hstack([np.ones((len(X), 1)), X])  # noqa: E731
    return _perceptron(X, labels, rho, max_epochs, Y=Y)


@wrong("perceptron")
def perceptron_bias_never_moves(X, labels, rho=1.0, max_epochs=100):
    step = lambda rho, z, y: rho * z * np.append(y[:-1], 0.0)  # noqa: E731
    return _perceptron(X, labels, rho, max_epochs, step=step)


@wrong("perceptron")
def perceptron_rho_ignored(X, labels, rho=1.0, max_epochs=100):
    return _perceptron(X, labels, 1.0, max_epochs)


@wrong("perceptron")
def perceptron_steps_at_corrections(X, labels, rho=1.0, max_epochs=100):
    return _perceptron(X, labels, rho, max_epochs, record="corrections")


@wrong("perceptron")
def perceptron_one_epoch_short(X, labels, rho=1.0, max_epochs=100):
    return _perceptron(X, labels, rho, max_epochs, epochs=lambda e: e - 1)


@wrong("perceptron")
def perceptron_stops_when_all_are_correct(X, labels, rho=1.0, max_epochs=100):
    """No last epoch without a mistake: stops as soon as a is right everywhere."""
    return _perceptron(X, labels, rho, max_epochs, stop="all correct now")


@wrong("perceptron")
def perceptron_normalised_step(X, labels, rho=1.0, max_epochs=100):
    step = lambda rho, z, y: rho * z * y / np.linalg.norm(y)  # noqa: E731
    return _perceptron(X, labels, rho, max_epochs, step=step)


@wrong("perceptron")
def perceptron_starts_from_ones(X, labels, rho=1.0, max_epochs=100):
    return _perceptron(X, labels, rho, max_epochs, start=np.ones)


@wrong("perceptron")
def perceptron_reverse_order_every_other_epoch(X, labels, rho=1.0, max_epochs=100):
    def order(n, epoch):
        return range(n) if epoch % 2 == 0 else range(n - 1, -1, -1)

    return _perceptron(X, labels, rho, max_epochs, order=order)


# -- the linear machine -------------------------------------------------------------


def _machine(X, labels, n_classes, rho=1.0, max_epochs=100, *, correct=None,
             epochs=None, record="every"):  # fmt: skip
    Y = augment(X)
    A = np.zeros((n_classes, Y.shape[1]))
    steps = []
    for _ in range(max_epochs if epochs is None else epochs(max_epochs)):
        mistakes = 0
        for y, i in zip(Y, labels):
            corrected = (correct or course_rule)(A, int(i), y, rho)
            mistakes += corrected
            if corrected or record == "every":
                steps.append(A.copy())
        if mistakes == 0:
            break
    return A, steps


def course_rule(A, i, y, rho):
    g = A @ y
    others = g.copy()
    others[i] = -np.inf
    j = int(np.argmax(others))
    if g[j] < g[i]:
        return False
    A[i] += rho * y
    A[j] -= rho * y
    return True


@right("linear_machine")
def linear_machine(X, labels, n_classes, rho=1.0, max_epochs=100):
    return _machine(X, labels, n_classes, rho, max_epochs)


@wrong("linear_machine")
def machine_argmax_prediction(X, labels, n_classes, rho=1.0, max_epochs=100):
    """The usual shortcut: correct when argmax g is not i (a tie with i is no
    mistake when i comes first)."""

    def correct(A, i, y, rho):
        j = int(np.argmax(A @ y))
        if j == i:
            return False
        A[i] += rho * y
        A[j] -= rho * y
        return True

    return _machine(X, labels, n_classes, rho, max_epochs, correct=correct)


@wrong("linear_machine")
def machine_tie_is_correct(X, labels, n_classes, rho=1.0, max_epochs=100):
    def correct(A, i, y, rho):
        g = A @ y
        if all(g[j] < g[i] or (g[j] == g[i]) for j in range(len(g)) if j != i):
            return False
        return course_rule(A, i, y, rho)

    return _machine(X, labels, n_classes, rho, max_epochs, correct=correct)


@wrong("linear_machine")
def machine_lowers_every_rival(X, labels, n_classes, rho=1.0, max_epochs=100):
    def correct(A, i, y, rho):
        g = A @ y
        rivals = [j for j in range(len(g)) if j != i and g[j] >= g[i]]
        if rivals:
            A[i] += rho * y
            A[rivals] -= rho * y
        return bool(rivals)

    return _machine(X, labels, n_classes, rho, max_epochs, correct=correct)


@wrong("linear_machine")
def machine_last_best_rival(X, labels, n_classes, rho=1.0, max_epochs=100):
    def correct(A, i, y, rho):
        g = A @ y
        others = g.copy()
        others[i] = -np.inf
        j = len(g) - 1 - int(np.argmax(others[::-1]))
        if g[j] < g[i]:
            return False
        A[i] += rho * y
        A[j] -= rho * y
        return True

    return _machine(X, labels, n_classes, rho, max_epochs, correct=correct)


@wrong("linear_machine")
def machine_raises_only(X, labels, n_classes, rho=1.0, max_epochs=100):
    def correct(A, i, y, rho):
        g = A @ y
        if any(g[j] >= g[i] for j in range(len(g)) if j != i):
            A[i] += rho * y
            return True
        return False

    return _machine(X, labels, n_classes, rho, max_epochs, correct=correct)


@wrong("linear_machine")
def machine_rho_ignored(X, labels, n_classes, rho=1.0, max_epochs=100):
    return _machine(X, labels, n_classes, 1.0, max_epochs)


@wrong("linear_machine")
def machine_steps_at_corrections(X, labels, n_classes, rho=1.0, max_epochs=100):
    return _machine(X, labels, n_classes, rho, max_epochs, record="corrections")


@wrong("linear_machine")
def machine_one_epoch_more(X, labels, n_classes, rho=1.0, max_epochs=100):
    return _machine(X, labels, n_classes, rho, max_epochs, epochs=lambda e: e + 1)


@wrong("linear_machine")
def machine_spreads_the_rivals_loss(X, labels, n_classes, rho=1.0, max_epochs=100):
    """Raises ωᵢ by ρ y and lowers every other class by ρ y / (c - 1)."""

    def correct(A, i, y, rho):
        g = A @ y
        if all(g[j] < g[i] for j in range(len(g)) if j != i):
            return False
        for j in range(len(g)):
            A[j] += rho * y if j == i else -rho * y / (len(g) - 1)
        return True

    return _machine(X, labels, n_classes, rho, max_epochs, correct=correct)


# -- Kesler's construction ----------------------------------------------------------


@right("kesler")
def kesler(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j in range(n):
        i = labels[j]
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(X[j], 1.0)
    return psi


@wrong("kesler")
def kesler_without_the_one(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * d))
    for j in range(n):
        psi[j, labels[j] * d : (labels[j] + 1) * d] = X[j]
    return psi


@wrong("kesler")
def kesler_one_in_front(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j in range(n):
        i = labels[j]
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(1.0, X[j])
    return psi


@wrong("kesler")
def kesler_interleaved(X, labels, n_classes):
    n, d = X.shape
    return (
        kesler(X, labels, n_classes)
        .reshape(n, n_classes, d + 1)
        .transpose(0, 2, 1)
        .reshape(n, -1)
    )


@wrong("kesler")
def kesler_classes_counted_from_the_data(X, labels, n_classes):
    """c from the labels present, not the n_classes given."""
    return kesler(X, labels, len(np.unique(labels)))


@wrong("kesler")
def kesler_classes_in_order_of_appearance(X, labels, n_classes):
    seen = list(dict.fromkeys(np.asarray(labels).tolist()))
    return kesler(X, np.array([seen.index(i) for i in labels]), n_classes)


@wrong("kesler")
def kesler_minus_y_elsewhere(X, labels, n_classes):
    n, d = X.shape
    psi = np.tile(-augment(X), n_classes)
    for j in range(n):
        i = labels[j]
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] *= -1
    return psi


@wrong("kesler")
def kesler_y_in_every_block(X, labels, n_classes):
    return np.tile(augment(X), n_classes)


@wrong("kesler")
def kesler_one_once_at_the_end(X, labels, n_classes):
    """The blocks hold x; one shared 1 at the end, in the last class's place."""
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j in range(n):
        i = labels[j]
        psi[j, i * d : (i + 1) * d] = X[j]
    psi[:, -1] = 1.0
    return psi


@wrong("kesler")
def kesler_blocks_from_the_last_class(X, labels, n_classes):
    return kesler(X, n_classes - 1 - np.asarray(labels), n_classes)


# -- output codes -------------------------------------------------------------------

_LOSSES = {
    "hinge": lambda z: np.maximum(0.0, 1.0 - z),
    "exp": lambda z: np.exp(-z),
    "log": lambda z: np.log1p(np.exp(-z)),
}


def _decode(M, F, method, *, hamming=None, losses=None, pick=np.argmin, reduce=np.sum):
    margins = F[:, None, :] * M[None, :, :]
    if method == "hamming":
        terms = (1 - np.sign(margins)) / 2 if hamming is None else hamming(M, F)
    else:
        terms = (losses or _LOSSES)[method](margins)
    distances = reduce(terms, axis=2)
    return distances, pick(distances, axis=1)


@right("output_codes")
def output_codes(M, F, method="hamming"):
    return _decode(M, F, method)


@wrong("output_codes")
def codes_zero_is_a_disagreement(M, F, method="hamming"):
    def hamming(M, F):
        return (M[None, :, :] != np.sign(F)[:, None, :]).astype(float)

    return _decode(M, F, method, hamming=hamming)


@wrong("output_codes")
def codes_sign_of_zero_is_plus(M, F, method="hamming"):
    def hamming(M, F):
        return (1 - np.where(F[:, None, :] * M[None, :, :] >= 0, 1, -1)) / 2

    return _decode(M, F, method, hamming=hamming)


@wrong("output_codes")
def codes_zero_of_f_is_a_disagreement(M, F, method="hamming"):
    def hamming(M, F):
        sign_f = np.where(F >= 0, 1.0, -1.0) * (F != 0) - (F == 0)
        return (1 - M[None, :, :] * sign_f[:, None, :]) / 2

    return _decode(M, F, method, hamming=hamming)


@wrong("output_codes")
def codes_hamming_without_halves(M, F, method="hamming"):
    def hamming(M, F):
        return 1 - np.sign(F[:, None, :] * M[None, :, :])

    return _decode(M, F, method, hamming=hamming)


@wrong("output_codes")
def codes_mean_not_sum(M, F, method="hamming"):
    return _decode(M, F, method, reduce=np.mean)


@wrong("output_codes")
def codes_last_of_equal_distances(M, F, method="hamming"):
    def pick(distances, axis):
        return distances.shape[1] - 1 - np.argmin(distances[:, ::-1], axis=axis)

    return _decode(M, F, method, pick=pick)


@wrong("output_codes")
def codes_hinge_without_the_one(M, F, method="hamming"):
    losses = dict(_LOSSES, hinge=lambda z: np.maximum(0.0, -z))
    return _decode(M, F, method, losses=losses)


@wrong("output_codes")
def codes_log_in_base_2(M, F, method="hamming"):
    losses = dict(_LOSSES, log=lambda z: np.log2(1 + np.exp(-z)))
    return _decode(M, F, method, losses=losses)


@wrong("output_codes")
def codes_loss_skips_the_zeros_of_m(M, F, method="hamming"):
    margins = F[:, None, :] * M[None, :, :]
    if method == "hamming":
        return output_codes(M, F, method)
    terms = np.where(M[None, :, :] != 0, _LOSSES[method](margins), 0.0)
    distances = terms.sum(axis=2)
    return distances, np.argmin(distances, axis=1)


@wrong("output_codes")
def codes_exp_of_plus_z(M, F, method="hamming"):
    losses = dict(_LOSSES, exp=lambda z: np.exp(z))
    return _decode(M, F, method, losses=losses)


@wrong("output_codes")
def codes_classes_from_1(M, F, method="hamming"):
    distances, classes = output_codes(M, F, method)
    return distances, classes + 1


# -- Fisher LDA -------------------------------------------------------------------


def _fisher(X, labels, n_classes, *, within="scatter", between="sizes",
            centre="all", order="decreasing", eigen="S_w^-1 S_b",
            layout="columns"):  # fmt: skip
    d = X.shape[1]
    m = X.mean(axis=0)
    means = np.array([X[labels == i].mean(axis=0) for i in range(n_classes)])
    sizes = np.array([np.sum(labels == i) for i in range(n_classes)])
    S_w = np.zeros((d, d))
    for i in range(n_classes):
        D = X[labels == i] - means[i]
        scatter = D.T @ D
        if within == "class covariances":
            scatter = scatter / sizes[i]
        elif within == "np.cov":
            scatter = np.cov(X[labels == i], rowvar=False)
        S_w += scatter
    if within == "covariance":
        S_w = S_w / len(X)
    elif within == "total":
        S_w = (X - m).T @ (X - m)
    if centre == "mean of means":
        m = means.mean(axis=0)
    S_b = np.zeros((d, d))
    for i in range(n_classes):
        weight = {"sizes": sizes[i], "none": 1.0, "sizes - 1": sizes[i] - 1}[between]
        S_b += weight * np.outer(means[i] - m, means[i] - m)
    if eigen == "S_b alone":
        values, vectors = np.linalg.eigh(S_b)
    else:
        values, vectors = np.linalg.eig(np.linalg.solve(S_w, S_b))
    values, vectors = values.real, vectors.real
    rank = np.argsort(values)
    if order == "decreasing":
        rank = rank[::-1]
    W = vectors[:, rank[: n_classes - 1]]
    if eigen == "rows of V":
        W = vectors[rank[: n_classes - 1], :].T
    if layout == "rows":
        W = W.T
    return S_w, S_b, W


@right("fisher_lda")
def fisher_lda(X, labels, n_classes):
    return _fisher(X, labels, n_classes)


for _change in [
    {"within": "covariance"},
    {"within": "class covariances"},
    {"within": "np.cov"},
    {"within": "total"},
    {"between": "none"},
    {"between": "sizes - 1"},
    {"centre": "mean of means"},
    {"order": "increasing"},
    {"eigen": "S_b alone"},
    {"eigen": "rows of V"},
]:

    def _fisher_mutant(X, labels, n_classes, _change=_change):
        return _fisher(X, labels, n_classes, **_change)

    _fisher_mutant.__name__ = "fisher_" + "_".join(
        str(v).replace(" ", "_") for v in _change.values()
    )
    MUTANTS["fisher_lda"].append(_fisher_mutant)


# -- QDA --------------------------------------------------------------------------


def _qda(X, labels, n_classes, X_test, *, ddof=1, g=None, mean=None, pooled=False):
    counts = np.array([np.sum(labels == i) for i in range(n_classes)])
    means = np.array(
        [
            X[labels == i].mean(axis=0) if mean is None else mean(X)
            for i in range(n_classes)
        ]
    )
    covariances = np.array(
        [
            np.cov(X, rowvar=False)
            if pooled
            else (X[labels == i] - means[i]).T
            @ (X[labels == i] - means[i])
            / (counts[i] - ddof)
            for i in range(n_classes)
        ]
    )
    G = np.empty((len(X_test), n_classes))
    for i in range(n_classes):
        diff = X_test - means[i]
        Q = np.einsum("qf,qf->q", diff, np.linalg.solve(covariances[i], diff.T).T)
        L = np.linalg.slogdet(covariances[i])[1]
        P = counts[i] / counts.sum()
        if g is None:
            G[:, i] = -0.5 * Q - 0.5 * L + np.log(P)
        else:
            G[:, i] = g(Q, L, P, covariances[i], diff, n_classes)
    return means, covariances, G


@right("qda")
def qda(X, labels, n_classes, X_test):
    return _qda(X, labels, n_classes, X_test)


@wrong("qda")
def qda_scatter_not_covariance(X, labels, n_classes, X_test):
    means, covariances, G = qda(X, labels, n_classes, X_test)
    counts = np.array([np.sum(labels == i) for i in range(n_classes)])
    return means, covariances * (counts - 1)[:, None, None], G


for _name, _kwargs in {
    "biased covariance": {"ddof": 0},
    "mean of all samples": {"mean": lambda X: X.mean(axis=0)},
    "pooled covariance": {"pooled": True},
    "no ln|Σ|": {"g": lambda Q, L, P, S, D, c: -0.5 * Q + np.log(P)},
    "ln|Σ| without 1/2": {"g": lambda Q, L, P, S, D, c: -0.5 * Q - L + np.log(P)},
    "the course's 2 g": {"g": lambda Q, L, P, S, D, c: -Q - L + 2 * np.log(P)},
    "course's form halved without its factor 2": {
        "g": lambda Q, L, P, S, D, c: 0.5 * (-Q - L + np.log(P))
    },
    "prior not logged": {"g": lambda Q, L, P, S, D, c: -0.5 * Q - 0.5 * L + P},
    "equal priors": {"g": lambda Q, L, P, S, D, c: -0.5 * (Q + L) - np.log(c)},
    "Σ not inverted": {
        "g": lambda Q, L, P, S, D, c: (
            -0.5 * np.einsum("qf,fg,qg->q", D, S, D) - 0.5 * L + np.log(P)
        )
    },
    "log10 determinant": {
        "g": lambda Q, L, P, S, D, c: (
            -0.5 * Q - 0.5 * np.log10(np.linalg.det(S)) + np.log(P)
        )
    },
}.items():

    def _qda_mutant(X, labels, n_classes, X_test, _kwargs=_kwargs):
        return _qda(X, labels, n_classes, X_test, **_kwargs)

    _qda_mutant.__name__ = "qda_" + _name.replace(" ", "_")
    MUTANTS["qda"].append(_qda_mutant)


# -- the minimum-distance classifier --------------------------------------------------


def _minimum_distance(prototypes, prototype_labels, X, n_classes, *, distance=None,
                      reduce=np.min, decide=None):  # fmt: skip
    diff = X[:, None, :] - prototypes[None, :, :]
    D = np.sqrt((diff**2).sum(axis=2)) if distance is None else distance(diff)
    G = np.empty((len(X), n_classes))
    for i in range(n_classes):
        G[:, i] = reduce(D[:, prototype_labels == i], axis=1)
    predicted = np.argmin(G, axis=1) if decide is None else decide(G, D)
    return G, predicted


@right("minimum_distance")
def minimum_distance(prototypes, prototype_labels, X, n_classes):
    return _minimum_distance(prototypes, prototype_labels, X, n_classes)


for _name, _kwargs in {
    "squared": {"distance": lambda diff: (diff**2).sum(axis=2)},
    "city block": {"distance": lambda diff: np.abs(diff).sum(axis=2)},
    "chebyshev": {"distance": lambda diff: np.abs(diff).max(axis=2)},
    "farthest mean": {"reduce": np.max},
    "sum over the means": {"reduce": np.sum},
    "argmax": {"decide": lambda G, D: np.argmax(G, axis=1)},
    "last of equal distances": {
        "decide": lambda G, D: G.shape[1] - 1 - np.argmin(G[:, ::-1], axis=1)
    },
    "classes from 1": {"decide": lambda G, D: np.argmin(G, axis=1) + 1},
}.items():

    def _md_mutant(prototypes, prototype_labels, X, n_classes, _kwargs=_kwargs):
        return _minimum_distance(prototypes, prototype_labels, X, n_classes, **_kwargs)

    _md_mutant.__name__ = "minimum_distance_" + _name.replace(" ", "_")
    MUTANTS["minimum_distance"].append(_md_mutant)


@wrong("minimum_distance")
def minimum_distance_every_prototype(prototypes, prototype_labels, X, n_classes):
    D = np.sqrt(((X[:, None, :] - prototypes[None, :, :]) ** 2).sum(axis=2))
    G = np.repeat(D.min(axis=1, keepdims=True), n_classes, axis=1)
    return G, prototype_labels[np.argmin(D, axis=1)]


@wrong("minimum_distance")
def minimum_distance_class_of_the_nearest_prototype(
    prototypes, prototype_labels, X, n_classes
):
    G, _ = minimum_distance(prototypes, prototype_labels, X, n_classes)
    D = np.sqrt(((X[:, None, :] - prototypes[None, :, :]) ** 2).sum(axis=2))
    return G, prototype_labels[np.argmin(D, axis=1)]


@wrong("minimum_distance")
def minimum_distance_mean_of_the_means(prototypes, prototype_labels, X, n_classes):
    centres = np.array(
        [prototypes[prototype_labels == i].mean(axis=0) for i in range(n_classes)]
    )
    G = np.sqrt(((X[:, None, :] - centres[None]) ** 2).sum(axis=2))
    return G, np.argmin(G, axis=1)


@wrong("minimum_distance")
def minimum_distance_classes_in_order_of_appearance(
    prototypes, prototype_labels, X, n_classes
):
    """Column i of G for the i-th class met in prototype_labels."""
    seen = list(dict.fromkeys(np.asarray(prototype_labels).tolist()))
    relabelled = np.array([seen.index(i) for i in prototype_labels])
    return minimum_distance(prototypes, relabelled, X, n_classes)


# -- the piecewise-linear machine ----------------------------------------------------


def _piecewise(X, labels, n_classes, n_subclasses, rho=1.0, max_epochs=100, *,
               pick=None, rival=None, test=None, record="every", epochs=None,
               layout=None):  # fmt: skip
    L = n_subclasses
    Y = augment(X)
    A, steps = np.zeros((n_classes * L, Y.shape[1])), []
    for _ in range(max_epochs if epochs is None else epochs(max_epochs)):
        mistakes = 0
        for y, i in zip(Y, labels):
            g = A @ y
            mine = list(range(i * L, (i + 1) * L))
            m = mine[int(np.argmax(g[mine]))] if pick is None else pick(g, mine)
            others = [r for r in range(len(A)) if r // L != i]
            lowered = [others[int(np.argmax(g[others]))]] if rival is None else None
            if rival is not None:
                lowered = rival(g, m, others, L)
            n = lowered[0] if lowered else others[int(np.argmax(g[others]))]
            if (g[n] >= g[m]) if test is None else test(g[n], g[m]):
                A[m] += rho * y
                for r in lowered:
                    A[r] -= rho * y
                mistakes += 1
                steps.append(A.copy())
            elif record == "every":
                steps.append(A.copy())
        if mistakes == 0:
            break
    if layout is not None:
        steps = [layout(W, n_classes, L) for W in steps]
    return (steps[-1] if steps else A), steps


@right("piecewise_linear")
def piecewise_linear(X, labels, n_classes, n_subclasses, rho=1.0, max_epochs=100):
    return _piecewise(X, labels, n_classes, n_subclasses, rho, max_epochs)


for _name, _kwargs in {
    "tie is correct": {"test": lambda rival, mine: rival > mine},
    "raises the first subclass": {"pick": lambda g, mine: mine[0]},
    "raises the last of equal subclasses": {
        "pick": lambda g, mine: mine[len(mine) - 1 - int(np.argmax(g[mine][::-1]))]
    },
    "rivals in its own class too": {
        "rival": lambda g, m, others, L: [
            max((r for r in range(len(g)) if r != m), key=lambda r: (g[r], -r))
        ]
    },
    "lowers every rival at least as high": {
        "rival": lambda g, m, others, L: [r for r in others if g[r] >= g[m]]
    },
    "lowers every subclass of the rival's class": {
        "rival": lambda g, m, others, L: [
            r for r in others if r // L == others[int(np.argmax(g[others]))] // L
        ]
    },
    "the last of equal rivals": {
        "rival": lambda g, m, others, L: [
            others[len(others) - 1 - int(np.argmax(g[others][::-1]))]
        ]
    },
    "rho ignored": {},
    "steps at corrections": {"record": "corrections"},
    "one epoch more": {"epochs": lambda e: e + 1},
    "subclass-major rows": {
        "layout": lambda W, c, L: W[np.arange(c * L).reshape(c, L).T.ravel()]
    },
}.items():

    def _piecewise_mutant(X, labels, n_classes, n_subclasses, rho=1.0, max_epochs=100,
                          _kwargs=_kwargs, _name=_name):  # fmt: skip
        if _name == "rho ignored":
            rho = 1.0
        return _piecewise(
            X, labels, n_classes, n_subclasses, rho, max_epochs, **_kwargs
        )

    _piecewise_mutant.__name__ = "piecewise_" + _name.replace(" ", "_")
    MUTANTS["piecewise_linear"].append(_piecewise_mutant)


@wrong("piecewise_linear")
def piecewise_argmax_prediction(X, labels, n_classes, n_subclasses, rho=1.0,
                                max_epochs=100):  # fmt: skip
    """The usual shortcut: correct when the predicted class is not the sample's."""
    L = n_subclasses
    Y = augment(X)
    A, steps = np.zeros((n_classes * L, Y.shape[1])), []
    for _ in range(max_epochs):
        mistakes = 0
        for y, i in zip(Y, labels):
            G = (A @ y).reshape(n_classes, L)
            predicted = int(np.argmax(G.max(axis=1)))
            if predicted != i:
                A[i * L + int(np.argmax(G[i]))] += rho * y
                A[predicted * L + int(np.argmax(G[predicted]))] -= rho * y
                mistakes += 1
            steps.append(A.copy())
        if mistakes == 0:
            break
    return A, steps


# -- the k-NN rule -----------------------------------------------------------------


def _knn(X, labels, queries, k, *, distance=norms, order=None, vote=None):
    neighbors, predictions = [], []
    for x in queries:
        d = distance(X, x)
        nearest = np.argsort(d, kind="stable")[:k] if order is None else order(d, k)
        neighbors.append(nearest)
        if vote is None:
            predictions.append(int(np.argmax(np.bincount(labels[nearest]))))
        else:
            predictions.append(vote(labels[nearest], d[nearest], labels))
    return np.array(neighbors), np.array(predictions)


@right("knn")
def knn(X, labels, queries, k):
    return _knn(X, labels, queries, k)


for _name, _kwargs in {
    "farthest": {"order": lambda d, k: np.argsort(d)[::-1][:k]},
    "drops the nearest": {
        "order": lambda d, k: np.argsort(d, kind="stable")[1 : k + 1]
    },
    "k + 1 neighbours": {"order": lambda d, k: np.argsort(d, kind="stable")[: k + 1]},
    "index order": {"order": lambda d, k: np.sort(np.argsort(d, kind="stable")[:k])},
    "equal distances higher index first": {
        "order": lambda d, k: np.lexsort((-np.arange(len(d)), d))[:k]
    },
    "city block": {"distance": lambda X, x: np.abs(X - x).sum(axis=1)},
    "chebyshev": {"distance": lambda X, x: np.abs(X - x).max(axis=1)},
    "last of equal votes": {
        "vote": lambda c, d, labels: (
            len(np.bincount(c)) - 1 - int(np.argmax(np.bincount(c)[::-1]))
        )
    },
    "Counter's first of equal votes": {
        "vote": lambda c, d, labels: collections.Counter(c.tolist()).most_common(1)[0][
            0
        ]
    },
    "inverse-distance weights": {
        "vote": lambda c, d, labels: int(
            np.argmax(np.bincount(c, weights=1 / np.maximum(d, 1e-12)))
        )
    },
    "rounded mean label": {"vote": lambda c, d, labels: int(np.round(c.mean()))},
}.items():

    def _knn_mutant(X, labels, queries, k, _kwargs=_kwargs):
        return _knn(X, labels, queries, k, **_kwargs)

    _knn_mutant.__name__ = "knn_" + _name.replace(" ", "_").replace("'", "")
    MUTANTS["knn"].append(_knn_mutant)


# -- branch and bound ----------------------------------------------------------------


def _bnb(X, x, centers, radii, children, members, to_center, *,
         rule1=lambda d, B, r: d > B + r,
         rule2=lambda d, B, c: d > B + c or c > B + d,
         order="nearest", update="course", squared=False, stale=False,
         leaf_order=None):  # fmt: skip
    state = {"nn": -1, "B": np.inf}
    evaluated = []

    def dist(a, b):
        return float(((a - b) ** 2).sum()) if squared else float(np.linalg.norm(a - b))

    def visit(p):
        kids = np.asarray(children[p], dtype=int)
        if len(kids) == 0:
            d = float(np.linalg.norm(x - centers[p]))
            pairs = list(zip(members[p], to_center[p]))
            if leaf_order is not None:
                pairs = leaf_order(pairs)
            for i, c in pairs:
                if rule2(d, state["B"], c):
                    continue
                D = dist(x, X[i])
                evaluated.append(int(i))
                better = {
                    "course": D < state["B"] or (D == state["B"] and i < state["nn"]),
                    "strict": D < state["B"],
                    "or equal": D <= state["B"],
                }[update]
                if better:
                    state["nn"], state["B"] = int(i), D
            return
        d = np.array([np.linalg.norm(x - centers[q]) for q in kids])
        if order == "nearest":
            kids = kids[np.argsort(d, kind="stable")]
        elif order == "lower bound":
            kids = kids[np.argsort(d - radii[kids], kind="stable")]
        if stale:  # rule 1 for every child at once, with B as it is now
            B = state["B"]
            kids = [
                q
                for q in kids
                if not rule1(np.linalg.norm(x - centers[q]), B, radii[q])
            ]
        for q in kids:
            if not rule1(np.linalg.norm(x - centers[q]), state["B"], radii[q]) or stale:
                visit(int(q))

    visit(0)
    return state["nn"], state["B"], evaluated


@right("branch_and_bound")
def branch_and_bound(X, x, centers, radii, children, members, to_center):
    return _bnb(X, x, centers, radii, children, members, to_center)


for _name, _kwargs in {
    "rule 1 without r_p": {"rule1": lambda d, B, r: d > B},
    "no rule 1": {"rule1": lambda d, B, r: False},
    "rule 2 one side": {"rule2": lambda d, B, c: d > B + c},
    "rule 2 other side only": {"rule2": lambda d, B, c: c > B + d},
    "rule 2 wrong side": {"rule2": lambda d, B, c: d > B - c},
    "children in their order": {"order": "listed"},
    "children by lower bound": {"order": "lower bound"},
    "B squared": {"squared": True},
    "first found of equal distances": {"update": "strict"},
    "last found of equal distances": {"update": "or equal"},
    "rule 1 with B of the expansion": {"stale": True},
    "leaf in index order": {"leaf_order": sorted},
}.items():

    def _bnb_mutant(
        X, x, centers, radii, children, members, to_center, _kwargs=_kwargs
    ):
        return _bnb(X, x, centers, radii, children, members, to_center, **_kwargs)

    _bnb_mutant.__name__ = "bnb_" + _name.replace(" ", "_")
    MUTANTS["branch_and_bound"].append(_bnb_mutant)


@wrong("branch_and_bound")
def bnb_never_updates_b(X, x, centers, radii, children, members, to_center):
    nn, _, evaluated = _bnb(
        X, x, centers, radii, children, members, to_center,
        rule1=lambda d, B, r: False, rule2=lambda d, B, c: False,
    )  # fmt: skip
    return nn, float(np.linalg.norm(x - X[nn])), evaluated


# -- Wilson editing ----------------------------------------------------------------


def _wilson(X, labels, k=3, *, neighbours=None, vote=None, distance=norms):
    n = len(X)
    wrong = np.zeros(n, dtype=bool)
    D = np.array([distance(X, x) for x in X])
    for j in range(n):
        if neighbours is None:
            d = D[j].copy()
            d[j] = np.inf
            nearest = np.argsort(d, kind="stable")[:k]
        else:
            nearest = neighbours(D, j, k)
        counts = np.bincount(labels[nearest], minlength=labels.max() + 1)
        won = int(np.argmax(counts)) if vote is None else vote(counts, labels[j])
        wrong[j] = won != labels[j]
    return np.flatnonzero(~wrong)


@right("wilson_editing")
def wilson_editing(X, labels, k=3):
    return _wilson(X, labels, k)


def _without_zero_distances(D, j, k):
    d = D[j].copy()
    d[d == 0] = np.inf
    return np.argsort(d, kind="stable")[:k]


for _name, _kwargs in {
    "drops the first column": {
        "neighbours": lambda D, j, k: np.argsort(D, axis=1, kind="stable")[j, 1 : k + 1]
    },
    "counts itself": {
        "neighbours": lambda D, j, k: np.argsort(D[j], kind="stable")[:k]
    },
    "leaves out every duplicate": {"neighbours": _without_zero_distances},
    "k + 1 with itself": {
        "neighbours": lambda D, j, k: np.argsort(D[j], kind="stable")[: k + 1]
    },
    "1-NN whatever k": {
        "neighbours": lambda D, j, k: np.argsort(
            np.where(np.arange(len(D)) == j, np.inf, D[j]), kind="stable"
        )[:1]
    },
    "a tie keeps the sample": {
        "vote": lambda counts, theta: theta if counts[theta] == counts.max() else -1
    },
    "last of equal votes": {
        "vote": lambda counts, theta: len(counts) - 1 - int(np.argmax(counts[::-1]))
    },
    "city block": {"distance": lambda X, x: np.abs(X - x).sum(axis=1)},
}.items():

    def _wilson_mutant(X, labels, k=3, _kwargs=_kwargs):
        return _wilson(X, labels, k, **_kwargs)

    _wilson_mutant.__name__ = "wilson_" + _name.replace(" ", "_")
    MUTANTS["wilson_editing"].append(_wilson_mutant)


@wrong("wilson_editing")
def wilson_removes_as_it_goes(X, labels, k=3):
    alive = np.ones(len(X), dtype=bool)
    for j in range(len(X)):
        others = np.flatnonzero(alive & (np.arange(len(X)) != j))
        nearest = others[np.argsort(norms(X[others], X[j]), kind="stable")[:k]]
        if np.argmax(np.bincount(labels[nearest])) != labels[j]:
            alive[j] = False
    return np.flatnonzero(alive)


@wrong("wilson_editing")
def wilson_repeated_until_nothing_changes(X, labels, k=3):
    kept = np.arange(len(X))
    while True:
        again = kept[wilson_editing(X[kept], labels[kept], k)]
        if len(again) == len(kept) or len(again) <= k:
            return again
        kept = again


@wrong("wilson_editing")
def wilson_returns_the_removed(X, labels, k=3):
    return np.setdiff1d(np.arange(len(X)), wilson_editing(X, labels, k))


# -- multi-edit --------------------------------------------------------------------


def _multiedit(X, labels, n_splits=3, seed=0, max_iter=100, *, judge=1,
               fresh_rng=False, at_once=True, last_empty=True, rounds_of=None,
               nearest=None, split=None):  # fmt: skip
    rng = np.random.default_rng(seed)
    remaining = np.arange(len(X))
    discarded = []
    while len(discarded) < (max_iter if rounds_of is None else rounds_of(max_iter)):
        if len(remaining) < n_splits:
            break
        if fresh_rng:
            rng = np.random.default_rng(seed)
        subsets = (
            np.array_split(rng.permutation(remaining), n_splits)
            if split is None
            else split(rng, remaining, n_splits)
        )
        gone = set()
        for i, judged in enumerate(subsets):
            by = subsets[(i + judge) % n_splits]
            if not at_once:
                by = np.array([m for m in by if m not in gone], dtype=int)
            for j in judged:
                pool = by[by != j]
                if len(pool) == 0:
                    continue
                d = norms(X[pool], X[j])
                m = pool[np.argmin(d) if nearest is None else nearest(d)]
                if labels[m] != labels[j]:
                    gone.add(int(j))
        if gone or last_empty:
            discarded.append(np.array(sorted(gone), dtype=int))
        if not gone:
            break
        remaining = np.setdiff1d(remaining, sorted(gone))
    return remaining, discarded


@right("multiedit")
def multiedit(X, labels, n_splits=3, seed=0, max_iter=100):
    return _multiedit(X, labels, n_splits, seed, max_iter)


for _name, _kwargs in {
    "judged by itself": {"judge": 0},
    "judged by the previous": {"judge": -1},
    "a new generator each round": {"fresh_rng": True},
    "discards at once": {"at_once": False},
    "no last empty round": {"last_empty": False},
    "one round more than max_iter": {"rounds_of": lambda m: m + 1},
    "last of equal distances": {
        "nearest": lambda d: len(d) - 1 - int(np.argmin(d[::-1]))
    },
    "permutes positions": {
        "split": lambda rng, remaining, s: np.array_split(
            rng.permutation(len(remaining)), s
        )
    },
    "permutes every sample": {
        "split": lambda rng, remaining, s: np.array_split(
            [
                j
                for j in rng.permutation(int(remaining.max()) + 1)
                if j in set(remaining)
            ],
            s,
        )
    },
    "np.split": {
        "split": lambda rng, remaining, s: np.split(
            rng.permutation(remaining),
            np.linspace(0, len(remaining), s + 1)[1:-1].astype(int),
        )
    },
}.items():

    def _multiedit_mutant(X, labels, n_splits=3, seed=0, max_iter=100, _kwargs=_kwargs):
        return _multiedit(X, labels, n_splits, seed, max_iter, **_kwargs)

    _multiedit_mutant.__name__ = "multiedit_" + _name.replace(" ", "_")
    MUTANTS["multiedit"].append(_multiedit_mutant)


@wrong("multiedit")
def multiedit_judged_by_all_the_others(X, labels, n_splits=3, seed=0, max_iter=100):
    rng = np.random.default_rng(seed)
    remaining = np.arange(len(X))
    discarded = []
    while len(discarded) < max_iter and len(remaining) >= n_splits:
        subsets = np.array_split(rng.permutation(remaining), n_splits)
        gone = []
        for i, judged in enumerate(subsets):
            by = np.concatenate([s for r, s in enumerate(subsets) if r != i])
            for j in judged:
                m = by[np.argmin(norms(X[by], X[j]))]
                if labels[m] != labels[j]:
                    gone.append(int(j))
        discarded.append(np.array(gone, dtype=int))
        if not gone:
            break
        remaining = np.setdiff1d(remaining, gone)
    return remaining, discarded


# -- Hart's condensing ---------------------------------------------------------------


def _hart(X, labels, *, passes=None, pool="store", judge="nearest stored first",
          at_once=True, start=None, restart=False):  # fmt: skip
    store = [0] if start is None else start(labels)
    done = 0
    while passes is None or done < passes:
        moved = []
        j = 0
        while j < len(X):
            if j in store:
                j += 1
                continue
            if pool == "store":
                among = np.array(store)
            else:
                among = np.array([i for i in range(len(X)) if i != j])
            d = norms(X[among], X[j])
            if judge == "nearest stored first":
                m = among[np.argmin(d)]
            elif judge == "lowest index":
                m = among[np.lexsort((among, d))[0]]
            else:  # the last stored of equal distances
                m = among[len(d) - 1 - int(np.argmin(d[::-1]))]
            if labels[m] != labels[j]:
                if at_once:
                    store.append(j)
                moved.append(j)
                if restart:
                    j = 0
                    continue
            j += 1
        if not at_once:
            store.extend(moved)
        done += 1
        if not moved:
            break
    return store


@right("hart_condensing")
def hart_condensing(X, labels):
    return _hart(X, labels)


for _name, _kwargs in {
    "one pass": {"passes": 1},
    "judged by the whole set": {"pool": "whole"},
    "the lowest index of equal distances": {"judge": "lowest index"},
    "the last stored of equal distances": {"judge": "last stored"},
    "stores at the end of the pass": {"at_once": False},
    "starts with one sample per class": {
        "start": lambda labels: sorted(
            int(np.flatnonzero(labels == c)[0]) for c in np.unique(labels)
        )
    },
    "restarts the pass after a move": {"restart": True},
}.items():

    def _hart_mutant(X, labels, _kwargs=_kwargs):
        return _hart(X, labels, **_kwargs)

    _hart_mutant.__name__ = "hart_" + _name.replace(" ", "_")
    MUTANTS["hart_condensing"].append(_hart_mutant)


@wrong("hart_condensing")
def hart_sorted_store(X, labels):
    return sorted(hart_condensing(X, labels))


@wrong("hart_condensing")
def hart_stores_the_correct(X, labels):
    store = [0]
    moved = True
    while moved:
        moved = False
        for j in range(1, len(X)):
            if j in store:
                continue
            m = store[int(np.argmin(norms(X[store], X[j])))]
            if labels[m] == labels[j]:
                store.append(j)
                moved = True
    return store


# -- the tests ------------------------------------------------------------------------


def _in_process(name, function, seed):
    return check(name, function, seed=seed, isolated=False)


def test_every_exercise_has_a_right_implementation_and_eight_wrong_ones():
    assert sorted(CORRECT) == sorted(names())
    counts = {name: len(MUTANTS[name]) for name in names()}
    assert min(counts.values()) >= 8, counts


@pytest.mark.parametrize("name", names())
def test_the_right_implementation_passes_at_every_seed(name):
    assert check(name, CORRECT[name])  # the default seed, as a student runs it
    failed = {
        seed: str(result)
        for seed in SEEDS
        if not (result := _in_process(name, CORRECT[name], seed))
    }
    assert not failed, failed


@pytest.mark.parametrize(
    "name, function",
    [(name, function) for name in names() for function in MUTANTS[name]],
    ids=[function.__name__ for name in names() for function in MUTANTS[name]],
)
def test_a_wrong_implementation_fails_at_every_seed(name, function):
    assert not check(name, function)  # the default seed, as a student runs it
    passed = [seed for seed in SEEDS if _in_process(name, function, seed)]
    assert passed == []


# -- the hints: a cause named only when the whole output is that cause's -------------

# The words of the hint each wrong implementation gets at the default seed.  Those
# not listed get a hint that says only what the rule does where they part from it,
# or none; none of them is told of a mistake it does not make.
HINTS = {
    "perceptron_tie_is_correct": "A tie, z a . y = 0, is a mistake too",
    "perceptron_bias_never_moves": "The bias moves too",
    "perceptron_rho_ignored": "not ρ z y with ρ = 0.5",
    "perceptron_normalised_step": "times the rule's ρ z y",
    "machine_argmax_prediction": "only when argmax_j g_j(x) is not i",
    "machine_tie_is_correct": "A tie is a mistake too",
    "machine_lowers_every_rival": "you lowered every class",
    "machine_last_best_rival": "you lowered the last",
    "machine_raises_only": "the rival's loses ρ y",
    "machine_rho_ignored": "not ρ y with ρ = 0.5",
    "piecewise_tie_is_correct": "A tie is a mistake too",
    "piecewise_raises_the_first_subclass": "raised the first subclass",
    "piecewise_rivals_in_its_own_class_too": "the OTHER classes",
    "piecewise_lowers_every_rival_at_least_as_high": "lowered every subclass",
    "piecewise_the_last_of_equal_rivals": "you lowered the last",
    "piecewise_rho_ignored": "not ρ y with ρ = 0.5",
    "piecewise_subclass-major_rows": "ordered subclass by subclass",
    "piecewise_argmax_prediction": "only when argmax_i g_i(x)",
    "kesler_one_in_front": "holds (1, x)",
    "kesler_interleaved": "interleaves",
    "kesler_minus_y_elsewhere": "holds -y",
    "kesler_y_in_every_block": "holds y too",
    "codes_zero_is_a_disagreement": "You counted a 0 as a disagreement",
    "codes_hamming_without_halves": "you left out the / 2",
    "codes_mean_not_sum": "the means of the terms",
    "codes_exp_of_plus_z": "you used -z",
    "fisher_S_b_alone": "eigenvector of S_b alone",
    "fisher_rows_of_V": "a row of the eigenvector matrix",
    "qda_pooled_covariance": "covariance of all the samples",
    "qda_course's_form_halved_without_its_factor_2": (
        "0.5 ln P(ω_i) where the rule has ln P(ω_i) (a factor 2 missing)"
    ),
    "qda_log10_determinant": "a base-10 logarithm",
    "minimum_distance_city_block": "city-block",
    "minimum_distance_chebyshev": "Chebyshev",
    "minimum_distance_classes_in_order_of_appearance": "order in which the classes",
    "knn_city_block": "city-block",
    "knn_farthest": "k farthest",
    "bnb_rule_1_without_r_p": "without r_p",
    "bnb_B_squared": "keeps B as the square",
    "bnb_never_updates_b": "You do not update B",
    "bnb_rule_1_with_B_of_the_expansion": "with the B of the moment the node",
    "wilson_drops_the_first_column": "dropping the first column",
    "wilson_counts_itself": "counted as its own neighbour",
    "wilson_leaves_out_every_duplicate": "You left out every sample at distance 0",
    "wilson_a_tie_keeps_the_sample": "class is among the most voted",
    "wilson_last_of_equal_votes": "the class with the highest index",
    "wilson_removes_as_it_goes": "You removed samples one by one",
    "multiedit_judged_by_itself": "with itself",
    "multiedit_judged_by_the_previous": "by the previous subset",
    "multiedit_a_new_generator_each_round": "generator anew each round",
    "multiedit_discards_at_once": "within the same round",
    "multiedit_last_of_equal_distances": "you took the last",
    "multiedit_judged_by_all_the_others": "all the other subsets together",
    "hart_judged_by_the_whole_set": "whole training set",
    "hart_stores_at_the_end_of_the_pass": "at the end of the pass",
    "hart_starts_with_one_sample_per_class": "one sample of each class",
    "hart_stores_the_correct": "Your test is inverted",
}

# words that name a cause: a hint with one of them must be the mutant's own
CAUSES = {
    "one by one": "wilson_removes_as_it_goes",
    "counted as its own neighbour": "wilson_counts_itself",
    "keeps B as the square": "bnb_B_squared",
    "whole training set": "hart_judged_by_the_whole_set",
    "Your test is inverted": "hart_stores_the_correct",
}


def _mutants():
    return [(name, function) for name in names() for function in MUTANTS[name]]


@pytest.mark.parametrize(
    "name, function", _mutants(), ids=[f.__name__ for _, f in _mutants()]
)
def test_a_hint_names_only_the_mistake_made(name, function):
    hint = check(name, function).divergence.hint or ""
    if function.__name__ in HINTS:
        assert HINTS[function.__name__] in hint, hint
    for words, mutant in CAUSES.items():
        if words in hint:
            assert function.__name__ == mutant, hint


def test_every_hint_listed_is_a_mutant():
    assert set(HINTS) <= {function.__name__ for _, function in _mutants()}


def test_the_false_pass_of_the_issue_is_caught_and_named_at_every_seed():
    """Leave-one-out by dropping the first column of the sorted distances: wrong
    when a duplicate with a lower index sorts first (issue 39)."""
    (function,) = [f for f in MUTANTS["wilson_editing"] if "first_column" in f.__name__]
    for seed in SEEDS:
        result = check("wilson_editing", function, seed=seed)
        assert not result
        assert "dropping the first column" in result.divergence.hint
        assert "one by one" not in result.divergence.hint


def test_a_search_keeping_b_squared_is_shown_its_own_b():
    (function,) = [
        f for f in MUTANTS["branch_and_bound"] if f.__name__ == "bnb_B_squared"
    ]
    result = check("branch_and_bound", function)
    assert result.divergence.where.startswith("evaluation")
    message = result.divergence.message
    assert "yours is NN = 5, B = 0.73: 0.73 = 0.8544² = D(x, x_NN)²" in message
    assert "The rule's answer is NN = 5, B = D(x, x_NN) = 0.8544" in message

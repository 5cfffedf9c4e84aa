"""The nearest-neighbour chapter's exercises: reference solutions pass, classic
mistakes are named."""

import numpy as np
import pytest

from patrec.exercises import check, template


def distances(X, x, *, metric="euclidean"):
    diff = np.asarray(X, dtype=float) - x
    if metric == "cityblock":
        return np.abs(diff).sum(axis=1)
    return np.sqrt((diff**2).sum(axis=1))


def vote(classes, *, tie=np.argmax):
    return int(tie(np.bincount(classes)))


# -- the k-NN rule ------------------------------------------------------------------


def knn(X, labels, queries, k, *, metric="euclidean", order=None, tie=np.argmax):
    order = order or (lambda d: np.argsort(d, kind="stable")[:k])
    neighbors = np.array([order(distances(X, x, metric=metric)) for x in queries])
    predictions = np.array([vote(labels[row], tie=tie) for row in neighbors])
    return neighbors, predictions


def last_maximum(counts):
    return len(counts) - 1 - int(np.argmax(counts[::-1]))


def higher_index_first(d, k):
    """The k nearest, in increasing distance but equal distances higher index first."""
    nearest = np.argsort(d, kind="stable")[:k]
    return nearest[np.lexsort((-nearest, d[nearest]))]


# -- branch and bound ---------------------------------------------------------------


def branch_and_bound(
    X,
    x,
    centers,
    radii,
    children,
    members,
    to_center,
    *,
    rule1=lambda d, B, r: d > B + r,
    rule2=lambda d, B, c: d > B + c or c > B + d,
    nearest_first=True,
    update=True,
):
    state = {"nn": -1, "B": np.inf}
    evaluated = []

    def visit(p):
        kids = np.asarray(children[p])
        if len(kids) == 0:
            d = np.linalg.norm(x - centers[p])
            for i, c in zip(members[p], to_center[p]):
                if rule2(d, state["B"], c):
                    continue
                D = np.linalg.norm(x - X[i])
                evaluated.append(int(i))
                if D < state["B"] or (D == state["B"] and i < state["nn"]):
                    state["nn"] = int(i)
                    if update:
                        state["B"] = D
            return
        if nearest_first:
            d = [np.linalg.norm(x - centers[q]) for q in kids]
            kids = kids[np.argsort(d, kind="stable")]
        for q in kids:
            if not rule1(np.linalg.norm(x - centers[q]), state["B"], radii[q]):
                visit(int(q))

    visit(0)
    B = state["B"] if update else np.linalg.norm(x - X[state["nn"]])
    return state["nn"], B, evaluated


# -- Wilson editing -----------------------------------------------------------------


def wilson_editing(X, labels, k=3, *, own=False, sequential=False):
    n = len(X)
    alive = np.ones(n, dtype=bool)
    wrong = np.zeros(n, dtype=bool)
    for j in range(n):
        d = distances(X, X[j])
        candidates = np.flatnonzero(alive if sequential else np.ones(n, dtype=bool))
        if not own:
            candidates = candidates[candidates != j]
        nearest = candidates[np.argsort(d[candidates], kind="stable")[:k]]
        wrong[j] = vote(labels[nearest]) != labels[j]
        if sequential and wrong[j]:
            alive[j] = False
    return np.flatnonzero(~wrong)


# -- multi-edit ---------------------------------------------------------------------


def multiedit(X, labels, n_splits=3, seed=0, max_iter=100, *, judge=1, rounds=None):
    rng = np.random.default_rng(seed)
    remaining = np.arange(len(X))
    discarded = []
    while len(discarded) < (rounds or max_iter) and len(remaining) >= n_splits:
        subsets = np.array_split(rng.permutation(remaining), n_splits)
        out = []
        for i, judged in enumerate(subsets):
            by = subsets[(i + judge) % n_splits]
            for j in judged:
                pool = by[by != j]
                m = pool[np.argmin(distances(X[pool], X[j]))]
                if labels[m] != labels[j]:
                    out.append(int(j))
        discarded.append(np.array(out, dtype=int))
        if not out:
            break
        remaining = np.setdiff1d(remaining, out)
    return remaining, discarded


# -- Hart's condensing --------------------------------------------------------------


def hart_condensing(X, labels, *, passes=None, whole=False, keep_correct=False):
    store = [0]
    done = 0
    while passes is None or done < passes:
        moved = False
        for j in range(len(X)):
            if j in store:
                continue
            pool = np.array([i for i in range(len(X)) if i != j]) if whole else store
            pool = np.asarray(pool)
            m = pool[np.argmin(distances(X[pool], X[j]))]
            if (labels[m] == labels[j]) == keep_correct:
                store.append(j)
                moved = True
        done += 1
        if not moved:
            break
    return store


# -- the tests ----------------------------------------------------------------------

SOLUTIONS = {
    "knn": knn,
    "branch_and_bound": branch_and_bound,
    "wilson_editing": wilson_editing,
    "multiedit": multiedit,
    "hart_condensing": hart_condensing,
}


@pytest.mark.parametrize("name", list(SOLUTIONS))
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_reference_solutions_pass(name, seed):
    result = check(name, SOLUTIONS[name], seed=seed)
    assert result.passed, str(result)
    assert result.n_passed == result.n_cases >= 4


@pytest.mark.parametrize("name", list(SOLUTIONS))
def test_templates_have_the_signature(name):
    namespace = {}
    exec(template(name), namespace)
    assert not check(name, namespace[name])  # NotImplementedError is reported


MISTAKES = [
    # (exercise, the student's function, substrings of the report)
    (
        "knn",
        lambda X, labels, queries, k: knn(
            X, labels, queries, k, order=lambda d: np.argsort(d)[::-1][:k]
        ),
        ["query 0", "the 3 nearest are", "you sorted the wrong way"],
    ),
    (
        "knn",
        lambda X, labels, queries, k: knn(
            X,
            labels,
            queries,
            k,
            order=lambda d: np.argsort(d, kind="stable")[1 : k + 1],
        ),
        ["query 0", "k off by one"],
    ),
    (
        "knn",
        lambda X, labels, queries, k: knn(
            X, labels, queries, k, order=lambda d: np.argsort(d, kind="stable")[: k + 1]
        ),
        ["columns", "k off by one"],
    ),
    (
        "knn",
        lambda X, labels, queries, k: knn(X, labels, queries, k, tie=last_maximum),
        ["the vote", "→ ω₁; you said ω₂", "Equal votes"],
    ),
    (
        "knn",
        lambda X, labels, queries, k: knn(X, labels, queries, k, metric="cityblock"),
        ["city-block"],
    ),
    (
        "branch_and_bound",
        lambda *args: branch_and_bound(*args, rule2=lambda d, B, c: d > B - c),
        ["evaluation", "rule 2 keeps X[", "wrong side of the triangle inequality"],
    ),
    (
        "branch_and_bound",
        lambda *args: branch_and_bound(*args, rule1=lambda d, B, r: d > B),
        ["rule 1 kept its nodes", "without r_p"],
    ),
    (
        "branch_and_bound",
        lambda *args: branch_and_bound(*args, rule2=lambda d, B, c: d > B + c),
        ["the other side of rule 2 skips it", "Rule 2 has two sides"],
    ),
    (
        "knn",
        lambda X, labels, queries, k: knn(
            X, labels, queries, k, order=lambda d: higher_index_first(d, k)
        ),
        ["same samples in another order", "both at distance", "lower index first"],
    ),
    (
        "branch_and_bound",
        lambda *args: branch_and_bound(*args, rule1=lambda d, B, r: False),
        ["rule 1 prunes node", "You do not apply rule 1"],
    ),
    (
        "branch_and_bound",
        lambda *args: branch_and_bound(*args, nearest_first=False),
        ["evaluation 1", "nearest first"],
    ),
    (
        "branch_and_bound",
        lambda *args: branch_and_bound(*args, update=False),
        ["rule 1 prunes node", "You do not update B"],
    ),
    (
        "wilson_editing",
        lambda X, labels, k=3: wilson_editing(X, labels, k, own=True),
        ["nearest other samples", "its own neighbour"],
    ),
    (
        "wilson_editing",
        lambda X, labels, k=3: wilson_editing(X, labels, k, sequential=True),
        ["its 2 nearest other samples", "one by one", "at once"],
    ),
    (
        "multiedit",
        lambda X, labels, n_splits=3, seed=0, max_iter=100: multiedit(
            X, labels, n_splits, seed, max_iter, judge=0
        ),
        ["round 1, sample", "judged by subset", "with itself"],
    ),
    (
        "multiedit",
        lambda X, labels, n_splits=3, seed=0, max_iter=100: multiedit(
            X, labels, n_splits, seed, max_iter, rounds=1
        ),
        ["the end of round 1", "until a round discards nothing"],
    ),
    (
        "hart_condensing",
        lambda X, labels: hart_condensing(X, labels, passes=1),
        ["pass 2, sample", "your function stopped", "until a pass moves nothing"],
    ),
    (
        "hart_condensing",
        lambda X, labels: hart_condensing(X, labels, whole=True),
        ["whole training set"],
    ),
    (
        "hart_condensing",
        lambda X, labels: hart_condensing(X, labels, keep_correct=True),
        ["it moves into the store; you stored X[", "Your test is inverted"],
    ),
    (
        "hart_condensing",
        lambda X, labels: sorted(hart_condensing(X, labels)),
        ["the order of the store", "exactly the rule's samples", "do not sort"],
    ),
]


@pytest.mark.parametrize(
    "name, function, expected",
    MISTAKES,
    ids=[f"{name}-{number}" for number, (name, _, _) in enumerate(MISTAKES)],
)
def test_classic_mistakes_are_named(name, function, expected):
    result = check(name, function)
    assert result.passed is False
    report = str(result)
    for text in expected:
        assert text in report, report


@pytest.mark.parametrize(
    "name, function",
    [(name, function) for name, function, _ in MISTAKES],
    ids=[f"{name}-{number}" for number, (name, _, _) in enumerate(MISTAKES)],
)
def test_classic_mistakes_are_caught_whatever_the_seed(name, function):
    """A teacher's seed must not let a mistake through: the hand-made cases and
    enough random ones make every listed mistake show on every seed."""
    passed = [
        seed for seed in range(30) if check(name, function, seed=seed, isolated=False)
    ]
    assert passed == []


def test_reports_are_deterministic():
    for name, function, _ in MISTAKES[::3]:
        assert str(check(name, function, seed=3)) == str(check(name, function, seed=3))


def test_reports_print_and_render():
    result = check(
        "hart_condensing", lambda X, labels: hart_condensing(X, labels, passes=1)
    )
    assert "Hint:" in str(result)
    assert "patrec-check" in result._repr_html_()


# --- what a student's review found ------------------------------------------------


def test_multiedit_judged_by_the_previous_subset_is_named_so():
    result = check(
        "multiedit",
        lambda X, labels, n_splits=3, seed=0, max_iter=100: multiedit(
            X, labels, n_splits, seed, max_iter, judge=-1
        ),
    )
    assert not result
    assert "previous subset" in result.divergence.hint


def test_knn_predicting_no_class_says_so():
    def mistaken(X, labels, queries, k):
        neighbors, predictions = knn(X, labels, queries, k)
        return neighbors, np.full(len(queries), 7)

    result = check("knn", mistaken)
    assert (
        "you said 7, which is not a class index (0 to 1)" in result.divergence.message
    )


def test_a_repeated_index_is_called_a_repetition():
    def mistaken(X, labels, k=3):
        kept = wilson_editing(X, labels, k)
        return np.append(kept, kept[0])

    result = check("wilson_editing", mistaken)
    assert "more than once" in result.divergence.message


def test_a_fractional_nearest_neighbour_is_refused():
    def mistaken(*args):
        nn, B, evaluated = branch_and_bound(*args)
        return nn + 0.5, B, evaluated

    result = check("branch_and_bound", mistaken)
    assert "nn must be an int" in result.divergence.message

"""The linear chapter's exercises: reference solutions pass, classic mistakes are named."""

import numpy as np
import pytest

from patrec.exercises import check


def augment(X):
    return np.hstack([X, np.ones((len(X), 1))])


def perceptron(
    X,
    labels,
    rho=1.0,
    max_epochs=100,
    *,
    test=lambda s: s <= 0,
    augmented=True,
    copy=True,
):
    Y = augment(X) if augmented else np.array(X)
    a, steps = np.zeros(Y.shape[1]), []
    for _ in range(max_epochs):
        mistakes = 0
        for y, z in zip(Y, labels):
            if test(z * (a @ y)):
                a += rho * z * y
                mistakes += 1
            steps.append(a.copy() if copy else a)
        if mistakes == 0:
            break
    return a, steps


def winner(A, i, y, rho):
    """The course's rule: raise the class, lower its best-scoring rival on a mistake."""
    g = A @ y
    others = g.copy()
    others[i] = -np.inf
    j = int(np.argmax(others))
    if g[j] < g[i]:
        return False
    A[i] += rho * y
    A[j] -= rho * y
    return True


def linear_machine(X, labels, n_classes, rho=1.0, max_epochs=100, *, correct=winner):
    Y = augment(X)
    A, steps = np.zeros((n_classes, Y.shape[1])), []
    for _ in range(max_epochs):
        mistakes = 0
        for y, i in zip(Y, labels):
            mistakes += correct(A, i, y, rho)
            steps.append(A.copy())
        if mistakes == 0:
            break
    return A, steps


def kesler(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j, i in enumerate(labels):
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(X[j], 1.0)
    return psi


@pytest.mark.parametrize(
    "name, solution",
    [
        ("perceptron", perceptron),
        ("linear_machine", linear_machine),
        ("kesler", kesler),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_reference_solutions_pass(name, solution, seed):
    result = check(name, solution, seed=seed)
    assert result.passed, str(result)
    assert bool(result) and "passed" in str(result)


# --- the perceptron -------------------------------------------------------------


def test_perceptron_without_the_augmented_one():
    mistaken = lambda *args: perceptron(*args, augmented=False)  # noqa: E731
    result = check("perceptron", mistaken)
    assert not result
    assert "forgot the augmented 1" in result.divergence.hint
    assert "d + 1 = 3" in result.divergence.message


def test_perceptron_with_ties_counted_as_correct():
    result = check("perceptron", lambda *a: perceptron(*a, test=lambda s: s < 0))
    assert not result
    assert result.divergence.where.startswith(
        "epoch 1, step t = 1: sample X[0] of class ω₂ (z = -1)"
    )
    assert "z a . y = 0" in result.divergence.message
    assert "A tie" in result.divergence.hint
    assert "your function left a unchanged" in result.divergence.message


def test_perceptron_moving_the_wrong_way():
    def mistaken(X, labels, rho=1.0, max_epochs=100):
        return perceptron(X, -labels, rho, max_epochs)  # corrections of the wrong sign

    result = check("perceptron", mistaken)
    assert not result
    assert "wrong way" in result.divergence.hint


def test_perceptron_stopping_after_one_epoch():
    result = check("perceptron", lambda X, z, rho, e: perceptron(X, z, rho, 1))
    assert not result
    assert "stopped after 6 visits" in result.divergence.message
    assert "epoch without a correction" in result.divergence.hint or "Stop only" in (
        result.divergence.hint
    )


def test_perceptron_keeping_one_array_in_its_steps():
    mistaken = lambda *args: perceptron(*args, copy=False)  # noqa: E731
    result = check("perceptron", mistaken)
    assert not result
    assert "steps.append(a.copy())" in result.divergence.hint


def test_perceptron_ignoring_rho_is_shown_the_value_of_rho():
    def mistaken(X, labels, rho=1.0, max_epochs=100):
        return perceptron(X, labels, 1.0, max_epochs)  # rho ignored

    result = check("perceptron", mistaken)
    assert not result
    assert "a ← a + ρ z y with ρ = 0.5: a = " in result.divergence.message


# --- the linear machine ---------------------------------------------------------


def first_outscoring(A, i, y, rho):
    g = A @ y
    rivals = [j for j in range(len(g)) if j != i and g[j] >= g[i]]
    if rivals:
        A[i] += rho * y
        A[rivals[0]] -= rho * y
    return bool(rivals)


def update_all(A, i, y, rho):
    g = A @ y
    rivals = [j for j in range(len(g)) if j != i and g[j] >= g[i]]
    if rivals:
        A[i] += rho * y
        A[rivals] -= rho * y
    return bool(rivals)


def raise_only(A, i, y, rho):
    g = A @ y
    mistake = any(g[j] >= g[i] for j in range(len(g)) if j != i)
    if mistake:
        A[i] += rho * y
    return mistake


def ties_as_correct(A, i, y, rho):
    g = A @ y
    others = g.copy()
    others[i] = -np.inf
    if g[i] == others.max():  # a tie taken for a correct answer
        return False
    return winner(A, i, y, rho)


def mistaken_machine(correct):
    return lambda *args: linear_machine(*args, correct=correct)


def test_linear_machine_correcting_the_first_rival_not_the_best():
    result = check("linear_machine", mistaken_machine(first_outscoring))
    assert not result
    assert "the first class that scored" in result.divergence.hint
    assert "the best-scoring other class" in result.divergence.hint
    where = result.divergence.where
    assert where.startswith("epoch ") and "of class ω" in where


def test_linear_machine_lowering_every_outscoring_class():
    result = check("linear_machine", mistaken_machine(update_all))
    assert not result
    assert result.divergence.where == "epoch 1, step t = 1: sample X[0] of class ω₁"
    assert "a₁ += ρ y and a₂ -= ρ y" in result.divergence.message
    assert (
        "your function added [0, 0, 1] to a₁, subtracted [0, 0, 1] from a₂, "
        "subtracted [0, 0, 1] from a₃" in result.divergence.message
    )
    assert "lowers one rival" in result.divergence.hint


def test_linear_machine_without_lowering_the_rival():
    result = check("linear_machine", mistaken_machine(raise_only))
    assert not result
    assert "the rival's loses ρ y" in result.divergence.hint


def test_linear_machine_treating_ties_as_correct():
    result = check("linear_machine", mistaken_machine(ties_as_correct))
    assert not result
    assert "A tie is a mistake too" in result.divergence.hint


# --- Kesler's construction ------------------------------------------------------


def test_kesler_without_the_augmented_one():
    def mistaken(X, labels, n_classes):
        n, d = X.shape
        psi = np.zeros((n, n_classes * d))
        for j, i in enumerate(labels):
            psi[j, i * d : (i + 1) * d] = X[j]
        return psi

    result = check("kesler", mistaken)
    assert not result
    assert "forgot the augmented 1" in result.divergence.hint


def test_kesler_with_the_block_of_the_next_class():
    def mistaken(X, labels, n_classes):
        return kesler(X, (np.asarray(labels) + 1) % n_classes, n_classes)

    result = check("kesler", mistaken)
    assert not result
    assert result.divergence.where == "row 0: sample X[0] of class ω₁"
    assert "Your row has y in block 1" in result.divergence.hint


def test_kesler_interleaving_the_classes():
    def mistaken(X, labels, n_classes):
        n, d = X.shape
        psi = kesler(X, labels, n_classes).reshape(n, n_classes, d + 1)
        return psi.transpose(0, 2, 1).reshape(n, -1)

    result = check("kesler", mistaken)
    assert not result
    assert "interleaves" in result.divergence.hint


def test_steps_recorded_only_at_corrections_are_told_apart():
    def mistaken(X, labels, rho=1.0, max_epochs=100):
        a, steps = perceptron(X, labels, rho, max_epochs)
        kept = [
            W
            for W, before in zip(steps, [np.zeros_like(a)] + steps)
            if (W != before).any()
        ]
        return a, kept

    result = check("perceptron", mistaken)
    assert not result
    assert "after every visit" in result.divergence.message
    assert "also when it is classified correctly" in result.divergence.hint


def test_an_error_points_at_the_students_own_line():
    def broken(X, labels, n_classes, rho=1.0, max_epochs=100):
        return np.linalg.inv(np.zeros((2, 2)))  # singular

    result = check("linear_machine", broken)
    assert "raised LinAlgError" in result.divergence.message
    assert "of broken)" in result.divergence.message

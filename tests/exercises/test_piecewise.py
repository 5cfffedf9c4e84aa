"""The checker of the minimum-distance exercise is checked.

The reference solution is plain numpy, written as a student would; each classic
mistake is a small change of it, and must be caught with a message naming the step.
"""

import inspect

import numpy as np
import pytest

from patrec.exercises import check, template


def _minimum_distance(prototypes, prototype_labels, X, n_classes, squared=False,
                      per_class=True, decide="argmin"):  # fmt: skip
    D = np.sqrt(((X[:, None, :] - prototypes[None, :, :]) ** 2).sum(axis=2))
    if squared:
        D = D**2
    G = np.empty((len(X), n_classes))
    for i in range(n_classes):
        columns = prototype_labels == i if per_class else slice(None)
        G[:, i] = D[:, columns].min(axis=1)
    predicted = np.argmin(G, axis=1) if decide == "argmin" else np.argmax(G, axis=1)
    return G, predicted


def minimum_distance(prototypes, prototype_labels, X, n_classes):
    return _minimum_distance(prototypes, prototype_labels, X, n_classes)


def test_reference_solution_passes():
    result = check("minimum_distance", minimum_distance)
    assert result.passed, str(result)
    assert result.n_passed == result.n_cases >= 4
    assert check("minimum_distance", minimum_distance, seed=7)


@pytest.mark.parametrize(
    "change, where, words",
    [
        ({"decide": "argmax"}, "the decision for X[", ["argmax", "argmin"]),
        ({"squared": True}, "G[", ["squared distances", "square root"]),
        ({"per_class": False}, "G[", ["every prototype", "of class ω_i only"]),
    ],
)
def test_classic_mistakes_are_named(change, where, words):
    def student(prototypes, prototype_labels, X, n_classes):
        return _minimum_distance(prototypes, prototype_labels, X, n_classes, **change)

    result = check("minimum_distance", student)
    assert result.passed is False
    assert result.divergence.where.startswith(where), result.divergence.where
    for word in words:
        assert word in result.divergence.hint, result.divergence.hint


def test_distance_to_the_mean_of_the_subclass_means_is_named():
    def student(prototypes, prototype_labels, X, n_classes):
        centres = np.array(
            [prototypes[prototype_labels == i].mean(axis=0) for i in range(n_classes)]
        )
        G = np.sqrt(((X[:, None, :] - centres[None]) ** 2).sum(axis=2))
        return G, np.argmin(G, axis=1)

    result = check("minimum_distance", student)
    assert not result
    assert "nearest subclass mean" in result.divergence.hint


def test_a_tie_goes_to_the_lowest_class_index():
    def student(prototypes, prototype_labels, X, n_classes):
        G, _ = minimum_distance(prototypes, prototype_labels, X, n_classes)
        last = n_classes - 1 - np.argmin(G[:, ::-1], axis=1)  # the last minimum
        return G, last

    result = check("minimum_distance", student)
    assert not result
    assert result.divergence.where == "the decision for X[4]"  # the worked tie
    assert (
        "tie" in result.divergence.hint
        and "lowest class index" in result.divergence.hint
    )
    assert "g₁ = 2, g₂ = 2" in result.divergence.message


def test_one_based_classes_are_named():
    result = check(
        "minimum_distance",
        lambda *args: (minimum_distance(*args)[0], minimum_distance(*args)[1] + 1),
    )
    assert not result and "start at 0" in result.divergence.hint


def test_report_is_deterministic_for_a_seed():
    def student(*args):
        return _minimum_distance(*args, squared=True)

    assert str(check("minimum_distance", student, seed=3)) == str(
        check("minimum_distance", student, seed=3)
    )
    assert str(check("minimum_distance", minimum_distance, seed=3)) == str(
        check("minimum_distance", minimum_distance, seed=3)
    )


def test_template_execs_and_fails_cleanly():
    namespace = {}
    exec(template("minimum_distance"), namespace)
    stub = namespace["minimum_distance"]
    assert list(inspect.signature(stub).parameters) == [
        "prototypes",
        "prototype_labels",
        "X",
        "n_classes",
    ]
    result = check("minimum_distance", stub)
    assert result.passed is False
    assert result.divergence.where == "the call"
    assert "NotImplementedError" in result.divergence.message

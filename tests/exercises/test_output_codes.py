"""The checker of the output-code decoding exercise is checked.

The reference solution is plain numpy, written as a student would; each classic
mistake is a small change of it, and must be caught with a message naming the step.
"""

import inspect

import numpy as np
import pytest

from patrec.exercises import check, template

_LOSSES = {
    "hinge": lambda z: np.maximum(0.0, 1.0 - z),
    "exp": lambda z: np.exp(-z),
    "log": lambda z: np.log1p(np.exp(-z)),
}


def _output_codes(M, F, method, zeros="half", argument="margin", decide="argmin"):
    margins = F[:, None, :] * M[None, :, :]  # M(r, s) f_s
    if method == "hamming":
        if zeros == "half":
            terms = (1 - np.sign(margins)) / 2
        else:  # a zero of M counted as a disagreement with sign(f)
            terms = (M[None, :, :] != np.sign(F)[:, None, :]).astype(float)
    else:
        z = (
            margins
            if argument == "margin"
            else np.broadcast_to(F[:, None, :], margins.shape)
        )
        terms = _LOSSES[method](z)
    distances = terms.sum(axis=2)
    pick = np.argmin if decide == "argmin" else np.argmax
    return distances, pick(distances, axis=1)


def output_codes(M, F, method="hamming"):
    return _output_codes(M, F, method)


def test_reference_solution_passes():
    result = check("output_codes", output_codes)
    assert result.passed, str(result)
    assert result.n_passed == result.n_cases >= 6
    assert check("output_codes", output_codes, seed=9)


def test_the_course_worked_example_comes_first():
    M = np.array(
        [
            [-1, 0, -1, -1, 1, -1, -1],
            [1, -1, 0, 1, 1, 1, -1],
            [1, 0, -1, -1, -1, 1, 1],
            [-1, -1, 1, 0, -1, -1, 1],
        ],
        dtype=float,
    )
    F = np.array([[0.5, -7, -1, -2, -10, -12, 9]])
    distances, classes = output_codes(M, F, "hamming")
    assert distances.tolist() == [[3.5, 4.5, 1.5, 2.5]] and classes.tolist() == [2]
    distances, classes = output_codes(M, F, "exp")
    assert classes.tolist() == [3]  # the course's class 4
    assert np.round(distances, 1)[0, 3] == 5.4

    seen = []

    def spy(M, F, method):
        seen.append((M.copy(), F.copy(), method))
        return output_codes(M, F, method)

    check("output_codes", spy, isolated=False)  # the spy writes to this process
    assert np.array_equal(seen[0][0], M) and np.array_equal(seen[0][1], F)
    assert [s[2] for s in seen[:2]] == ["hamming", "exp"]


@pytest.mark.parametrize(
    "change, where, words",
    [
        ({"zeros": "one"}, "distances[0, 0]", ["counted a 0 as a disagreement", "1/2"]),
        ({"decide": "argmax"}, "the decision for F[0]", ["argmax", "argmin"]),
        ({"argument": "f"}, "distances[0, 0]", ["f_s alone", "margin", "M(r, s) f_s"]),
    ],
)
def test_classic_mistakes_are_named(change, where, words):
    def student(M, F, method):
        return _output_codes(M, F, method, **change)

    result = check("output_codes", student)
    assert result.passed is False
    assert result.divergence.where.startswith(where), result.divergence.where
    for word in words:
        assert word in result.divergence.hint, result.divergence.hint


def test_the_zero_mistake_is_caught_on_the_course_example():
    result = check("output_codes", lambda *a: _output_codes(*a, zeros="one"))
    assert result.n_passed == 0 and "Hamming decoding (class 3)" in str(result)
    # row 1 of the course: three zeros of M, the ½ each, 3.5 in the course
    assert "d = 3.5" in result.divergence.message


def test_the_wrong_loss_is_named():
    def student(M, F, method):
        return _output_codes(M, F, "hinge" if method == "exp" else method)

    result = check("output_codes", student)
    assert not result
    assert "exponential loss" in str(result)
    assert "You used the hinge loss" in result.divergence.hint


def test_report_is_deterministic_for_a_seed():
    def student(M, F, method):
        return _output_codes(M, F, method, zeros="one")

    assert str(check("output_codes", student, seed=3)) == str(
        check("output_codes", student, seed=3)
    )


def test_template_execs_and_fails_cleanly():
    namespace = {}
    exec(template("output_codes"), namespace)
    stub = namespace["output_codes"]
    assert list(inspect.signature(stub).parameters) == ["M", "F", "method"]
    result = check("output_codes", stub)
    assert result.passed is False
    assert result.divergence.where == "the call"
    assert "NotImplementedError" in result.divergence.message

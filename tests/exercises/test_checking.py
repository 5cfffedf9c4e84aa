"""What every exercise shares: the call, the report, the templates, bad arguments."""

import numpy as np
import pytest

from patrec.exercises import CheckResult, check, describe, names, template


def kesler(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j, i in enumerate(labels):
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(X[j], 1.0)
    return psi


@pytest.mark.parametrize("name", names())
def test_each_template_defines_the_function_and_fails_cleanly(name):
    source = template(name)
    namespace = {}
    exec(source, namespace)
    function = namespace[name]
    assert function.__doc__ and "Returns" in function.__doc__
    result = check(name, function)
    assert isinstance(result, CheckResult) and not result
    assert "raised NotImplementedError" in result.divergence.message
    assert result.n_passed == 0
    assert f"def {name}(" in describe(name)


@pytest.mark.parametrize("name", names())
def test_the_report_is_the_same_for_the_same_seed(name):
    def wrong(*args):
        return None

    first, second = check(name, wrong, seed=3), check(name, wrong, seed=3)
    assert str(first) == str(second)
    assert "seed=3" in str(first)


def test_the_random_cases_follow_the_seed():
    seen = []

    def spy(X, labels, n_classes):
        seen.append(X.copy())
        return kesler(X, labels, n_classes)

    # in this process: the spy's list is the caller's (a child's would be lost)
    check("kesler", spy, seed=1, isolated=False)
    first = list(seen)
    seen.clear()
    check("kesler", spy, seed=1, isolated=False)
    assert all(np.array_equal(a, b) for a, b in zip(first, seen))
    seen.clear()
    check("kesler", spy, seed=2, isolated=False)
    assert not all(np.array_equal(a, b) for a, b in zip(first[1:], seen[1:]))


def test_a_passed_check_is_true_and_says_so():
    result = check("kesler", kesler)
    assert result.passed is True and bool(result)
    assert result.n_passed == result.n_cases >= 4
    assert str(result).startswith(
        "Kesler's construction (the multivector ψ(x, i)): passed"
    )
    assert "passed" in result._repr_html_()
    assert repr(result).startswith("<CheckResult kesler: passed>")


def test_a_function_that_modifies_its_input_is_told():
    def rude(X, labels, n_classes):
        psi = kesler(X, labels, n_classes)
        X[:] = 0
        return psi

    result = check("kesler", rude)
    assert not result
    assert "changed its input 'X'" in result.divergence.message


def test_an_exception_is_reported_with_its_line():
    def broken(X, labels, n_classes):
        return X[100000]

    result = check("kesler", broken)
    assert not result
    assert "raised IndexError" in result.divergence.message
    assert "of broken" in result.divergence.message


def test_a_wrong_return_shape_names_what_was_expected():
    result = check("perceptron", lambda X, z, rho, e: np.zeros(3))
    assert not result
    assert "Expected a tuple (a, steps)" in result.divergence.message


def test_the_html_report_escapes_the_function_text():
    def broken(X, labels, n_classes):
        raise ValueError("<script>")

    html = check("kesler", broken)._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert html.startswith('<div class="patrec-check">')


def test_check_refuses_what_it_cannot_run():
    with pytest.raises(ValueError, match="Unknown exercise 'perceptrons'"):
        check("perceptrons", kesler)
    with pytest.raises(TypeError, match="name must be a str"):
        check(3, kesler)
    with pytest.raises(TypeError, match="function must be your implementation"):
        check("kesler", "kesler")
    with pytest.raises(TypeError, match="seed must be an int"):
        check("kesler", kesler, seed=1.5)
    with pytest.raises(TypeError, match="seed must be an int"):
        check("kesler", kesler, seed=True)
    with pytest.raises(ValueError, match="seed must be a non-negative int; got -1"):
        check("kesler", kesler, seed=-1)
    with pytest.raises(ValueError, match="Unknown exercise"):
        template("nope")


def test_a_numpy_integer_seed_is_a_seed():
    assert str(check("kesler", kesler, seed=np.int64(2))) == str(
        check("kesler", kesler, seed=2)
    )


def test_checking_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check("kesler", kesler)
    check("perceptron", lambda *a: None)
    assert list(tmp_path.iterdir()) == []


def test_a_function_with_other_parameters_is_told_the_template_s_signature():
    def two_arguments(X, labels):
        return None

    result = check("kesler", two_arguments)
    assert not result
    message = result.divergence.message
    expected = "cannot be called with the exercise's 3 arguments (X, labels, n_classes)"
    assert expected in message
    assert "_run_case" not in message  # not a line of patrec's own
    assert "def kesler(X, labels, n_classes)" in result.divergence.hint

"""The checker stays in control: the student's function runs in a child process,
and whatever it does there (exit, loop, crash, eat memory, raise KeyboardInterrupt,
return a shifty object, print) becomes a report of a case not passed, never a pass
and never the caller's end."""

import os
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from patrec.exercises import _isolation, check


def kesler(X, labels, n_classes):
    n, d = X.shape
    psi = np.zeros((n, n_classes * (d + 1)))
    for j, i in enumerate(labels):
        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(X[j], 1.0)
    return psi


def not_passed(result, *words):
    assert result.passed is False and not result
    text = str(result)
    for word in words:
        assert word in text, text
    return result


def test_a_right_function_passes_in_a_child():
    result = check("kesler", kesler)
    assert result and result.note is None and result.seconds > 0


def test_sys_exit_is_a_report_not_the_end_of_the_caller():
    def leaving(X, labels, n_classes):
        sys.exit(0)

    result = not_passed(check("kesler", leaving), "called sys.exit(0) (line")
    assert result.divergence.where == "the call"
    assert "of leaving)" in result.divergence.message


def test_os_exit_is_a_report_with_its_line():
    def leaving(X, labels, n_classes):
        os._exit(0)

    not_passed(check("kesler", leaving), "called os._exit(0) (line", "of leaving)")


def test_an_endless_loop_is_stopped_at_the_time_limit_with_its_line():
    def looping(X, labels, n_classes):
        while True:
            pass

    start = time.monotonic()
    result = check("kesler", looping, time_limit=0.5)
    assert time.monotonic() - start < 5
    loop = looping.__code__.co_firstlineno + 1  # the while line, wherever it stopped
    not_passed(
        result,
        "did not return within the time limit of 0.5 s",
        f"it was in the loop at line {loop} of looping",
    )


def test_a_loop_deaf_to_the_timer_is_killed_after_a_grace():
    def deaf(X, labels, n_classes):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        while True:
            pass

    start = time.monotonic()
    result = check("kesler", deaf, time_limit=0.3)
    assert time.monotonic() - start < 5
    not_passed(result, "did not return within the time limit of 0.3 s")


def test_keyboard_interrupt_raised_by_the_function_is_a_report():
    def interrupted(X, labels, n_classes):
        raise KeyboardInterrupt

    not_passed(check("kesler", interrupted), "raised KeyboardInterrupt (line")


def test_a_crash_is_a_report_with_the_signal_and_the_line():
    def crashing(X, labels, n_classes):
        import ctypes

        return ctypes.string_at(0)

    result = not_passed(check("kesler", crashing), "crashed: SIGSEGV")
    assert "of crashing)" in result.divergence.message


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS")
def test_memory_beyond_the_limit_is_a_report():
    def hungry(X, labels, n_classes):
        return np.ones(2**31)  # 16 GB

    result = check("kesler", hungry, memory_limit=200)
    not_passed(result, "needed more memory than the limit of 200 MB", "of hungry)")


def test_an_object_that_answers_differently_at_each_reading_does_not_pass():
    class Shifty:
        reads = 0

        def __init__(self, right):
            self.right = right

        def __array__(self, dtype=None, copy=None):
            Shifty.reads += 1
            return self.right if Shifty.reads == 1 else np.zeros_like(self.right)

    result = check("kesler", lambda *args: Shifty(kesler(*args)))
    not_passed(result, "yours is a Shifty")


def test_an_array_subclass_is_read_from_its_memory():
    class Lying(np.ndarray):
        def __eq__(self, other):
            return np.ones(np.shape(other), dtype=bool)

        def __array__(self, dtype=None, copy=None):
            return np.zeros(self.shape)

    def wrong(X, labels, n_classes):
        return np.zeros_like(kesler(X, labels, n_classes)).view(Lying)

    not_passed(check("kesler", wrong), "row 0")

    def right(X, labels, n_classes):
        return kesler(X, labels, n_classes).view(Lying)

    assert check("kesler", right)


def test_what_the_function_changes_in_its_process_stays_there():
    def cheating(X, labels, n_classes):
        np.allclose = lambda *args, **kwargs: True  # the checker's, if it were here
        np.array_equal = lambda *args, **kwargs: True
        return np.zeros((1, 1))

    not_passed(check("kesler", cheating))
    assert np.allclose(np.zeros(2), np.zeros(2)) and not np.allclose(0, 1)


def test_the_steps_kept_as_one_array_are_still_one_array():
    """The copy keeps identity: steps.append(a) without a copy is still seen."""

    def perceptron(X, labels, rho=1.0, max_epochs=100):
        Y = np.hstack([X, np.ones((len(X), 1))])
        a, steps = np.zeros(Y.shape[1]), []
        for _ in range(max_epochs):
            mistakes = 0
            for y, z in zip(Y, labels):
                if z * (a @ y) <= 0:
                    a += rho * z * y
                    mistakes += 1
                steps.append(a)
            if mistakes == 0:
                break
        return a, steps

    not_passed(check("perceptron", perceptron), "the same array object")


def test_what_the_function_prints_reaches_the_caller(capsys):
    def chatty(X, labels, n_classes):
        print("shape", X.shape)
        return kesler(X, labels, n_classes)

    assert check("kesler", chatty)
    assert "shape (6, 2)" in capsys.readouterr().out


def test_lambdas_and_closures_run_as_they_are():
    offset = 0

    def closure(X, labels, n_classes):
        return kesler(X, labels + offset, n_classes)

    assert check("kesler", closure)
    assert check("kesler", lambda X, labels, n_classes: kesler(X, labels, n_classes))


def test_a_ctrl_c_of_the_caller_stops_the_check_and_its_child():
    def looping(X, labels, n_classes):
        while True:
            pass

    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            check("kesler", looping, time_limit=30)
    finally:
        timer.cancel()
    import multiprocessing

    assert multiprocessing.active_children() == []


def test_a_script_goes_on_after_its_function_exits(tmp_path):
    """A function of __main__ (a script, a notebook) is checked in a child: its
    sys.exit is reported and the script ends with its own status."""
    script = tmp_path / "homework.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys
            from patrec.exercises import check

            def kesler(X, labels, n_classes):
                sys.exit(0)

            result = check("kesler", kesler)
            print("still here:", bool(result))
            assert result, "not passed"
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert "still here: False" in done.stdout
    assert done.returncode == 1 and "AssertionError: not passed" in done.stderr


def test_limits_are_checked():
    with pytest.raises(ValueError, match="time_limit must be a positive number"):
        check("kesler", kesler, time_limit=0)
    with pytest.raises(TypeError, match="memory_limit must be a number of megabytes"):
        check("kesler", kesler, memory_limit="lots")
    with pytest.raises(TypeError, match="isolated must be True or False"):
        check("kesler", kesler, isolated=1)
    assert check("kesler", kesler, time_limit=None, memory_limit=None)


def test_in_process_the_function_runs_without_a_child():
    seen = []

    def spy(X, labels, n_classes):
        seen.append(os.getpid())
        return kesler(X, labels, n_classes)

    assert check("kesler", spy, isolated=False)
    assert set(seen) == {os.getpid()}


# -- spawn (Windows): the function must reach the child by pickle -----------------


def test_spawn_runs_an_importable_function_in_a_child(monkeypatch, tmp_path):
    (tmp_path / "homework_spawn.py").write_text(
        "import os\n"
        "import numpy as np\n\n\n"
        "def kesler(X, labels, n_classes):\n"
        "    n, d = X.shape\n"
        "    psi = np.zeros((n, n_classes * (d + 1)))\n"
        "    for j, i in enumerate(labels):\n"
        "        psi[j, i * (d + 1) : (i + 1) * (d + 1)] = np.append(X[j], 1.0)\n"
        "    return psi\n\n\n"
        "def leaving(X, labels, n_classes):\n"
        "    os._exit(3)\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(_isolation, "_START_METHOD", "spawn")
    import homework_spawn

    result = check("kesler", homework_spawn.kesler)
    assert result and result.note is None
    not_passed(check("kesler", homework_spawn.leaving), "os._exit(3)")


def test_spawn_without_cloudpickle_runs_a_lambda_here_and_says_so(monkeypatch):
    monkeypatch.setattr(_isolation, "_START_METHOD", "spawn")
    monkeypatch.setitem(sys.modules, "cloudpickle", None)
    result = check("kesler", lambda X, labels, n_classes: kesler(X, labels, n_classes))
    assert result and "ran in this process, without the time and memory" in str(result)


# -- the parent reads plain data only ----------------------------------------------


class _Payload:
    def __reduce__(self):
        return (os.system, ("echo owned",))


def test_the_parent_unpickles_plain_data_only():
    with pytest.raises(pickle.UnpicklingError, match="is not plain data"):
        _isolation._loads(pickle.dumps(_Payload()))
    data = [np.arange(3.0), (np.int64(2), 1.5, "x"), {"X": np.eye(2)}, 2 + 1j]
    back = _isolation._loads(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
    assert np.array_equal(back[0], data[0]) and back[1] == data[1]
    assert np.array_equal(back[2]["X"], np.eye(2)) and back[3] == 2 + 1j


def test_plain_copies_once_and_keeps_identity():
    a = np.arange(3.0)
    copied = _isolation.plain([a, a, (1, np.float64(2.5)), {1, 2}, range(3)])
    assert copied[0] is copied[1] and copied[0] is not a
    assert copied[2] == (1, 2.5)
    assert type(copied[3]).__name__ == "Unreadable" and copied[3].type_name == "set"
    assert copied[4] == [0, 1, 2]

"""The student's function runs in a child process, so that the checker stays in
control.

`calls` starts one child for a whole check.  The child gets the cases (by fork, the
function already in memory; by spawn, the function pickled or the student's file
as text), calls the function on each case in turn and sends back one `Outcome`
per case: what the function returned, copied once into plain numpy arrays and
Python numbers, with its arguments as they were after the call; or what stopped
it.  The parent reads each outcome within the case's time limit and compares it
with the rule; it never runs the student's code and never unpickles anything but
plain data (`_loads`).

What cannot become a report in the student's own process becomes one here: an
endless loop (a timer in the child names the line it was running; past a grace
period the parent kills the child), ``sys.exit`` and ``os._exit`` (named with
their line), a crash (the signal, and the line Python's fault handler saw), a
``KeyboardInterrupt`` the function raises, memory beyond the limit (the child's
address space is capped on Linux, so an allocation past it is a ``MemoryError``).
A Ctrl-C of the user's own interrupts the check: the child ignores SIGINT, the
parent kills the child and lets the ``KeyboardInterrupt`` through.

Start methods: fork where there is one (Linux, macOS), so that a function
defined in a notebook, a lambda or a closure runs as it is.  Where there is only
spawn (Windows) the function must reach the child by pickle: a function of an
importable module does; one defined in ``__main__`` (a notebook) or a lambda
does with cloudpickle installed; otherwise the check runs in the caller's
process, without limits, and the report says so.
"""

import copy
import faulthandler
import inspect
import io
import multiprocessing
import os
import pickle
import re
import signal
import sys
import textwrap
import time
import traceback
import types
import warnings

import numpy as np

__all__ = ["Outcome", "calls", "load_source"]

# Generous enough for any student function on the exercises' small cases.
DEFAULT_TIME_LIMIT = 5.0  # seconds per case
DEFAULT_MEMORY_LIMIT = 1024  # megabytes the function may allocate

# The parent waits this much longer than the time limit before it kills a child
# whose own timer did not stop the function (a loop inside compiled code).
_GRACE = 1.0

# At most this much of the function's printed output reaches the caller.
_MAX_OUTPUT = 20_000

# A result larger than this (pickled) is not sent back: no exercise returns one.
_MAX_RESULT_BYTES = 64 * 2**20

_START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"

# True in a child while it runs a student's file: the check() calls the file
# makes at its top level (an exercise page's cells do) return at once, unchecked.
LOADING = False


class Outcome:
    """What one call of the student's function came to.

    Attributes
    ----------
    kind : str
        "returned", or what stopped the function: "raised", "signature", "exit"
        (sys.exit), "os_exit", "timeout", "memory", "died" (a crash or a kill),
        "unreadable" (a result that could not be copied), "load" (the student's
        file could not be run).
    got, given : object
        For "returned": the result and the arguments after the call, as plain
        arrays, numbers, lists and tuples.
    name, text, line : str
        The exception's type and message, or a description; ``line`` is
        " (line L of f)" or "".
    code : int or None
        The exit code (sys.exit, os._exit) or the signal number ("died").
    seconds : float
        The time the call took.
    """

    def __init__(self, kind, got=None, given=None, name="", text="", line="",
                 code=None, seconds=0.0):  # fmt: skip
        self.kind = kind
        self.got = got
        self.given = given
        self.name = name
        self.text = text
        self.line = line
        self.code = code
        self.seconds = seconds

    def __reduce__(self):
        return (
            Outcome,
            (self.kind, self.got, self.given, self.name, self.text, self.line,
             self.code, self.seconds),
        )  # fmt: skip


class Unreadable:
    """Stands for a returned object that is no array, number, list or tuple: its
    type's name is kept (``type(x).__name__``) for the report."""

    def __init__(self, type_name="object"):
        self.type_name = type_name

    def __reduce__(self):
        return (Unreadable, (self.type_name,))

    def __repr__(self):
        return f"<{self.type_name}>"


def _named(value):
    """An `Unreadable` as an instance of a class named like the student's type."""
    kind = type(str(value.type_name), (Unreadable,), {})
    return kind(value.type_name)


# -- plain data -------------------------------------------------------------------


def plain(value, memo=None, depth=0):
    """``value`` copied once into plain data: numpy arrays of numbers, numpy and
    Python numbers, strings, lists and tuples of them; anything else (an object
    with ``__array__`` among them: it could answer differently at each reading) an
    `Unreadable`.  An array is copied from its memory, whatever its subclass
    overrides.  The same object met twice gives the same copy (a list holding one
    array ten times stays so)."""
    memo = {} if memo is None else memo
    key = id(value)
    if key in memo:
        return memo[key][0]
    if depth > 50:
        raise RecursionError("the result is nested more than 50 deep")
    if value is None or type(value) in (bool, int, float, complex, str, bytes):
        out = value
    elif isinstance(value, bool):
        out = bool(value)
    elif isinstance(value, int):
        out = int(value)
    elif isinstance(value, float):
        out = float(value)
    elif isinstance(value, str):
        out = str.__str__(value)
    elif isinstance(value, np.generic):
        out = np.asarray(value)[()]
        if not isinstance(out, (np.number, np.bool_)):
            out = Unreadable(type(value).__name__)
    elif isinstance(value, (list, tuple, range)):
        items = [plain(item, memo, depth + 1) for item in _items(value)]
        out = tuple(items) if isinstance(value, tuple) else items
    elif isinstance(value, np.ndarray):
        out = _plain_array(value, memo, depth)
    else:
        out = Unreadable(type(value).__name__)
    memo[key] = (out, value)  # keeps value alive: its id is not reused
    return out


def _items(value):
    """The items of a list, tuple or range, read by the base type's own methods
    (a subclass's overrides are not called)."""
    if isinstance(value, range):
        return list(value)
    return list(
        tuple.__iter__(value) if isinstance(value, tuple) else list.__iter__(value)
    )


def _plain_array(value, memo, depth):
    array = np.ndarray.copy(np.ndarray.view(value, np.ndarray))
    if array.dtype.kind in "biufc":
        return np.ascontiguousarray(array) if array.ndim else array.copy()
    if array.dtype.kind == "O":
        out = np.empty(array.shape, dtype=object)
        for index, item in np.ndenumerate(array):
            out[index] = plain(item, memo, depth + 1)
        return out
    return Unreadable(type(value).__name__)


_ALLOWED = {
    ("builtins", "complex"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "bytearray"),
    ("builtins", "slice"),
    (__name__, "Outcome"),
    (__name__, "Unreadable"),
}
_NUMPY_NAMES = {"_frombuffer", "_reconstruct", "scalar", "dtype", "ndarray"}


class _PlainUnpickler(pickle.Unpickler):
    """Unpickles plain data only: no class or function but numpy's arrays and
    numbers, Python's numbers and containers, and the two of this module."""

    def find_class(self, module, name):
        numpy_name = module.split(".")[0] == "numpy" and name in _NUMPY_NAMES
        if (module, name) in _ALLOWED or numpy_name:
            return super().find_class(module, name)
        if module == "numpy.dtypes" and name.endswith("DType"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not plain data")


def _loads(data):
    value = _PlainUnpickler(io.BytesIO(data)).load()
    return _rename(value, {})


def _rename(value, memo):
    """Each `Unreadable` as an instance of a class of the student's type's name."""
    if isinstance(value, Unreadable):
        return _named(value)
    if isinstance(value, Outcome):
        value.got = _rename(value.got, memo)
        value.given = _rename(value.given, memo)
        return value
    if isinstance(value, dict):
        return {name: _rename(item, memo) for name, item in value.items()}
    if isinstance(value, (list, tuple)):
        key = id(value)
        if key not in memo:
            items = [_rename(item, memo) for item in value]
            memo[key] = items if isinstance(value, list) else tuple(items)
        return memo[key]
    if isinstance(value, np.ndarray) and value.dtype == object:
        out = np.empty(value.shape, dtype=object)
        for index, item in np.ndenumerate(value):
            out[index] = _rename(item, memo)
        return out
    return value


# -- where the student's code was --------------------------------------------------


def where(frames, function, files=()):
    """ " (line L of f)": the last of ``frames`` (traceback.extract_tb or
    extract_stack) in the student's own code (``function``'s file, ``files``), or
    the last of all."""
    code = getattr(function, "__code__", None)
    files = set(files) | ({code.co_filename} if code is not None else set())
    own = [f for f in frames if f.filename in files]
    frame = (own or list(frames) or [None])[-1]
    return _said(frame.filename, frame.lineno, frame.name) if frame else ""


def _said(filename, lineno, name):
    """ " (line L of f)", and the notebook cell when the code is one's; the file
    for code at a module's top level."""
    cell = filename.rpartition(", ")[2] if ", cell " in filename else ""
    if name == "<module>":
        name, cell = filename, ""
    return f" (line {lineno} of {name}{', ' + cell if cell else ''})"


def _where_stopped(error, function, sources):
    """Where a function stopped by the timer was, said so that every run says the
    same: the outermost loop of the called function around the line it was at
    (" (the loop at line L of f)"), else that line (a call that had not
    returned).  ``sources``: the student's code by file name, where inspect
    cannot read it."""
    frames = traceback.extract_tb(error.__traceback__)
    code = getattr(function, "__code__", None)
    own = [f for f in frames if code is not None and f.filename == code.co_filename]
    if not own:
        return ""
    entry = own[0]  # the called function's frame: it waits where it loops or calls
    loops = _loops(function, sources)
    around = [start for start, end in loops if start <= entry.lineno <= end]
    if around:
        cell = _said(entry.filename, min(around), entry.name)
        return cell.replace(" (line", " (the loop at line", 1)
    return _said(entry.filename, entry.lineno, entry.name)


def _loops(function, sources):
    """(first line, last line) of every for and while loop of ``function``."""
    import ast

    code = function.__code__
    try:
        if code.co_filename in sources:
            tree = ast.parse(sources[code.co_filename])
        else:
            tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
            offset = code.co_firstlineno - 1
            for node in ast.walk(tree):
                if hasattr(node, "lineno"):
                    node.lineno += offset
                    node.end_lineno += offset
    except (OSError, TypeError, SyntaxError):
        return []
    return [
        (node.lineno, node.end_lineno)
        for node in ast.walk(tree)
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor))
        and code.co_firstlineno <= node.lineno
    ]


def _where_in_dump(dump, own_files):
    """The line of the student's code in a fault handler's dump (the innermost
    frame in one of ``own_files``, else the innermost), or ""."""
    frames = re.findall(r'File "(.*)", line (\d+) in (\S+)', dump)
    own = [f for f in frames if f[0] in own_files] or frames
    return _said(own[0][0], own[0][1], own[0][2]) if own else ""


# -- the child ----------------------------------------------------------------------


class _TimeLimit(BaseException):
    """Raised in the student's function by the child's timer."""


class _Relay(io.TextIOBase):
    """The child's sys.stdout and sys.stderr: what the function prints goes to the
    parent, up to _MAX_OUTPUT characters."""

    def __init__(self, send, stream):
        self.send, self.stream, self.sent = send, stream, 0

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        if self.sent < _MAX_OUTPUT:
            part = text[: _MAX_OUTPUT - self.sent]
            self.sent += len(text)
            if self.sent >= _MAX_OUTPUT:
                part += "\n[... the rest of your function's output is cut]\n"
            self.send(("output", self.stream, part))
        return len(text)


def _limit_memory(megabytes):
    """Cap the child's address space at what it holds now plus ``megabytes``
    (Linux; elsewhere nothing is capped)."""
    if megabytes is None or not sys.platform.startswith("linux"):
        return
    import resource

    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[0])
        now = pages * os.sysconf("SC_PAGE_SIZE")
        limit = now + int(megabytes * 2**20)
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (OSError, ValueError):
        pass


def load_source(parts):
    """The module of a student's file: its (name, source) parts (a notebook's
    cells) run in order in one module of its own, each compiled under its name."""
    module = types.ModuleType("submission")
    module.__file__ = parts[0][0] if parts else "submission"
    for name, source in parts:
        exec(compile(source, name, "exec"), module.__dict__)
    return module


def _child_main(conn, job, cases, time_limit, memory_limit, fault_fd):
    """The child: get the function, call it on each case, send each outcome."""
    real_exit = os._exit
    sent_exit = []

    def send(message):
        conn.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the parent's
    sys.stdout = _Relay(send, "stdout")
    sys.stderr = _Relay(send, "stderr")
    if fault_fd is not None:
        faulthandler.enable(file=fault_fd, all_threads=False)
    _limit_memory(memory_limit)
    function = None

    def on_exit(code=0):  # os._exit, named with its line before it happens
        if not sent_exit:
            sent_exit.append(code)
            frames = traceback.extract_stack(sys._getframe(1))
            send(Outcome("os_exit", code=code, line=where(frames, function)))
        real_exit(code)

    os._exit = on_exit
    timer = hasattr(signal, "setitimer") and time_limit is not None

    def alarm(signum, frame):
        raise _TimeLimit

    if timer:
        signal.signal(signal.SIGALRM, alarm)

    def timed(call):
        """(value, None), or (None, the `Outcome` of what stopped ``call``)."""
        start = time.perf_counter()
        if timer:
            signal.setitimer(signal.ITIMER_REAL, time_limit)
        try:
            return call(), None
        except _TimeLimit as error:
            return None, Outcome(
                "timeout", line=_where_stopped(error, function, sources)
            )
        except SystemExit as error:
            code = error.code if isinstance(error.code, (int, str, type(None))) else 1
            return None, Outcome(
                "exit", code=code, line=_line(error, function, sources)
            )
        except MemoryError as error:
            return None, Outcome("memory", line=_line(error, function, sources))
        except BaseException as error:  # the student's error is the finding
            return None, Outcome(
                "raised",
                name=type(error).__name__,
                text=_text(error),
                line=_line(error, function, sources),
                seconds=time.perf_counter() - start,
            )
        finally:
            if timer:
                signal.setitimer(signal.ITIMER_REAL, 0)

    kind = job[0]
    sources = dict(job[1]) if kind == "source" else {}
    if kind == "function":
        function = job[1]
    elif kind == "pickled":
        function = pickle.loads(job[1])
    else:  # ("source", parts, name): a student's file
        _, parts, name = job
        global LOADING
        LOADING = True  # the file's own calls of check() return at once
        os.environ["MPLBACKEND"] = "Agg"  # its figures are drawn for nobody
        module, failed = timed(lambda: load_source(parts))
        LOADING = False
        if failed is not None:
            failed.kind, failed.name = "load", failed.kind + ":" + failed.name
            send(failed)
            real_exit(0)
        function = getattr(module, name, None)
        if not callable(function):
            send(Outcome("load", name="missing", text=type(function).__name__))
            real_exit(0)
    for args in cases:
        given = copy.deepcopy(args)
        try:
            inspect.signature(function).bind(*given.values())
        except TypeError as error:
            send(Outcome("signature", text=str(error)))
            continue
        except ValueError:  # a signature Python cannot read is not checked
            pass
        start = time.perf_counter()
        got, failed = timed(lambda: function(*given.values()))
        seconds = time.perf_counter() - start
        if failed is None:
            copies, failed = timed(lambda: (plain(got), _plain_args(given)))
            if failed is not None:  # the result's own code failed, or looped
                failed = Outcome(
                    "unreadable",
                    name=failed.kind,
                    text=f"{failed.name}: {failed.text}" if failed.name else "",
                    line=failed.line,
                )
        if failed is None:
            outcome = Outcome("returned", *copies, seconds=seconds)
            try:
                data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
            except (MemoryError, RecursionError, pickle.PicklingError) as error:
                data, failed = None, Outcome("unreadable", text=str(error))
            if data is not None and len(data) > _MAX_RESULT_BYTES:
                failed = Outcome("unreadable", text="larger than 64 MB")
            if failed is None:
                conn.send_bytes(data)
                continue
        send(failed)
    send(Outcome("done"))
    real_exit(0)


def _line(error, function, files=()):
    return where(traceback.extract_tb(error.__traceback__), function, files)


def _text(error):
    """str(error), or what stands for it when the student's __str__ fails."""
    try:
        return str(error)
    except Exception:
        return f"<a {type(error).__name__} that cannot be printed>"


def _plain_args(given):
    """The arguments after the call, as plain data, by name."""
    memo = {}
    return {name: plain(value, memo) for name, value in given.items()}


def _spawn_child(conn, job, cases, time_limit, memory_limit):  # pragma: no cover
    _child_main(conn, job, cases, time_limit, memory_limit, None)


# -- the parent ---------------------------------------------------------------------


class _InProcess:
    """The function called in the caller's process: no child, no limits."""

    isolated = False
    note = None

    def __init__(self, function, cases, output):
        self.function = function
        self.cases = cases
        self.output = output

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def outcome(self, number):
        function = self.function
        given = copy.deepcopy(self.cases[number])
        try:
            inspect.signature(function).bind(*given.values())
        except TypeError as error:
            return Outcome("signature", text=str(error))
        except ValueError:
            pass
        start = time.perf_counter()
        try:
            got = function(*given.values())
            seconds = time.perf_counter() - start
            copies = _rename(plain(got), {}), _plain_args(given)
            return Outcome("returned", *copies, seconds=seconds)
        except KeyboardInterrupt:
            raise  # in the caller's process, a Ctrl-C is the caller's
        except SystemExit as error:
            return Outcome("exit", code=error.code, line=_line(error, function))
        except MemoryError as error:
            return Outcome("memory", line=_line(error, function))
        except Exception as error:
            return Outcome(
                "raised",
                name=type(error).__name__,
                text=str(error),
                line=_line(error, function),
            )


class _Child:
    """The function called in a child process, case after case."""

    isolated = True
    note = None

    def __init__(self, job, cases, time_limit, memory_limit, output, method):
        self.job, self.cases = job, cases
        self.time_limit, self.memory_limit = time_limit, memory_limit
        self.output = output
        self.method = method
        self.process = None
        self.fault_read = None
        if job[0] == "function":
            code = getattr(job[1], "__code__", None)
            self.own_files = {code.co_filename} if code is not None else set()
        elif job[0] == "source":
            self.own_files = {name for name, _ in job[1]}
        else:
            self.own_files = set()

    def __enter__(self):
        context = multiprocessing.get_context(self.method)
        self.conn, child_conn = context.Pipe()
        if self.method == "fork":
            self.fault_read, fault_write = os.pipe()
            target = _child_main
            args = (child_conn, self.job, self.cases, self.time_limit,
                    self.memory_limit, fault_write)  # fmt: skip
        else:
            fault_write = None
            target = _spawn_child
            args = (child_conn, self.job, self.cases, self.time_limit,
                    self.memory_limit)  # fmt: skip
        self.process = context.Process(target=target, args=args, daemon=True)
        with warnings.catch_warnings():
            # Python 3.12+ warns of fork in a process with threads (BLAS's, a
            # notebook's); the child touches none of their locks
            warnings.simplefilter("ignore", DeprecationWarning)
            self.process.start()
        child_conn.close()
        if fault_write is not None:
            os.close(fault_write)
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def stop(self):
        if self.process is not None:
            if self.process.is_alive():
                self.process.kill()
            self.process.join()
            self.process.close()
            self.process = None
        self.conn.close()
        if self.fault_read is not None:
            os.close(self.fault_read)
            self.fault_read = None

    def outcome(self, number):
        """The outcome of case ``number`` (the child runs them in order)."""
        limit = None if self.time_limit is None else self.time_limit + _GRACE
        deadline = None if limit is None else time.monotonic() + limit
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                ready = self.conn.poll(left)
                if not ready:
                    return Outcome("timeout")
                message = _loads(self.conn.recv_bytes())
            except EOFError:
                return self.died()
            if isinstance(message, tuple) and message[:1] == ("output",):
                self.output(message[1], message[2])
                continue
            if message.kind == "os_exit":
                self.process.join(2.0)
                return message
            return message

    def died(self):
        """The child ended without a word: how, and where if the fault handler
        saw it."""
        self.process.join(5.0)
        code = self.process.exitcode
        dump = ""
        if self.fault_read is not None:
            os.set_blocking(self.fault_read, False)
            try:
                dump = os.read(self.fault_read, 65536).decode(errors="replace")
            except (BlockingIOError, OSError):
                pass
        line = _where_in_dump(dump, self.own_files)
        if code is not None and code >= 0:
            return Outcome("os_exit", code=code, line=line)
        return Outcome("died", code=None if code is None else -code, line=line)


def _job(function):
    """How ``function`` reaches a spawned child, or None when it cannot (then
    the check runs in this process), with the reason."""
    if getattr(function, "__module__", None) != "__main__" and not _is_local(function):
        try:
            return ("pickled", pickle.dumps(function)), None
        except Exception as error:
            reason = str(error)
    else:
        reason = (
            "it is defined in __main__ (a notebook or a script), or inside a function"
        )
    try:
        import cloudpickle
    except ImportError:
        return None, reason
    try:
        return ("pickled", cloudpickle.dumps(function)), None
    except Exception as error:
        return None, str(error)


def _is_local(function):
    name = getattr(function, "__qualname__", "")
    return "<lambda>" in name or "<locals>" in name


def calls(function, cases, *, isolated, time_limit, memory_limit, output, job=None):
    """A context manager whose ``outcome(number)`` calls the student's function on
    case ``number``: in a child process (``isolated``), or in this one."""
    if job is not None:
        return _Child(job, cases, time_limit, memory_limit, output, _START_METHOD)
    if not isolated:
        return _InProcess(function, cases, output)
    if _START_METHOD == "fork":
        return _Child(("function", function), cases, time_limit, memory_limit,
                      output, "fork")  # fmt: skip
    job, reason = _job(function)
    if job is None:
        runner = _InProcess(function, cases, output)
        runner.note = (
            "Your function ran in this process, without the time and memory "
            f"limits: on this system a child process is started by spawn, and "
            f"your function cannot be sent to it ({reason}).  Define it in a .py "
            "file and import it, or install cloudpickle."
        )
        return runner
    return _Child(job, cases, time_limit, memory_limit, output, "spawn")

"""What watching the training costs: ``record_history`` off must cost nothing.

An overlapping 10-class Gaussian mixture, n = 50 000, d = 50, float64, single
thread, a fixed number of epochs.  For each error-correcting learner:

- ``linear_machine_record_off_vs_bare_loop``: ``LinearMachine.fit`` through the
  shared epoch driver (``record_history=False``, the default) against the same fit
  whose ``_fit`` calls the Cython epoch function in a plain loop (the driver as it
  was, written out).  A ratio of 1 means the driver, the progress reports and the
  sample-weight and history hooks cost nothing when unused.
- ``<learner>_record_on_vs_off``: what recording every correction costs when asked
  for (the reference is the plain fit, so the ratio is below 1).
- with ``--baseline=DIR`` (a checkout of an earlier patrec, built in place):
  ``<learner>_fit_vs_baseline``, the same fit timed in fresh processes with
  ``DIR`` and with this checkout on the path, interleaved; the ratio is the
  baseline's time over ours (1: as fast as before).

``--quick`` uses 10 000 samples.
"""

import json
import os
import pathlib
import subprocess
import sys

import _common  # noqa: F401  (sets the single-thread limits first)
import numpy as np
from bench_linear import gaussian_mixture

from patrec import LinearMachine, MulticlassSVM, Perceptron, PiecewiseLinearClassifier
from patrec._training import EpochState, epoch_orders
from patrec.linear._perceptron import linear_machine_epoch

EPOCHS = 5
HERE = pathlib.Path(__file__).resolve().parent
LEARNERS = {
    "perceptron": (Perceptron, {}),
    "linear_machine": (LinearMachine, {}),
    "linear_machine_all": (LinearMachine, {"update": "all"}),
    "multiclass_svm": (MulticlassSVM, {}),
    "piecewise_linear": (PiecewiseLinearClassifier, {"n_subclasses": 2}),
}


def make(name):
    cls, params = LEARNERS[name]
    return cls(max_epochs=EPOCHS, random_state=0, **params)


class TodaysLinearMachine(LinearMachine):
    """The linear machine with the epoch loop of its ``_fit`` written out in place,
    as before the shared driver: no progress reports, no hooks, no history."""

    def _fit(self, X, codes, sample_weight=None):
        n_classes, n_features = len(self.classes_), X.shape[1]
        weights = np.zeros((n_features + 1, n_classes))
        state = EpochState(X, codes, weights, np.zeros_like(weights), np.zeros(1))
        mistakes = []
        for order in epoch_orders(X.shape[0], self.shuffle, self.random_state):
            mistakes.append(linear_machine_epoch(state, order, 1.0, 0.0, False, False))
            if mistakes[-1] == 0 or len(mistakes) == self.max_epochs:
                break
        self.coef_ = weights[:n_features].T.copy()
        self.intercept_ = weights[n_features].copy()


def fit_quietly(model, X, y):
    import warnings

    from patrec.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


# The timing run of one process for --baseline (patrec from PYTHONPATH).
_CHILD = """
import json, sys, time, warnings
sys.path.insert(0, {here!r})
import _common
import numpy as np
from bench_linear import gaussian_mixture
import patrec
name, params, n, repeats = json.loads(sys.argv[1])
cls = getattr(patrec, name)
X, y = gaussian_mixture(n, 50, 10, seed=1)
warnings.simplefilter("ignore")
cls(**params).fit(X, y)
times = []
for _ in range(repeats):
    start = time.perf_counter()
    cls(**params).fit(X, y)
    times.append(time.perf_counter() - start)
print(json.dumps([patrec.__file__, times]))
"""


def time_in_process(path, name, params, n, repeats):
    environment = dict(os.environ, PYTHONPATH=str(path), PYTHONSAFEPATH="1")
    code = _CHILD.format(here=str(HERE))
    output = subprocess.run(
        [sys.executable, "-c", code, json.dumps([name, params, n, repeats])],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    location, times = json.loads(output.stdout.strip().splitlines()[-1])
    assert location.startswith(str(path)), (location, path)
    return times


def bench_against_baseline(baseline, n, params):
    ours = HERE.parent
    for name in LEARNERS:
        cls, extra = LEARNERS[name]
        settings = {"max_epochs": EPOCHS, "random_state": 0, **extra}
        mine, theirs = [], []
        for _ in range(5):  # interleaved rounds of fresh processes
            mine += time_in_process(ours, cls.__name__, settings, n, 3)
            theirs += time_in_process(baseline, cls.__name__, settings, n, 3)
        _common.report(
            f"{name}_fit_vs_baseline",
            {**params, "baseline": str(baseline)},
            float(np.median(mine)),
            "patrec baseline build",
            float(np.median(theirs)),
        )


def main():
    n = 10_000 if _common.quick() else 50_000
    X, y = gaussian_mixture(n, 50, 10, seed=1)
    params = {"n": n, "d": 50, "n_classes": 10, "epochs": EPOCHS, "dtype": "float64"}

    driven = make("linear_machine")
    bare = TodaysLinearMachine(max_epochs=EPOCHS, random_state=0)
    t_driven, t_bare = _common.compare(
        lambda: fit_quietly(driven, X, y), lambda: bare.fit(X, y), repeats=9
    )
    assert np.array_equal(driven.coef_, bare.coef_)  # the same work, bit for bit
    _common.report(
        "linear_machine_record_off_vs_bare_loop",
        params,
        t_driven,
        "the epoch loop written out in _fit",
        t_bare,
    )

    for name in LEARNERS:
        off = make(name)
        on = make(name).set_params(record_history=True)
        t_on, t_off = _common.compare(
            lambda: fit_quietly(on, X, y), lambda: fit_quietly(off, X, y), repeats=5
        )
        assert np.array_equal(on.coef_, off.coef_)
        _common.report(
            f"{name}_record_on_vs_off",
            params,
            t_on,
            "record_history=False",
            t_off,
            corrections=len(on.history_.corrections),
        )

    baseline = [
        arg.split("=", 1)[1] for arg in sys.argv[1:] if arg.startswith("--baseline=")
    ]
    if baseline:
        bench_against_baseline(pathlib.Path(baseline[0]).resolve(), n, params)


if __name__ == "__main__":
    main()

"""The SSE2 and the scalar squared-distance kernels answer the same, bit for bit.

A build with ``PATREC_NO_SIMD=1`` (setup.py) has the scalar kernel.  This test runs
when ``PATREC_OTHER_BUILD`` names the Python of an environment whose patrec has the
other kernel (.ci/run's wheel stage makes a scalar one): that Python runs this file
as a script, which saves its answers, and they must equal ours byte for byte.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from patrec.neighbors import BranchBoundTree, BruteForce, pairwise_distances
from patrec.neighbors.search import _distances

OTHER_BUILD = os.environ.get("PATREC_OTHER_BUILD")


def answers():
    """Distances and neighbours that go through the squared-distance kernel, for
    every remainder of the feature count modulo 4, in float32 and float64."""
    rng = np.random.default_rng(0)
    found = {}
    for dtype in (np.float32, np.float64):
        for n_features in (1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 31):
            X = (rng.standard_normal((300, n_features)) * 1e3 + 7).astype(dtype)
            Y = X[:40] + rng.standard_normal((40, n_features)).astype(dtype)
            key = f"{np.dtype(dtype).name}-{n_features}"
            for metric in ("sqeuclidean", "euclidean"):
                found[f"pairwise-{metric}-{key}"] = pairwise_distances(X, Y, metric)
            for index in (BranchBoundTree, BruteForce):
                distances, neighbours = index(X).query(Y, k=5)
                found[f"{index.__name__}-distances-{key}"] = distances
                found[f"{index.__name__}-neighbours-{key}"] = neighbours
    return found


@pytest.mark.skipif(not OTHER_BUILD, reason="PATREC_OTHER_BUILD names no other build")
def test_the_other_kernel_gives_the_same_answers(tmp_path):
    saved = tmp_path / "answers.npz"
    # the other build's own patrec: not the path tests/conftest.py points us at
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run([OTHER_BUILD, __file__, str(saved)], env=env, check=True)
    theirs = np.load(saved)
    assert bool(theirs["simd"]) != _distances.SIMD, "both builds have the same kernel"
    ours = answers()
    assert set(theirs.files) == {"simd", *ours}
    for key, value in ours.items():
        assert theirs[key].dtype == value.dtype, key
        assert theirs[key].tobytes() == value.tobytes(), key


if __name__ == "__main__":
    np.savez(sys.argv[1], simd=_distances.SIMD, **answers())

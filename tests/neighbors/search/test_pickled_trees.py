"""Pickles: stamped with the version that wrote them, refused by another version,
and a search tree's arrays checked on load, so that a damaged or tampered pickle is
a clear error, never a crash of the compiled search."""

import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import patrec
from patrec.neighbors import BranchBoundTree, BruteForce
from patrec.registry import classifier_names, get_classifier

# the learners' own convergence notes are not what these tests look at
pytestmark = pytest.mark.filterwarnings("ignore::patrec.exceptions.ConvergenceWarning")

TREES = {
    "kd euclidean": {},
    "kd cityblock": {"metric": "cityblock"},
    "kmeans euclidean": {"partition": "kmeans", "random_state": 0},
    "kmeans chebyshev": {
        "partition": "kmeans",
        "metric": "chebyshev",
        "random_state": 0,
    },
}


def _other_version(blob):
    ours = patrec.__version__.encode()
    assert ours in blob
    return blob.replace(ours, b"9.9.9")


@pytest.mark.parametrize("name", classifier_names())
def test_another_versions_estimator_is_refused_naming_both(name):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), np.repeat([0, 1, 2], 20)
    clf = get_classifier(name)().fit(X, y)
    blob = pickle.dumps(clf)
    np.testing.assert_array_equal(pickle.loads(blob).predict(X), clf.predict(X))
    with pytest.raises(
        ValueError, match=rf"patrec 9\.9\.9; this is patrec {patrec.__version__}"
    ):
        pickle.loads(_other_version(blob))


@pytest.mark.parametrize("index", [BruteForce, BranchBoundTree])
def test_another_versions_index_is_refused(index):
    blob = pickle.dumps(index(np.random.default_rng(1).normal(size=(50, 2))))
    with pytest.raises(ValueError, match=r"9\.9\.9.*is read only by the version"):
        pickle.loads(_other_version(blob))


def test_a_pickle_without_a_version_is_refused():
    from patrec.neighbors.search import _bnb_tree

    tree = BranchBoundTree(np.random.default_rng(2).normal(size=(50, 2)))
    fields = dict(tree._tree.__reduce__()[1][0])
    del fields["_patrec_version"]
    with pytest.raises(ValueError, match="did not record its version"):
        _bnb_tree._from_fields(fields)


# Every damage below is applied to the fields of a pickled tree; loading must raise a
# ValueError or give a tree whose searches run (a changed value that is still a
# valid tree, such as two samples of `order` swapped).  Run in a child process: a
# crash there fails this test instead of ending the test run.
_DAMAGE = textwrap.dedent(
    """
    import numpy as np
    from patrec.neighbors import BranchBoundTree
    from patrec.neighbors.search import _bnb_tree

    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    refused = loaded = 0
    for options in OPTIONS:
        fields = dict(BranchBoundTree(X, leaf_size=8, **options)._tree.__reduce__()[1][0])
        damages = []
        for name, value in fields.items():
            if isinstance(value, np.ndarray):
                flat = value.reshape(-1)
                for position in (0, len(flat) // 2, len(flat) - 1):
                    for new in (-1, -(2**40), 2**40, len(flat), 3, np.nan, np.inf):
                        damaged = value.copy()
                        try:
                            damaged.reshape(-1)[position] = new
                        except (ValueError, OverflowError):
                            continue
                        damages.append({name: damaged})
                damages.append({name: value[:-1]})
                other = np.int32 if value.dtype.kind == "f" else np.float64
                damages.append({name: value.astype(other)})
                damages.append({name: np.asfortranarray(value.reshape(len(value), -1))})
                damages.append({name: None})
            elif name != "_patrec_version":
                for new in (-1, 0, 10**6, 0.5, np.nan, None, "x"):
                    damages.append({name: new})
        for damage in damages:
            try:
                tree = _bnb_tree._from_fields({**fields, **damage})
            except (ValueError, TypeError):
                refused += 1
                continue
            loaded += 1
            out_d = np.empty((20, 3), X.dtype)
            out_i = np.empty((20, 3), np.intp)
            Q = np.ascontiguousarray(rng.normal(size=(20, 3)))
            _bnb_tree.knn_search(tree, Q, out_d, out_i, None, None)
            counts = np.empty(20, np.intp)
            _bnb_tree.radius_search(tree, Q, 0.5, 0.25, 10**6, counts, counts.copy())
    print(refused, loaded)
    """
)


def test_a_damaged_tree_pickle_is_refused_never_a_crash():
    code = _DAMAGE.replace("OPTIONS", repr(list(TREES.values())))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    refused, loaded = map(int, done.stdout.split())
    assert refused > 500, (refused, loaded)

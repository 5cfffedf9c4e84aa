"""The Examples sections of patrec.neighbors run as doctests."""
import doctest
import importlib
import pkgutil

import pytest

import patrec.neighbors

MODULES = sorted(info.name for info in pkgutil.iter_modules(patrec.neighbors.__path__)
                 if not info.name.startswith("_"))


def test_every_public_module_is_collected():
    assert {"bounds", "brute", "classifier", "metrics", "tree"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name):
    module = importlib.import_module(f"patrec.neighbors.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no Examples"
    assert result.failed == 0

"""The exercise pages (exercises/exercise_*.py): one per chapter, every exercise on
one, its stub with the template's signature, hints, and notebooks that read well."""

import ast
import importlib.util
import inspect
import pathlib

import pytest

from patrec.exercises import CheckResult, names, template

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "exercises").glob("exercise_*.py"))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stubs(page):
    """The functions a page defines for the reader to fill in, by name."""
    tree = ast.parse(page.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_one_page_per_chapter_in_the_course_order():
    order = load(ROOT / "docs" / "gallery_order.py", "gallery_order").COURSE_ORDER
    assert [page.name for page in PAGES] == sorted(order["exercises"])
    assert (ROOT / "exercises" / "README.txt").is_file()


def test_every_exercise_has_a_stub_with_the_template_signature():
    found = {}
    for page in PAGES:
        for name in stubs(page):
            assert name not in found, f"{name} is on {found[name]} and {page.name}"
            found[name] = page.name
    assert sorted(found) == sorted(names())
    for page in PAGES:
        module = load(page, page.stem)
        for name in stubs(page):
            namespace = {}
            exec(template(name), namespace)
            assert inspect.signature(getattr(module, name)) == inspect.signature(
                namespace[name]
            ), f"{page.name}: {name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_each_page_checks_its_stubs_and_gives_hints(page):
    text = page.read_text(encoding="utf-8")
    for name in stubs(page):
        assert f'check("{name}", {name})' in text, name
        assert f'template("{name}")' in text, name
    assert text.count(".. dropdown:: Hint") >= 2 * len(stubs(page))
    assert "Questions to discuss" in text


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_each_page_runs_and_its_checks_report_the_template(page, capsys):
    """Run as the docs build runs it: every check says the function is not written."""
    module = load(page, page.stem)
    for name in stubs(page):
        result = module.check(name, getattr(module, name))
        assert isinstance(result, CheckResult) and not result
        assert "raised NotImplementedError" in result.divergence.message
    assert "def " in capsys.readouterr().out  # the templates were printed


def test_notebook_text_turns_hints_into_details_and_links_into_text():
    notebook_text = load(ROOT / "docs" / "notebook_text.py", "notebook_text")
    text = (
        "Before.\n\n"
        ".. dropdown:: Hint 1: the blocks\n\n"
        "   Block $i$ holds the sample.\n\n"
        "   Second paragraph.\n\n"
        "After, see :ref:`the guide <linear>`, :func:`~patrec.decode` and "
        ":example:`linear/plot_update_rules`.\n"
    )
    converted = notebook_text.notebook_markdown(text)
    assert (
        "<details><summary>Hint 1: the blocks</summary>\n\nBlock $i$ holds" in converted
    )
    assert "Second paragraph.\n\n</details>" in converted
    assert "After, see the guide, patrec.decode and *" in converted
    assert ":example:" not in converted and ".. dropdown" not in converted
    title = notebook_text.example_title("linear/plot_update_rules")
    assert title and not title.startswith(("=", '"'))
    assert f"*{title}*" in converted

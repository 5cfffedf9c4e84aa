"""What a reader of the site meets, checked on the sources of its pages.

- Each chapter of the user guide shows its own gallery examples, and only those.
- The front page's "Where to start" links the course map, the notation and the
  glossary.
- A page with nothing to navigate has no (empty) navigation column.
- User pages carry no developer material (test paths, the development machine).
- The animated examples load nothing from another site: the Font Awesome link of
  matplotlib's player is dropped (docs/conf.py), so the pattern must match it.
"""

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GUIDE = DOCS / "user_guide"
EXAMPLES = ROOT / "examples"

if not (DOCS / "conf.py").is_file():  # the tests run from a copy without the docs
    pytest.skip("needs the docs sources", allow_module_level=True)


def _conf_value(name):
    """A top-level value of docs/conf.py, read without running it (running it writes
    the performance tables); for a dict comprehension, the tuple it iterates."""
    for node in ast.parse((DOCS / "conf.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == [name]:
            value = node.value
            if isinstance(value, ast.DictComp):
                value = value.generators[0].iter
            return ast.literal_eval(value)
    raise LookupError(name)


# -- each chapter's gallery -----------------------------------------------------------

CHAPTER_FOLDERS = {
    "linear": "linear",
    "discriminant": "discriminant",
    "piecewise": "piecewise",
    "neighbors": "neighbors",
    "editing": "neighbors",
}


def _minigallery(page):
    """The arguments of the page's "Gallery examples of this chapter" mini-gallery."""
    text = page.read_text(encoding="utf-8")
    match = re.search(
        r"^\.\. minigallery::(.*?)\n   :add-heading: Gallery examples of this chapter",
        text,
        re.S | re.M,
    )
    assert match, f"{page.name} has no mini-gallery of its chapter"
    return match.group(1).split()


@pytest.mark.parametrize("chapter", sorted(CHAPTER_FOLDERS))
def test_a_chapter_shows_its_own_examples(chapter):
    folder = EXAMPLES / CHAPTER_FOLDERS[chapter]
    shown = set()
    for argument in _minigallery(GUIDE / f"{chapter}.rst"):
        assert argument.startswith("../examples/"), (
            f"{argument}: name the chapter's example files; an object name also "
            "brings every other chapter's example that uses it"
        )
        found = sorted(DOCS.glob(argument))
        assert found, f"{argument} matches no example"
        shown |= {path.resolve() for path in found}
    outside = [path.name for path in shown if path.parent != folder.resolve()]
    assert not outside, f"{chapter}: examples of another chapter: {outside}"


def test_the_neighbour_chapters_share_out_their_folder():
    shown = [
        pathlib.Path(argument).name
        for chapter in ("neighbors", "editing")
        for argument in _minigallery(GUIDE / f"{chapter}.rst")
    ]
    assert len(shown) == len(set(shown)), "an example in both chapters"
    # the sharded k-NN belongs to the page past one process (distributed.rst)
    folder = {path.name for path in (EXAMPLES / "neighbors").glob("plot_*.py")}
    assert set(shown) == folder - {"plot_sharded_knn.py"}


# -- the front page and the navigation ----------------------------------------------


def test_where_to_start_links_the_course_map_notation_and_glossary():
    text = (DOCS / "index.rst").read_text(encoding="utf-8")
    section = text.split("Where to start\n==============\n", 1)[1].split(
        ".. toctree", 1
    )[0]
    for label in ("getting_started", "course", "user_guide", "notation", "glossary"):
        assert f":ref:`{label}`" in section


def _root_pages():
    text = (DOCS / "index.rst").read_text(encoding="utf-8")
    toctree = text.split(".. toctree::", 1)[1]
    return [line.strip() for line in toctree.splitlines() if re.match(r"^   \w", line)]


def test_single_pages_have_no_navigation_column():
    without = set(_conf_value("html_sidebars"))
    for page in _root_pages():
        source = DOCS / f"{page}.rst"
        if not source.is_file():  # a generated gallery index: it has children
            continue
        text = source.read_text(encoding="utf-8")
        has_children = ".. toctree::" in text or ":toctree:" in text
        assert has_children or page in without, (
            f"{page} has no pages under it: give it no sidebar (html_sidebars), or "
            "an empty 'Section Navigation' column squeezes its text"
        )


# -- developer material stays on the maintainers' pages ----------------------------

DEVELOPER = re.compile(r"\btests/\w|load average|development machine|\.ci/run")
USER_PAGES = sorted(
    page
    for page in [*DOCS.glob("*.rst"), *GUIDE.glob("*.rst")]
    # the maintainers' page is for developers
    if page.name != "maintainers.rst"
)


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda page: page.name)
def test_user_pages_carry_no_developer_material(page):
    text = page.read_text(encoding="utf-8")
    found = [match.group(0) for match in DEVELOPER.finditer(text)]
    assert not found, f"{page.name}: {found} (move it to docs/maintainers.rst)"


# -- animations ------------------------------------------------------------------------


def test_the_animation_player_links_nothing_the_build_keeps():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    fig, ax = plt.subplots()
    (line,) = ax.plot([0, 1], [0, 1])
    try:
        player = FuncAnimation(fig, lambda i: (line,), frames=2).to_jshtml()
    finally:
        plt.close(fig)
    kept = re.sub(_conf_value("FONT_AWESOME_CDN"), "", player)
    assert "fa-play" in kept  # the buttons stay; the theme's Font Awesome draws them
    assert not re.findall(r"(?:href|src)=\"https?://", kept)

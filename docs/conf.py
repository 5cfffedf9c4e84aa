"""Sphinx configuration: numpydoc for the docstrings, sphinx-gallery for examples/.

The build works offline: formulas are rendered by a copy of MathJax shipped with the
``sphinx-mathjax-offline`` package (no CDN), and intersphinx (links into the NumPy,
SciPy, Python and scikit-learn documentation) is only switched on when
``PATREC_DOCS_ONLINE=1`` is set, so that no inventory download can fail a build.

Build (the same command as CI and the README)::

    sphinx-build -W --keep-going -b html docs docs/_build/html
"""

import json
import os
import re
import sys
from pathlib import Path

from docutils import nodes
from sphinx.addnodes import pending_xref

import patrec

DOCS_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS_DIR))  # gallery_order.py

project = "patrec"
author = "the patrec developers"
copyright = "2026, the patrec developers"
release = patrec.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # Copies MathJax 3 into _static/mathjax and points mathjax_path at it.
    "sphinx-mathjax-offline",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    # dropdowns: the exercise pages' hints, revealed one at a time
    "sphinx_design",
]

# -- API pages -------------------------------------------------------------------
autosummary_generate = True
templates_path = ["_templates"]
# The class template lists every method and documents each one (inherited ones too:
# fit, score, get_params, set_params come from patrec.base).
numpydoc_show_class_members = False
numpydoc_attributes_as_param_list = True
autodoc_typehints = "none"
autodoc_default_options = {"members": True}

exclude_patterns = [
    "_build",
    "auto_examples/*.ipynb",
    "auto_examples/**/*.ipynb",
    "auto_exercises/*.ipynb",
    "**/*.codeobj.json",
    "**/*.md5",
]
default_role = "obj"  # `name` in a docstring links to the object when it exists
# Every cross-reference must resolve: an unresolved one is a warning, and -W makes it
# an error.  Other projects' objects are linked only in an online build (intersphinx,
# below); offline they are plain text, and only they are ignored here.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|scipy|sklearn|imblearn|dask|distributed|pandas)(\..+)?"),
]
# Not another project's, but pending: docstrings that still name an attribute or a
# private function as a cross-reference, in files other work is changing (issue 40).
# tests/test_docs_references.py fails once a file no longer does: then delete its entry.
PENDING_DOCSTRING_FIXES = []
nitpick_ignore = [("py:obj", name) for _, name in PENDING_DOCSTRING_FIXES]

html_theme = "pydata_sphinx_theme"
html_static_path = ["_static"]
html_title = f"patrec {release}"
html_css_files = ["patrec.css"]
# single pages have no section navigation: give their width to the text (an empty
# "Section Navigation" column squeezed the course map until words broke)
html_sidebars = {
    page: []
    for page in (
        "index",
        "getting_started",
        "course",
        "grading",
        "cli",
        "datasets",
        "performance",
        "from_sklearn",
        "notation",
        "glossary",
        "maintainers",
    )
}
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 8,
}

# -- Performance page, from the JSON lines of benchmarks/run.py --------------------
# its summary, the ratios its prose states, the full tables and the CSV download
from benchmark_tables import write_all  # noqa: E402
from notebook_text import notebook_markdown  # noqa: E402

write_all(DOCS_DIR / "benchmarks" / "results.jsonl", DOCS_DIR / "benchmarks")

# -- Gallery ---------------------------------------------------------------------
sphinx_gallery_conf = {
    # the course's figures, and the exercise pages (run, so that each shows what
    # checking the template says)
    "examples_dirs": ["../examples", "../exercises"],
    "gallery_dirs": ["auto_examples", "auto_exercises"],
    "filename_pattern": r"/(plot_|exercise_)",
    # the chapters in the course's order; folders added later come after them
    "subsection_order": [
        "../examples/linear",
        "../examples/discriminant",
        "../examples/piecewise",
        "../examples/neighbors",
        "*",
    ],
    # within a chapter, the order in which the course teaches (gallery_order.py)
    "within_subsection_order": "gallery_order.CourseOrder",
    # links from the code of the examples to the API pages, and the reverse
    # ("Examples using ..." at the end of every API page)
    "reference_url": {"patrec": None},
    "doc_module": ("patrec",),
    "backreferences_dir": "gen_modules/backreferences",
    # animated examples (FuncAnimation) are embedded as JavaScript players
    "matplotlib_animations": True,
    "remove_config_comments": True,
    # a chapter page's mini-gallery (its examples, by path) in the course's order
    "minigallery_sort_order": "gallery_order.course_place",
    "show_memory": False,
    # the timing pages would load a table script from a CDN
    "write_computation_times": False,
    "plot_gallery": "True",
}

# -- Links into other projects' documentation: online builds only ---------------
if os.environ.get("PATREC_DOCS_ONLINE") == "1":
    extensions.append("sphinx.ext.intersphinx")
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "numpy": ("https://numpy.org/doc/stable", None),
        "scipy": ("https://docs.scipy.org/doc/scipy", None),
        "sklearn": ("https://scikit-learn.org/stable", None),
    }


# -- :example:`folder/plot_name` links a gallery example ----------------------------
# The link text is the example's title.  The guide may name an example that another
# branch is still adding: until its script exists the role prints the script's path
# instead of a link, so the build never depends on the order in which work lands.
EXAMPLES_DIR = DOCS_DIR.parent / "examples"


def example_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    target = text.strip().removesuffix(".py")
    if not (EXAMPLES_DIR / f"{target}.py").is_file():
        return [nodes.literal(rawtext, f"examples/{target}.py")], []
    label = "sphx_glr_auto_examples_" + target.replace("/", "_") + ".py"
    node = pending_xref(
        rawtext,
        refdomain="std",
        reftype="ref",
        reftarget=label,
        refexplicit=False,
        refwarn=True,
    )
    node += nodes.inline(rawtext, target)
    return [node], []


# -- A public object named by another of its public paths -----------------------------
# The API reference documents each public object once, under the name its page shows
# (patrec.edit, patrec.datasets.Bunch).  Docstrings and pages may name it by another
# path that imports it (`patrec.neighbors.edit`), or, inside a subpackage's docstring,
# by the bare name that is documented once (`KNeighborsClassifier` in
# patrec.plotting): such a reference links to the documented page.  A name that
# imports nothing documented, or matches several documented objects (`fit`), stays
# unresolved and fails the build.
_documented = {}  # id(object) -> its documented names, built once per build


def _import_path(path):
    """The object a dotted path names (module attributes, class attributes), or
    None."""
    import importlib

    parts = path.split(".")
    for split in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:]:
            obj = getattr(obj, name, None)
            if obj is None:
                return None
        return obj
    return None


def _documented_names(env, obj):
    if not _documented:
        for name, entry in env.get_domain("py").objects.items():
            if entry.aliased:  # the defining module's path, which autodoc records too
                continue
            found = _import_path(name) if name.startswith("patrec") else None
            if found is not None and not isinstance(found, (str, int, float)):
                _documented.setdefault(id(found), set()).add(name)
    return _documented.get(id(obj), set())


def resolve_public_path(app, env, node, contnode):
    if node.get("refdomain") != "py" or node.get("reftype") == "mod":
        return None
    domain = env.get_domain("py")
    target = node["reftarget"].removeprefix("~").removeprefix(".")
    module, cls = node.get("py:module"), node.get("py:class")
    paths = [target]
    if module and cls:
        paths.append(f"{module}.{cls}.{target}")
    if module:
        paths.append(f"{module}.{target}")
    paths.append(f"patrec.{target}")
    names = set()
    for path in paths:
        obj = _import_path(path) if path.startswith("patrec") else None
        if obj is not None:
            names = _documented_names(env, obj)
            if names:
                break
    if not names:  # a bare name documented once, anywhere in patrec
        names = {
            name
            for name, entry in domain.objects.items()
            if name.endswith(f".{target}") and not entry.aliased
        }
    if len(names) != 1:
        return None
    (name,) = names
    return domain.resolve_xref(
        env, node["refdoc"], app.builder, "obj", name, node, contnode
    )


def forget_documented(app, env):
    _documented.clear()


# -- Animations load nothing from another site ------------------------------------
# matplotlib's JavaScript player links Font Awesome 4 from a CDN for its buttons.  The
# theme ships Font Awesome already (a script that draws the same "fa fa-play" icons),
# so the link is dropped from the gallery's pages before they are read.
FONT_AWESOME_CDN = r'<link rel="stylesheet"\s+href="https://maxcdn\.bootstrapcdn\.com/font-awesome/[^"]*">'


def drop_cdn_stylesheet(app, docname, source):
    if docname.startswith(("auto_examples/", "auto_exercises/")):
        source[0] = re.sub(FONT_AWESOME_CDN, "", source[0])


# -- "Previous" of a top-level page: the top-level page before it ------------------
# The API reference's generated pages come before the command-line page in reading
# order, so its "Previous" would read "main" (the last of them, patrec.cli.main).


def top_level_previous(app, pagename, templatename, context, doctree):
    pages = app.env.toctree_includes.get(app.config.root_doc, [])
    if pagename in pages[1:]:
        previous = pages[pages.index(pagename) - 1]
        context["prev"] = {
            "link": app.builder.get_relative_uri(pagename, previous),
            "title": app.builder.render_partial(app.env.titles[previous])["title"],
        }


# -- Notebooks: the reST sphinx-gallery leaves in their text, as Markdown -------------
# (notebook_text.py: a dropdown becomes <details>, a cross-reference its text)


def convert_notebooks(app):
    """Rewrite the gallery's notebooks (run after sphinx-gallery wrote them, before
    Sphinx copies them to the downloads)."""
    for gallery in sphinx_gallery_conf["gallery_dirs"]:
        for path in sorted((DOCS_DIR / gallery).rglob("*.ipynb")):
            notebook = json.loads(path.read_text(encoding="utf-8"))
            for cell in notebook["cells"]:
                if cell["cell_type"] == "markdown":
                    cell["source"] = notebook_markdown("".join(cell["source"]))
            path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


def setup(app):
    app.add_role("example", example_role)
    app.connect("env-updated", forget_documented)
    app.connect("missing-reference", resolve_public_path)
    app.connect("source-read", drop_cdn_stylesheet)
    app.connect("html-page-context", top_level_previous)
    app.connect("builder-inited", convert_notebooks, priority=900)

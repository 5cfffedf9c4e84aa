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
nitpicky = False

html_theme = "pydata_sphinx_theme"
html_static_path = ["_static"]
html_title = f"patrec {release}"
html_css_files = ["patrec.css"]
# single pages have no section navigation: give their width to the text
html_sidebars = {
    page: []
    for page in (
        "index",
        "getting_started",
        "cli",
        "datasets",
        "performance",
        "from_sklearn",
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
    app.connect("builder-inited", convert_notebooks, priority=900)

"""Sphinx configuration of the documentation site (``make docs``; MyST Markdown, the furo theme)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tiny_york_env import __version__  # noqa: E402

project = "Tiny York"
author = "the Tiny York developers"
copyright = "the Tiny York developers, MIT licence"
release = version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "results", "Thumbs.db", ".DS_Store"]

# GitHub-style anchors for "page.md#a-heading" links, as the pages are also read on GitHub.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_preserve_defaults = True

html_theme = "furo"
html_title = f"Tiny York {version}"
html_static_path = []


def literal_tables(app, what, name, obj, options, lines):
    """Show a docstring that holds a Markdown table (``| a | b |``) as written: reStructuredText
    would read its bars as line blocks and substitutions."""
    if any(line.lstrip().startswith("|") for line in lines):
        lines[:] = ["::", "", *(f"    {line}" for line in lines)]


def setup(app):
    """Register the docstring hook."""
    app.connect("autodoc-process-docstring", literal_tables)

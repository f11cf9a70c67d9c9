"""The docs stay true to the code."""

from pathlib import Path

from tiny_york_env.game.actions import actions_table_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_actions_doc_table_matches_codec():
    """docs/actions.md embeds the table generated from ACTION_BLOCKS, unchanged."""
    text = (ROOT / "docs" / "actions.md").read_text()
    start = text.index("<!-- actions-table:start -->") + len("<!-- actions-table:start -->")
    end = text.index("<!-- actions-table:end -->")
    assert text[start:end].strip() == actions_table_markdown()


def test_readme_opens_with_the_two_commands():
    """The README shows `make demo` and `make test` before anything else."""
    head = (ROOT / "README.md").read_text().splitlines()[:25]
    assert any("make demo" in line for line in head)
    assert any("make test" in line for line in head)

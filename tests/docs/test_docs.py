"""The docs stay true to the code."""

import os
import subprocess
import sys
from pathlib import Path

from tiny_york_env.games.tiny_york.actions import actions_table_markdown

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


def _readme_python_blocks():
    """The ```python blocks of the README, in order."""
    text = (ROOT / "README.md").read_text()
    return [block.split("```", 1)[0] for block in text.split("```python")[1:]]


def test_readme_code_runs(tmp_path):
    """Every Python example in the README runs as written (in a fresh interpreter)."""
    blocks = _readme_python_blocks()
    assert len(blocks) >= 3
    for k, code in enumerate(blocks):
        script = tmp_path / f"readme_block_{k}.py"
        script.write_text(code)
        result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                                text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert result.returncode == 0, f"README block {k} failed:\n{code}\n{result.stderr[-2000:]}"

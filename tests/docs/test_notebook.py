"""notebooks/quickstart.ipynb executes top to bottom (its fast setting), in a fresh interpreter."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "quickstart.ipynb"
NOTEBOOK_TIMEOUT_S = 300


def notebook_code(path):
    """The code cells of a notebook joined in order, as one script (IPython-only lines refused)."""
    notebook = json.loads(path.read_text())
    assert notebook["nbformat"] == 4
    cells = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    for cell in cells:
        magic = [line for line in cell.splitlines() if line.lstrip().startswith(("%", "!"))]
        assert not magic, f"IPython-only lines would not run outside Jupyter: {magic}"
    return cells


def test_notebook_has_no_stored_outputs():
    """Outputs are not committed: the notebook stays small and diffs stay readable."""
    notebook = json.loads(NOTEBOOK.read_text())
    assert all(not cell.get("outputs") for cell in notebook["cells"] if cell["cell_type"] == "code")


def test_notebook_runs_top_to_bottom(tmp_path):
    """Every code cell, in order, in one namespace, from another directory than the repo's:
    it imports everything from the installed package."""
    cells = notebook_code(NOTEBOOK)
    assert len(cells) >= 5
    script = tmp_path / "quickstart.py"
    script.write_text("\n\n".join(cells) + '\n\nprint("NOTEBOOK DONE", FAST)\n')
    environment = {**os.environ, "TINY_YORK_NOTEBOOK_FAST": "1", "MPLBACKEND": "Agg",
                   "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=environment,
                         capture_output=True, text=True, timeout=NOTEBOOK_TIMEOUT_S)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "NOTEBOOK DONE True" in run.stdout
    assert "win rate" in run.stdout and "Tom 5 (B4)" in run.stdout

"""The result file a benchmark writes with ``--out FILE.json``: a ``kind: table`` file (columns,
rows and the provenance: command, day, machine, package version, a note) that the docs render
(``scripts/render_results.py``, ``docs/results/README.md``)."""

import datetime
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from tiny_york_env import __version__
from tiny_york_env.arena.provenance import machine_description


def write_table_result(path: Path, columns: Sequence[str], rows: Sequence[Sequence[object]], note: str,
                       machine_note: str = "") -> None:
    """Write the table ``columns`` x ``rows`` with the provenance of this run to ``path``."""
    script = Path(sys.argv[0]).name
    provenance = {"command": " ".join([f"python benchmarks/{script}", *sys.argv[1:]]),
                  "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
                  "machine": machine_description() + (f", {machine_note}" if machine_note else ""),
                  "version": __version__, "note": note}
    data = {"kind": "table", "provenance": provenance, "columns": list(columns),
            "rows": [list(row) for row in rows]}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")

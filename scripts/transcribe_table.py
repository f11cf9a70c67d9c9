"""Keep a published table whose run left no result file as a ``kind: table`` result file.

Some figures were measured by runs whose own output was not kept (the README recorded them). This
copies such a table, cell for cell, from a Markdown file of a given commit into a result file with
its provenance, so the pages render it like every other figure (``scripts/render_results.py``)::

    python scripts/transcribe_table.py --commit 736915b --file README.md --after "| setup | engine" \\
        --command "python benchmarks/engine.py --game construction_yard" --date 2026-11-25 \\
        --machine "AMD EPYC, 2 cores" --out docs/results/construction-yard-engine.json

``--after`` is the start of the table's header line. A figure measured again replaces its file
with the tool's own output.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def split_row(line: str) -> list[str]:
    """The cells of one Markdown table row."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def table_after(text: str, header_start: str, nth: int = 1) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the ``nth`` table whose header line starts with ``header_start``."""
    lines = text.splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith(header_start)]
    if len(starts) < nth:
        raise ValueError(f"no table number {nth} whose header starts with {header_start!r}")
    rows = []
    for row in lines[starts[nth - 1] + 2:]:
        if not row.startswith("|"):
            break
        rows.append(split_row(row))
    return split_row(lines[starts[nth - 1]]), rows


def main(argv: Sequence[str] | None = None) -> int:
    """Write the result file of one transcribed table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", required=True, help="the commit whose file holds the table")
    parser.add_argument("--file", required=True, help="the Markdown file, relative to the repository root")
    parser.add_argument("--after", required=True, help="the start of the table's header line")
    parser.add_argument("--nth", type=int, default=1, help="which table with that header (1: the first)")
    parser.add_argument("--keep", type=int, default=None, help="keep only the first KEEP columns")
    parser.add_argument("--columns", default=None, help="the header to publish instead, cells split by '|'")
    parser.add_argument("--command", required=True, help="the command that measured the figures")
    parser.add_argument("--date", required=True, help="the day the figures were measured (YYYY-MM-DD)")
    parser.add_argument("--machine", required=True, help="the machine they were measured on")
    parser.add_argument("--version", default=None, help="the package version of the run, where known")
    parser.add_argument("--seeds", default=None, help="the seeds of the run, where it had any")
    parser.add_argument("--note", default=None, help="anything else a reader of the figures must know")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    text = subprocess.run(["git", "show", f"{args.commit}:{args.file}"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    columns, rows = table_after(text, args.after, args.nth)
    if args.keep is not None:
        columns, rows = columns[:args.keep], [row[:args.keep] for row in rows]
    if args.columns is not None:
        renamed = [cell.strip() for cell in args.columns.split("|")]
        if len(renamed) != len(columns):
            raise ValueError(f"--columns gives {len(renamed)} cells; the table has {len(columns)}")
        columns = renamed
    provenance = {"command": args.command, "date": args.date, "machine": args.machine,
                  "version": args.version, "seeds": args.seeds,
                  "source": f"transcribed from {args.file} at commit {args.commit}; the run's own output "
                            "was not kept", "note": args.note}
    data = {"kind": "table", "provenance": {k: v for k, v in provenance.items() if v is not None},
            "columns": columns, "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(rows)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

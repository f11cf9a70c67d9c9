#!/usr/bin/env bash
# Play the champion's published figures under its definition by playouts (no clock), as each game's
# record lists them (scripts/publish_runs.py champion: Tiny York's ladder at 400 games a level at
# Toms 7-12 and 100 at Toms 1-6, seed 3, in resumable parts of 100; Construction Yard's and 5th
# Avenue's games against their bots and the greedy agent), each kept as a result file in
# docs/results. Each step is resumable: run the script again after a stop and the finished parts
# are kept. Hours on 2 cores; WORKERS=2 plays two games at a time. ONLY="NAME ..." plays and
# publishes those results alone (remove their runs under results/champion first, as a finished run
# is kept, not played again).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
export PY
exec "$PY" scripts/publish_runs.py champion "$@"

#!/usr/bin/env bash
# Play the matches the games' pages publish (scripts/publish_runs.py matches: the standard matches of
# every game that ships a policy per setup, then each game's own), each kept as a result file in
# docs/results. About 10 minutes on 2 cores. GAMES="fifth_avenue" plays one game's matches only
# (after its shipped policy changed); PY= picks the Python.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
export PY
exec "$PY" scripts/publish_runs.py matches "$@"

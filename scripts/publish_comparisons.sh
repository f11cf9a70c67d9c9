#!/usr/bin/env bash
# Play the sequential tests the champion's page publishes, as each game's record lists them
# (scripts/publish_runs.py comparisons: tiny-york compare, paired games until the SPRT decides "B is
# better than A by at least 5 points of win share" or "by at most 0"), each resumable (run it again
# after a stop: a finished test is kept, a stopped one goes on), kept as
# docs/results/compare-NAME.json. One core a test. ONLY="NAME ..." plays those tests alone.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
export PY
exec "$PY" scripts/publish_runs.py comparisons "$@"

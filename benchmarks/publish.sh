#!/usr/bin/env bash
# Measure the benchmarks the docs publish and rewrite their result files (docs/results), then the
# pages' tables. Run on an otherwise idle machine, from the repository root (about 10 minutes on 2
# cores); each file records the command, the day, the machine and the version.
set -euo pipefail
PY=${PY:-.venv/bin/python}
OUT=docs/results
"$PY" benchmarks/engine.py --out $OUT/engine.json
"$PY" benchmarks/aec_env.py --out $OUT/aec-env.json
for game in $("$PY" -c 'from tiny_york_env.registry import BUILTIN_GAMES; print(" ".join(BUILTIN_GAMES))'); do
  "$PY" benchmarks/vector_env.py --game $game --repeats 3 --out $OUT/${game//_/-}-vecenv.json
done
"$PY" benchmarks/decision_time.py --games 4 --out $OUT/champion-decision-time.json
"$PY" scripts/render_results.py

#!/usr/bin/env bash
# Expert iteration of Tiny York's network made for search (256-32), kept in git as it runs.
#
#   training/recipes/exit_search_network.sh [GENERATIONS]      (default 3; more goes on further)
#
# The start network (records/exit-tiny-york-256-32/start.zip) is the shipped champion network
# distilled into 256-32 hidden layers (its card keeps the imitation stage):
#   python -m tiny_york_env.training.imitate --teacher ppo:agents/models/champion.zip --net-arch 256,32 \
#       --games 3000 --levels 1,4,7,10,12 --eval-games 0 --out runs/distil-256-32
#   python -m tiny_york_env.training.export runs/distil-256-32/policy.zip \
#       records/exit-tiny-york-256-32/start.zip --weights-dtype float32 --stage runs/distil-256-32
# Each generation: GAMES (240) games of the champion's search with SIMULATIONS (128) playouts a
# searched decision against Tom 7, 10 and 12 in turn, the fit, the ladder alone against Tom 10 and 12,
# and the gate: tiny-york compare's SPRT of the fitted network alone against the one it came from,
# paired deals against Tom 12. The fit learns from the games of the last WINDOW (3; generation 5
# ran with WINDOW=2) generations,
# accepted or not (generation 1 was fitted on its own, before the window was set). Generations 1-3
# fitted the policy to the search's choice (--policy-target chosen); from generation 4 it fits the
# search's improved policy (POLICY_TARGET, improved: training/search_targets.py), the earlier
# generations' games, whose records hold no search statistics, one-hot. Every game's
# record lands in the folder as it ends; the script resumes a stopped run (on any machine with the
# folder: commit it as it grows).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
OUT=${OUT:-records/exit-tiny-york-256-32}
GENERATIONS=${1:-3}
resume=()
[ -f "$OUT/generations.json" ] && resume=(--resume)
"$PY" -m tiny_york_env.training.expert_iteration --out "$OUT" --start "$OUT/start.zip" \
    --generations "$GENERATIONS" --games "${GAMES:-240}" --simulations "${SIMULATIONS:-128}" \
    --levels 7,10,12 --selfplay-every 0 --eval-levels 10,12 --eval-games "${EVAL_GAMES:-200}" \
    --gate-vs 12 --gate-player alone --gate-max-pairs "${GATE_MAX_PAIRS:-400}" --seed 61 \
    --window "${WINDOW:-3}" --policy-target "${POLICY_TARGET:-improved}" --workers "${WORKERS:-2}" \
    "${resume[@]}"

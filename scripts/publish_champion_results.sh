#!/usr/bin/env bash
# Play the champion's published figures under its definition by playouts (no clock) and keep each as
# a result file in docs/results: Tiny York's ladder (400 games a level at Toms 7-12, 100 at Toms
# 1-6, seed 3, in resumable parts of 100), and Construction Yard's and 5th Avenue's games against
# their greedy and random bots (two players), against the greedy agent (two players, seats rotated)
# and against two greedy bots (three players). Each step is resumable: run
# the script again after a stop and the finished parts are kept. Hours on 2 cores (a Tiny York
# champion game takes 5-10 s on one core); WORKERS=2 plays two games at a time. ONLY="NAME ..."
# plays and publishes those results alone (e.g. after a shipped policy changed: remove their runs
# under results/champion first, as a finished run is kept, not played again).
set -euo pipefail
PY=${PY:-.venv/bin/python}
TY=${TY:-.venv/bin/tiny-york}
WORKERS=${WORKERS:-1}
RUNS=results/champion
ONLY=${ONLY:-}
wanted() {  # wanted NAME: true unless ONLY names other results
  [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]
}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
ladder() {  # ladder NAME GAMES PART ARGS...: a ladder in parts, kept as docs/results/champion-NAME.json
  local name=$1 games=$2 part=$3; shift 3
  wanted "$name" || return 0
  "$TY" eval --agent champion --games "$games" --part-games "$part" --seed 3 --workers "$WORKERS" \
      --no-progress --out "$RUNS/$name" "$@"
  "$PY" scripts/publish_result.py "$RUNS/$name/ladder.json" "docs/results/champion-$name.json" --machine-here
}
match() {  # match NAME GAMES ARGS...: a match (ARGS: --vs champion ...), kept as docs/results/champion-NAME.json
  local name=$1 games=$2; shift 2
  wanted "$name" || return 0
  [ -f "$RUNS/$name/match.json" ] || "$TY" eval --games "$games" --seed 3 \
      --workers "$WORKERS" --no-progress --out "$RUNS/$name" "$@"
  "$PY" scripts/publish_result.py "$RUNS/$name/match.json" "docs/results/champion-$name.json" --drop-games
}
ladder tiny-york-tom10-tom12 400 100 --levels 12,10
ladder tiny-york-tom1-6 100 100 --levels 6,5,4,3,2,1
ladder tiny-york-tom7-11 400 100 --levels 11,9,8,7
ladder construction-yard-2p 200 50 --game construction_yard --levels greedy,random
match construction-yard-3p-greedy-bots 200 --game construction_yard --vs champion --bots greedy greedy
match construction-yard-2p-greedy-agent 100 --game construction_yard --vs champion greedy
ladder fifth-avenue-2p 100 50 --game fifth_avenue --levels greedy,random
match fifth-avenue-2p-greedy-agent 100 --game fifth_avenue --vs champion greedy
match fifth-avenue-3p-greedy-bots 100 --game fifth_avenue --vs champion --bots greedy greedy
"$PY" scripts/render_results.py --no-plots

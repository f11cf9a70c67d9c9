#!/usr/bin/env bash
# Play the sequential tests the champion's page publishes (tiny-york compare: paired games until
# the SPRT decides "B is better than A by at least 5 points of win share" or "by at most 0"), each
# resumable (run it again after a stop: a finished test is kept, a stopped one goes on), and keep
# each as docs/results/compare-NAME.json (settings and decision; the games stay in results/compare).
# Then python scripts/render_results.py redraws the table. One core a test (OMP_NUM_THREADS=1).
# ONLY="NAME ..." plays those tests alone (remove a test's run under results/compare to play it anew).
set -euo pipefail
PY=${PY:-.venv/bin/python}
TY=${TY:-.venv/bin/tiny-york}
RUNS=results/compare
ONLY=${ONLY:-}
wanted() {  # wanted NAME: true unless ONLY names other tests (as in publish_champion_results.sh)
  [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]
}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
compare() {  # compare NAME A B ARGS...: one test, kept as docs/results/compare-NAME.json
  local name=$1 a=$2 b=$3; shift 3
  wanted "$name" || return 0
  local out="$RUNS/$name" resume=()
  [ -f "$out/compare.json" ] && resume=(--resume)
  "$TY" compare "$a" "$b" --seed 0 --out "$out" ${resume[@]+"${resume[@]}"} "$@"
  "$PY" scripts/publish_result.py "$out/compare.json" "docs/results/compare-$name.json" --drop-games
}
# Tiny York: is expert iteration's generation 1 better than the shipped PPO network, alone?
compare gen1-alone-tom12 ppo ppo:agents/models/champion.zip --vs 12
compare gen1-alone-tom10 ppo ppo:agents/models/champion.zip --vs 10
# Construction Yard and 5th Avenue, two players: is the champion's search better than its policy?
compare cy-champion-greedy ppo champion --game construction_yard --vs greedy --max-pairs 400
compare 5a-champion-greedy ppo champion --game fifth_avenue --vs greedy --max-pairs 400
"$PY" scripts/render_results.py --no-plots

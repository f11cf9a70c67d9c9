#!/usr/bin/env bash
# Play the matches that Construction Yard's and 5th Avenue's pages publish (the shipped policies and
# the baselines against greedy and random opponents, seats rotated, seed 0) and keep each as a
# result file in docs/results (cells and settings; the per-game records stay in results/matches).
# About 10 minutes on 2 cores. Then python scripts/render_results.py redraws the tables.
# GAMES="fifth_avenue" plays one game's matches only (after its shipped policy changed).
set -euo pipefail
PY=${PY:-.venv/bin/python}
EVAL=${EVAL:-.venv/bin/tiny-york}
RUNS=results/matches
match() {  # match GAME NAME GAMES ARGS...: one match (ARGS may give another --seed), kept as docs/results/GAME-NAME.json
  local game=$1 name=$2 games=$3; shift 3
  "$EVAL" eval --game "$game" --games "$games" --seed 0 --workers 2 --no-progress --out "$RUNS/$game-$name" "$@"
  "$PY" scripts/publish_result.py "$RUNS/$game-$name/match.json" "docs/results/${game//_/-}-$name.json" --drop-games
}
GAMES=${GAMES:-construction_yard fifth_avenue}
for game in $GAMES; do
  match $game ppo-2p-greedy 1000 --vs ppo greedy
  match $game ppo-2p-random 1000 --vs ppo random
  match $game ppo-3p-greedy 999 --vs ppo greedy greedy
  match $game ppo-3p-random 999 --vs ppo random random
  match $game greedy-random 400 --vs greedy random
  match $game greedy-greedy-bot 300 --vs greedy --bots greedy
  match $game random-greedy-bot 300 --vs random --bots greedy
  match $game greedy-3p-random 300 --vs greedy random random
  match $game greedy-2-greedy-bots 300 --vs greedy --bots greedy greedy
done
# 5th Avenue's search agents, fewer games (a search decision costs milliseconds, psearch's far more)
if [[ " $GAMES " == *" fifth_avenue "* ]]; then
  match fifth_avenue search64-greedy 40 --vs search:64 greedy
  match fifth_avenue gsearch8-search8 30 --vs gsearch:8 search:8 --seed 1
  match fifth_avenue psearch64-ppo 20 --vs psearch:64 ppo --seed 1
fi
"$PY" scripts/render_results.py --no-plots

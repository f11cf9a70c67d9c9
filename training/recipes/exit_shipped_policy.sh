#!/usr/bin/env bash
# Expert iteration for the shipped two-player policy of Construction Yard or 5th Avenue: the
# champion's search on the shipped policy plays games against the greedy bot (and against itself),
# the policy is fitted to the search's choices, a sequential test decides whether the fitted network
# alone beats the shipped one, and only then is it exported over the shipped file.
#
#   training/recipes/exit_shipped_policy.sh GAME [OUT]     (GAME: construction_yard or fifth_avenue;
#                                                   default OUT: runs/exit-GAME)
#   GEN=2 training/recipes/exit_shipped_policy.sh GAME     (the next generation, from the file the first
#                                                   exported: OUT runs/exit-GAME-gen2, seed 1)
#
# 1. python -m tiny_york_env.training.expert_iteration: one generation of GAMES games (default
#    600) of the champion's search (256 playouts where the prior is under 90% sure) on the
#    shipped policy (copied first, with its card, to OUT/start.zip and .json), two solo games
#    against the greedy bot for every self-play game (so the policy also learns the second seat),
#    then the fit;
# 2. the gate: tiny-york compare of the shipped network alone (A) and the fitted one (B), paired
#    deals against the greedy bot, until the SPRT accepts "B wins at least 5 points more a deal"
#    or rejects it (docs/results/compare-GAME-exit-alone.json, -exit-genN-alone for generation N;
#    the run's generations.json is kept as docs/results/expert-iteration-GAME-2p[-genN].json);
# 3. on acceptance, training.export over agents/models/GAME-2p.zip, its card keeping the shipped
#    policy's stages before the expert-iteration run's.
# Every step resumes where a stopped run left it: run the script again. About 30 minutes on 2 cores
# for 5th Avenue (a searched game takes about 3 s on one core). Then the published figures that
# play the file are played again: GAMES=GAME scripts/publish_game_matches.sh, and with
# ONLY="NAMES" scripts/publish_champion_results.sh and scripts/publish_comparisons.sh (remove those
# runs under results/ first: a finished run of the old file is kept, not played again).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
TY=${TY:-.venv/bin/tiny-york}
GAME=${1:?give the game: construction_yard or fifth_avenue}
GEN=${GEN:-1}  # which generation this is: its folder, its seed and its published files' names
suffix=""
[ "$GEN" = 1 ] || suffix="-gen$GEN"
OUT=${2:-runs/exit-$GAME$suffix}
GAMES=${GAMES:-600}
SEED=${SEED:-$((GEN - 1))}  # the searched games' seed: each generation its own deals
WORKERS=${WORKERS:-2}
SHIPPED=agents/models/$GAME-2p.zip
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
mkdir -p "$OUT"
if [ ! -f "$OUT/start.zip" ]; then  # what the run starts from and is tested against, kept after the export
    cp "${SHIPPED%.zip}.json" "$OUT/start.json"
    cp "$SHIPPED" "$OUT/start.zip"
fi
resume=()
[ -f "$OUT/run/generations.json" ] && resume=(--resume)
"$PY" -m tiny_york_env.training.expert_iteration --game "$GAME" \
    --generations 1 --games "$GAMES" --levels greedy --selfplay-every 3 --eval-levels greedy \
    --eval-games 400 --workers "$WORKERS" --seed "$SEED" --out "$OUT/run" ${resume[@]+"${resume[@]}"}
cp "$OUT/run/generations.json" "docs/results/expert-iteration-${GAME//_/-}-2p$suffix.json"  # the run's record
resume=()
[ -f "$OUT/gate/compare.json" ] && resume=(--resume)
"$TY" compare "ppo:$OUT/start.zip" "ppo:$OUT/run/gen-1/policy.zip" --game "$GAME" --vs greedy \
    --max-pairs 2000 --seed 0 --workers "$WORKERS" --no-progress --out "$OUT/gate" ${resume[@]+"${resume[@]}"}
"$PY" scripts/publish_result.py "$OUT/gate/compare.json" "docs/results/compare-${GAME//_/-}-exit$suffix-alone.json" \
    --drop-games
decision=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"]["decision"])' \
    "$OUT/gate/compare.json")
if [ "$decision" != H1 ]; then
    echo "the fitted network is not better by the test ($decision): $SHIPPED is kept"
    exit 0
fi
exported=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["source"])' "${SHIPPED%.zip}.json")
if [ "$exported" = "$OUT/run/gen-1/policy.zip" ]; then
    echo "$SHIPPED is already the fitted network"
    exit 0
fi
"$PY" -m tiny_york_env.training.export "$OUT/run/gen-1/policy.zip" "$SHIPPED" \
    --stages-from "$OUT/start.json" --stage "$OUT/run"

#!/usr/bin/env bash
# The commands that trained the shipped Construction Yard agents (docs/model-cards.md):
# agents/models/construction_yard-2p.zip (two players with Dirk) and construction_yard-3p.zip.
#
#   training/train_construction_yard_agents.sh [OUT]     (default OUT: runs/construction_yard)
#
# For each player count, as for Tiny York's shipped agent:
# 1. behaviour cloning of the greedy policy in the agent seat against greedy bots in every other
#    seat (4,000 games; PPO from scratch levels off below the greedy bots: about 52% with two
#    players and 25% with three after 14M steps);
# 2. MaskablePPO from the clone against the same bots, reward "score" (the final margin / 50),
#    a low learning rate and entropy bonus so that it improves on the clone instead of leaving it;
#    the shipped policies are the checkpoints at 17,998,848 and 23,998,464 steps of runs meant
#    for 40M, stopped for time once the periodic evaluations had levelled off (about 62-67% and
#    40-44% against the greedy bots); a checkpoint holds the weights after the last whole rollout
#    of 16,384 steps, so the runs below stop at STEPS_2P and STEPS_3P and end in those weights;
# 3. the compact export with its model card;
# 4. the 1,000-game matches against greedy and random in every other seat (the published figures, docs/results).
# The two player counts train side by side, one core each (AMD EPYC, 2 cores, 2026-11-25). Every
# stage is seeded, but torch's CPU arithmetic may round differently on another CPU or thread
# count: expect figures nearby.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
OUT=${1:-runs/construction_yard}
STEPS_2P=${STEPS_2P:-17989632}  # 1,098 rollouts
STEPS_3P=${STEPS_3P:-23986176}  # 1,464 rollouts

train() {  # train N STEPS: both stages and the export for N players
    local n=$1 steps=$2 bots=()
    for _ in $(seq 2 "$n"); do bots+=(greedy); done
    "$PY" -m tiny_york_env.training.imitate --game construction_yard --players "$n" --bots "${bots[@]}" \
        --teacher greedy --games 4000 --epochs 10 --eval-games 200 --torch-threads 1 --seed 0 \
        --no-progress --out "$OUT/${n}p-bc"
    "$PY" -m tiny_york_env.training.train_ppo --game construction_yard --players "$n" --bots "${bots[@]}" \
        --init-from "$OUT/${n}p-bc/policy.zip" --reward score --learning-rate 1e-4 --ent-coef 0.003 \
        --total-steps "$steps" --eval-every 2000000 --eval-games 400 --checkpoint-every 2000000 \
        --seed 2 --no-progress --out "$OUT/${n}p-ppo"
    "$PY" -m tiny_york_env.training.export "$OUT/${n}p-ppo/policy.zip" \
        "agents/models/construction_yard-${n}p.zip" --stage "$OUT/${n}p-bc" --stage "$OUT/${n}p-ppo"
}

evaluate() {  # evaluate N: the shipped policy against greedy and random in the other seats
    local n=$1
    for opponent in greedy random; do
        local vs=(ppo)
        for _ in $(seq 2 "$n"); do vs+=("$opponent"); done
        "$PY" -m tiny_york_env.cli eval --game construction_yard --vs "${vs[@]}" --games 1000 --seed 0 \
            --out "$OUT/eval-${n}p-$opponent"
    done
}

train 2 "$STEPS_2P" & train 3 "$STEPS_3P" & wait
evaluate 2
evaluate 3

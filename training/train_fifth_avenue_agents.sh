#!/usr/bin/env bash
# The commands that trained the shipped 5th Avenue agents (docs/model-cards.md):
# agents/models/fifth_avenue-2p.zip (two players, Alea bidding in every auction) and
# fifth_avenue-3p.zip.
#
#   training/train_fifth_avenue_agents.sh [OUT]     (default OUT: runs/fifth_avenue)
#
# For each player count, as for Construction Yard's shipped agents:
# 1. behaviour cloning of the greedy policy (fifth_avenue/bots.py) in the agent seat against
#    greedy bots in every other seat (3,000 games);
# 2. MaskablePPO from the clone against the same bots, reward "score" (the final margin / 50),
#    a low learning rate and entropy bonus so that it improves on the clone instead of leaving
#    it; STEPS_2P / STEPS_3P steps (120 rollouts of 16,384), what one session's time allowed;
# 3. the compact export with its model card;
# 4. the 1,000-game matches against greedy and random in every other seat (the published figures, docs/results).
# The two player counts train side by side, one core each (AMD EPYC, 2 cores, 2026-11-26). Every
# stage is seeded, but torch's CPU arithmetic may round differently on another CPU or thread
# count: expect figures nearby.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
OUT=${1:-runs/fifth_avenue}
STEPS_2P=${STEPS_2P:-1966080}
STEPS_3P=${STEPS_3P:-1966080}

train() {  # train N STEPS: both stages and the export for N players
    local n=$1 steps=$2 bots=()
    for _ in $(seq 2 "$n"); do bots+=(greedy); done
    "$PY" -m tiny_york_env.training.imitate --game fifth_avenue --players "$n" --bots "${bots[@]}" \
        --teacher greedy --games 3000 --epochs 8 --eval-games 200 --torch-threads 1 --seed 0 \
        --no-progress --out "$OUT/${n}p-bc"
    "$PY" -m tiny_york_env.training.train_ppo --game fifth_avenue --players "$n" --bots "${bots[@]}" \
        --init-from "$OUT/${n}p-bc/policy.zip" --reward score --learning-rate 1e-4 --ent-coef 0.003 \
        --total-steps "$steps" --eval-every 491520 --eval-games 200 --checkpoint-every 491520 \
        --seed 2 --no-progress --out "$OUT/${n}p-ppo"
    "$PY" -m tiny_york_env.training.export "$OUT/${n}p-ppo/policy.zip" \
        "agents/models/fifth_avenue-${n}p.zip" --stage "$OUT/${n}p-bc" --stage "$OUT/${n}p-ppo"
}

evaluate() {  # evaluate N: the shipped policy against greedy and random in the other seats
    local n=$1
    for opponent in greedy random; do
        local vs=(ppo)
        for _ in $(seq 2 "$n"); do vs+=("$opponent"); done
        "$PY" -m tiny_york_env.cli eval --game fifth_avenue --vs "${vs[@]}" --games 1000 --seed 0 \
            --out "$OUT/eval-${n}p-$opponent"
    done
}

if [ "${EVALUATE_ONLY:-0}" != 1 ]; then
    train 2 "$STEPS_2P" & train 3 "$STEPS_3P" & wait
fi
evaluate 2
evaluate 3

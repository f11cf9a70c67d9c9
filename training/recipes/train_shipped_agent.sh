#!/usr/bin/env bash
# The commands that trained the shipped agent, agents/models/ppo.zip (docs/model-cards.md).
#
#   training/recipes/train_shipped_agent.sh [OUT]        (default OUT: runs/shipped; `make shipped-agent`)
#
# 1. behaviour cloning of the greedy baseline against Tom 5 (warm start: PPO from scratch almost
#    never wins against Tom, so its reward says little at first);
# 2. MaskablePPO against Tom 5 from the clone, reward "score" (the final margin / 50);
# 3. more of the same with other training games (seed 1), from stage 2's SB3 checkpoint (its
#    policy and Adam tensors, read with torch.load(weights_only=True));
# 4. the compact export into agents/models/ppo.zip (a policy file: card.json + float16 weights,
#    loaded without unpickling, agents/ppo_agent.py) with its model card (ppo.json);
# 5. the 1,000-game evaluation against Tom 5 and the full ladder (the published figures, docs/results).
# About 2 h 25 min on 2 cores (AMD EPYC, 2026-11-23). Every stage is seeded, but torch's CPU
# arithmetic may round differently on another CPU or thread count: expect figures nearby.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
OUT=${1:-runs/shipped}
PPO_OPTIONS=(--reward score --learning-rate 1e-4 --ent-coef 0.003 --torch-threads 2 --eval-levels 5
             --no-progress)

"$PY" -m tiny_york_env.training.imitate --teacher greedy --levels 5 --games 4000 --epochs 10 --seed 0 \
    --eval-games 200 --eval-levels 1,5 --no-progress --out "$OUT/bc"
"$PY" -m tiny_york_env.training.train_ppo --init-from "$OUT/bc/policy.zip" "${PPO_OPTIONS[@]}" \
    --total-steps 6000000 --eval-every 1000000 --eval-games 200 --checkpoint-every 1000000 --seed 0 --out "$OUT/ppo-1"
"$PY" -m tiny_york_env.training.train_ppo --init-from "$OUT/ppo-1/model.zip" "${PPO_OPTIONS[@]}" \
    --total-steps 30000000 --eval-every 2000000 --eval-games 400 --checkpoint-every 2000000 \
    --seed 1 --out "$OUT/ppo-2"
"$PY" -m tiny_york_env.training.export "$OUT/ppo-2/policy.zip" agents/models/ppo.zip \
    --stage "$OUT/bc" --stage "$OUT/ppo-1" --stage "$OUT/ppo-2"
"$PY" -m tiny_york_env.cli eval --agent ppo --levels 5 --games 1000 --seed 0 --workers 2 \
    --out "$OUT/eval-tom5"
"$PY" -m tiny_york_env.cli eval --agent ppo --games 500 --seed 0 --workers 2 --out "$OUT/ladder"

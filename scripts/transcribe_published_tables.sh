#!/usr/bin/env bash
# The published tables whose runs kept no result file, kept as result files (docs/results/*.json)
# with their provenance, cell for cell as commit 736915b published them. Run from the repository
# root; a figure measured again replaces its file with the tool's own output (the engine, AEC and
# VecEnv tables now come from benchmarks/publish.sh).
set -euo pipefail
PY=${PY:-.venv/bin/python}
T() { "$PY" scripts/transcribe_table.py --commit 736915b "$@"; }
DEV="AMD EPYC x86_64, 2 cores, 24 GiB, Python 3.11.7 (the development machine)"
OUT=docs/results

# ---- Tiny York: the shipped agent's training and the benchmarks
T --file README.md --after "| stage | command | time | Tom 5 win rate after" --date 2026-11-23 --machine "$DEV" \
  --command "make shipped-agent (training/train_shipped_agent.sh)" --seeds "0, then 1" \
  --note "win rate of the stage's last evaluation (train_ppo's periodic evaluation, games in brackets)" \
  --out $OUT/tiny-york-ppo-stages.json
T --file README.md --after "| threads | num_envs | native" --date 2026-11-26 --machine "$DEV" \
  --command "cd benchmarks && python gym_vector_env.py --no-sync --threads T" \
  --note "env steps/s vs Tom 5; in brackets with random legal actions drawn in numpy" \
  --out $OUT/tiny-york-gym-vector.json
T --file README.md --after "| \`validate_state\` | \`save_state\`" --date 2026-11-23 --machine "$DEV, other jobs running" \
  --command "python benchmarks/validate_state.py --games 20 --repeats 3" --note "per state, over 5,329 states of random games" \
  --out $OUT/tiny-york-validate.json

# ---- Tiny York: the champion
T --file docs/champion.md --after "| Tom level | first champion win rate" --date 2026-11-26 --machine "$DEV, 2 games at a time" \
  --command "tiny-york eval --agent champion:agents/models/ppo.zip --levels L --games N --seed S --workers 2" \
  --seeds "1 (Tom 10: 1 and 2, 500 games each)" --note "the first champion: the champion's search on agents/models/ppo.zip; the last column is the ppo leaderboard's (seed 0)" \
  --out $OUT/champion-first-ladder.json
T --file README.md --after "| cell (vs Tom 12)" --date "2026-11-25 to 2026-11-26" --machine "$DEV, 2 games at a time, other jobs at times" \
  --command "python -m tiny_york_env.training.search_ablation --level 12 --games 40" --seeds 0 \
  --note "rows marked * ran before PolicyNetwork's sparse first layer: their win rates stand, their ms are about 3x the search's today" \
  --out $OUT/champion-ablation-tom12.json
T --file README.md --after "| cell (vs Tom 10)" --date "2026-11-25 to 2026-11-26" --machine "$DEV, 2 games at a time, other jobs at times" \
  --command "python -m tiny_york_env.training.search_ablation --level 10 --games 40" --seeds 0 \
  --note "rows marked * ran before PolicyNetwork's sparse first layer: their win rates stand, their ms are about 3x the search's today" \
  --out $OUT/champion-ablation-tom10.json
T --file README.md --after "| playouts | skip_above | ms / decision" --date 2026-11-26 --machine "$DEV, one core, otherwise idle" \
  --command "python benchmarks/policy_search.py" --note "2 solo games against Tom 12 a row, searched decisions only" \
  --out $OUT/champion-time-per-decision.json
T --file docs/champion.md --after "| same deals, seed noted | Tom 5" --date 2026-11-26 --machine "$DEV" \
  --command "python -m tiny_york_env.training.expert_iteration (docs/results/expert-iteration-generations.json), then tiny-york eval" \
  --note "wins on the same deals; runs/exit/gen-1/policy.zip became agents/models/champion.zip" \
  --out $OUT/expert-iteration-generation-1.json

# ---- Construction Yard
T --file README.md --after "| match | champion wins of 100 [95% CI] | mean score | the shipped policy alone" --keep 3 --date 2026-11-26 \
  --machine "$DEV, 2 matches at a time" --seeds 1000 \
  --command "tiny-york eval --game construction_yard --vs champion ppo --games 100 --seed 1000 (and --vs champion greedy)" \
  --note "game g of a match dealt from seed + g, the seeding before the shared harness: a run today draws other deals" --out $OUT/construction-yard-champion.json

# ---- 5th Avenue
T --file README.md --after "| match | champion wins of 100 [95% CI] | mean score | s / game" --keep 4 --date 2026-11-26 \
  --machine "$DEV, 2 matches at a time" --seeds 1000 \
  --command "tiny-york eval --game fifth_avenue --vs champion ppo --games 100 --seed 1000 (and --vs champion greedy)" \
  --note "game g of a match dealt from seed + g, the seeding before the shared harness: a run today draws other deals" --out $OUT/fifth-avenue-champion.json

# ---- OpenSpiel: the measured game lengths behind max_game_length()
T --file docs/openspiel.md --after "| game | command | random | never stop" --date 2026-11-28 --machine "$DEV" --seeds 0 \
  --command "python scripts/measure_game_length.py --game NAME --games 2000 --seed 0 [--automatic random,greedy]" \
  --note "the longest game's decisions per policy over every setup; moves adds the deal; max_decisions is the bound" \
  --out $OUT/openspiel-game-length.json

# ---- RLlib throughput
T --file README.md --after "| env runners | env steps/s (sampling + learning)" --date 2026-11-26 --machine "$DEV" \
  --command "python benchmarks/rllib_throughput.py" --note "1 agent against Tom 5, 4,000 env steps an iteration, 8 games a runner" \
  --out $OUT/rllib-throughput.json

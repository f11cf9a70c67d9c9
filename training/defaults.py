"""Every learner's defaults, in one place: what the learners share first, then each learner's own
(PPO against the automatic participants, self-play, behaviour cloning, expert iteration). The
learners' modules take their ``DEFAULT_*`` names from here."""

# ---------------------------------------------------------------- shared by the learners
LEARNING_RATE = 3e-4  # Adam's step size for PPO and self-play
GAMMA = 0.995  # a game is ~190 decisions of the learning seat and pays only at its end
ENT_COEF = 0.01  # a little entropy: self-play collapses easily onto one line of play
NET_ARCH = (256, 256)  # hidden layer widths of the policy and value MLPs
DEVICE = "cpu"  # a small MLP: the GPU's transfers cost more than they save
# torch's intra-op threads. One is 4x faster than torch's default (one per core) on a busy
# 2-core machine, where small forward passes spin-wait for threads that are not free; raise it
# on an idle many-core machine, where the update's large batches gain from more.
TORCH_THREADS = 1
REWARD = "win"

# ---------------------------------------------------------------- PPO (training/train_ppo.py)
PPO_NUM_ENVS = 256
PPO_TOTAL_STEPS = 2_000_000
PPO_N_STEPS = 64  # per env: a rollout is n_steps * num_envs decisions (16384 by default)
PPO_BATCH_SIZE = 2048
PPO_N_EPOCHS = 4
PPO_EVAL_GAMES = 20  # games a cell of the periodic evaluation

# ---------------------------------------------------------------- self-play (training/selfplay.py)
SELFPLAY_PLAYERS = 2
SELFPLAY_NUM_ENVS = 8
SELFPLAY_TOTAL_STEPS = 200_000
SELFPLAY_SNAPSHOT_EVERY = 20_000
SELFPLAY_POOL_SIZE = 10
SELFPLAY_LATEST_PROB = 0.5
SELFPLAY_EVAL_EVERY = 50_000
SELFPLAY_EVAL_GAMES = 24  # a multiple of 2, 3 and 4, so every seat is played equally often
SELFPLAY_N_STEPS = 256  # rollout length per env: num_envs * n_steps transitions per update
SELFPLAY_N_EPOCHS = 10  # SB3's default passes over each rollout
SELFPLAY_BATCH_SIZE = 256
SELFPLAY_EVAL_OPPONENTS = ("random",)

# ---------------------------------------------------------------- behaviour cloning (training/imitate.py)
IMITATION_TEACHER = "greedy"
IMITATION_GAMES = 1500
IMITATION_EPOCHS = 8
IMITATION_BATCH_SIZE = 1024
IMITATION_LEARNING_RATE = 1e-3
IMITATION_VALUE_WEIGHT = 0.5  # the value loss's weight beside the action cross-entropy
IMITATION_REWARD = "score"  # the value head's target: the margin reward, dense enough to learn
IMITATION_EVAL_GAMES = 100

# ---------------------------------------------------------------- expert iteration
# (training/expert_iteration.py)
EXIT_GENERATIONS = 1
EXIT_GAMES = 200
EXIT_SELFPLAY_EVERY = 5
EXIT_EPOCHS = 4
EXIT_EVAL_GAMES = 200
EXIT_GATE_MAX_PAIRS = 400

"""Training and evaluation scripts (PPO against Tom, self-play, the Tom ladder)."""

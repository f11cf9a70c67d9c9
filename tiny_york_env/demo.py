"""``make demo``: play one seeded random 3-agent game and print the final board and scores."""

import argparse

from agents.random_agent import RandomAgent

from .game import GameConfig, apply_action, current_player, is_terminal, legal_mask, new_game, render_text


def play_random_game(num_agents, seed):
    """Play a whole game with one RandomAgent per seat; returns (final state, decisions)."""
    state = new_game(GameConfig(num_agents=num_agents), seed=seed)
    players = [RandomAgent(seed=seed * 10 + seat) for seat in range(num_agents)]
    decisions = 0
    while not is_terminal(state):
        seat = current_player(state)
        apply_action(state, players[seat].act(None, legal_mask(state)))
        decisions += 1
    return state, decisions


def main(argv=None):
    """Parse the options and print one finished game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agents", type=int, default=3, help="number of agents, 2-4")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    state, decisions = play_random_game(args.agents, args.seed)
    print(render_text(state))
    print(f"\n{decisions} decisions, seed {args.seed}")


if __name__ == "__main__":
    main()

"""One-off studies of the shipped agents, on the project's public APIs only (the agent registry,
the arena, the game contract and the games' public names): what hidden information costs the
champion (``information_value``), whether an opponent model pays (``opponent_model``) and what
each ingredient of the policy search buys (``search_ablation``). Each is run as
``python -m tiny_york_env.training.experiments.<name>`` and writes result files for the docs."""

"""The recipes of the shipped agents: how each shipped policy file was trained. ``game_agents`` is
every game's recipe (the numbers from its record's ``train_defaults["shipped_recipe"]``); the shell
scripts are Tiny York's shipped agent (``train_shipped_agent.sh``, ``make shipped-agent``) and a
generation of expert iteration over a shipped two-player policy (``exit_shipped_policy.sh GAME``)."""

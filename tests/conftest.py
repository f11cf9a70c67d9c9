"""The test session plays every registered game, the test-only plug-in Sealed Bids included
(``tests/plugin_game``): it joins through ``TINY_YORK_ENV_GAMES`` as an outside game does, so the
shared suites parametrized over ``game_names()`` run it, and so do the subprocesses they start
(the command line, fuzz workers), which inherit the variable."""

import os

from tiny_york_env.registry import PLUGIN_VARIABLE

PLUGIN_GAME = "tests.plugin_game:plugin_game"

if PLUGIN_GAME not in os.environ.get(PLUGIN_VARIABLE, ""):
    os.environ[PLUGIN_VARIABLE] = ",".join(filter(None, [os.environ.get(PLUGIN_VARIABLE), PLUGIN_GAME]))

from tiny_york_env.registry import load_plugins  # noqa: E402

load_plugins()  # tiny_york_env was imported above, before the variable named the plug-in

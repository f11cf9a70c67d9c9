"""What every model file shipped in agents/models must respect, shared by the shipped-model tests."""

MAX_MODEL_BYTES = 5 * 2 ** 20  # a shipped model stays small enough for the wheel and the repository

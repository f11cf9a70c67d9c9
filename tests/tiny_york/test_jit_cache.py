"""The numba cache is dropped when any package source changes (numba itself only watches the
file a compiled function lives in)."""

from tiny_york_env.core import jit as jit_module


def _fake_package(tmp_path, monkeypatch):
    """A tiny package and an agents folder beside it, with numba cache files in three
    __pycache__ folders; returns the package folder."""
    root = tmp_path / "tiny_york_env"
    for folder in (root / "game", root / "envs", tmp_path / "agents"):
        (folder / "__pycache__").mkdir(parents=True)
    (root / "game" / "rules.py").write_text("x = 1\n")
    (root / "envs" / "vector.py").write_text("y = 2\n")
    (tmp_path / "agents" / "search_agent.py").write_text("z = 3\n")
    monkeypatch.setattr(jit_module, "PACKAGE_DIR", root)
    monkeypatch.setattr(jit_module, "COMPILED_DIRS", (root, tmp_path / "agents"))
    monkeypatch.setattr(jit_module, "CACHE_DIR", root / "game" / "__pycache__")
    monkeypatch.setattr(jit_module, "SOURCE_HASH_FILE",
                        root / "game" / "__pycache__" / "numba-source.sha256")
    return root


def _cache_files(root):
    return sorted(p.name for p in root.parent.rglob("__pycache__/*.nb[ic]"))


def _add_cache_files(root):
    (root / "game" / "__pycache__" / "rules.f-1.py311.nbi").write_bytes(b"i")
    (root / "envs" / "__pycache__" / "vector.g-2.py311.1.nbc").write_bytes(b"c")
    (root.parent / "agents" / "__pycache__" / "search_agent.k-3.py311.nbi").write_bytes(b"k")


def test_cache_kept_while_sources_unchanged(tmp_path, monkeypatch):
    root = _fake_package(tmp_path, monkeypatch)
    jit_module.clear_stale_numba_cache()
    _add_cache_files(root)
    jit_module.clear_stale_numba_cache()
    assert len(_cache_files(root)) == 3


def test_any_source_change_clears_every_cache_folder(tmp_path, monkeypatch):
    root = _fake_package(tmp_path, monkeypatch)
    jit_module.clear_stale_numba_cache()
    _add_cache_files(root)
    (root / "game" / "rules.py").write_text("x = 3\n")  # a change in another file than vector.py
    jit_module.clear_stale_numba_cache()
    assert _cache_files(root) == []


def test_an_agent_source_change_clears_the_caches(tmp_path, monkeypatch):
    root = _fake_package(tmp_path, monkeypatch)
    jit_module.clear_stale_numba_cache()
    _add_cache_files(root)
    (root.parent / "agents" / "search_agent.py").write_text("z = 4\n")
    jit_module.clear_stale_numba_cache()
    assert _cache_files(root) == []
    assert (root / "game" / "__pycache__" / "numba-source.sha256").read_text() == \
        jit_module.package_source_hash()


def _with_isolated_game(root, name="construction_yard"):
    """Add a game package (games/<name>) and core/, the game with a source file."""
    game = root / "games" / name
    (game / "__pycache__").mkdir(parents=True)
    (root / "core").mkdir(exist_ok=True)
    (game / "__init__.py").write_text("")
    (game / "rules.py").write_text("w = 1\n")
    (root / "core" / "rng.py").write_text("r = 1\n")
    return game


def test_a_game_change_clears_its_caches_and_the_main_scopes_not_another_games(tmp_path, monkeypatch):
    root = _fake_package(tmp_path, monkeypatch)
    game = _with_isolated_game(root)
    other = _with_isolated_game(root, "fifth_avenue")
    jit_module.clear_stale_numba_cache()
    _add_cache_files(root)
    (game / "__pycache__" / "rules.f-1.py311.nbi").write_bytes(b"i")
    (other / "__pycache__" / "rules.h-1.py311.nbi").write_bytes(b"h")
    (game / "rules.py").write_text("w = 2\n")
    jit_module.clear_stale_numba_cache()
    # the main scope's compiled code (the agents) may call any game: its caches go too
    assert _cache_files(root) == ["rules.h-1.py311.nbi"]


def test_a_main_scope_change_keeps_an_isolated_games_caches(tmp_path, monkeypatch):
    root = _fake_package(tmp_path, monkeypatch)
    game = _with_isolated_game(root)
    jit_module.clear_stale_numba_cache()
    _add_cache_files(root)
    (game / "__pycache__" / "rules.f-1.py311.nbi").write_bytes(b"i")
    (root / "game" / "rules.py").write_text("x = 5\n")
    jit_module.clear_stale_numba_cache()
    assert _cache_files(root) == ["rules.f-1.py311.nbi"]


def test_a_core_change_clears_every_scope(tmp_path, monkeypatch):
    root = _fake_package(tmp_path, monkeypatch)
    game = _with_isolated_game(root)
    jit_module.clear_stale_numba_cache()
    _add_cache_files(root)
    (game / "__pycache__" / "rules.f-1.py311.nbi").write_bytes(b"i")
    (root / "core" / "rng.py").write_text("r = 2\n")
    jit_module.clear_stale_numba_cache()
    assert _cache_files(root) == []

"""The numba cache is dropped when any package source changes (numba itself only watches the
file a compiled function lives in)."""

from tiny_york_env.game import jit as jit_module


def _fake_package(tmp_path, monkeypatch):
    """A tiny package tree with numba cache files in two __pycache__ folders."""
    (tmp_path / "game" / "__pycache__").mkdir(parents=True)
    (tmp_path / "envs" / "__pycache__").mkdir(parents=True)
    (tmp_path / "game" / "rules.py").write_text("x = 1\n")
    (tmp_path / "envs" / "vector.py").write_text("y = 2\n")
    monkeypatch.setattr(jit_module, "PACKAGE_DIR", tmp_path)
    monkeypatch.setattr(jit_module, "CACHE_DIR", tmp_path / "game" / "__pycache__")
    monkeypatch.setattr(jit_module, "SOURCE_HASH_FILE",
                        tmp_path / "game" / "__pycache__" / "numba-source.sha256")
    return tmp_path


def _cache_files(root):
    return sorted(p.name for p in root.rglob("__pycache__/*.nb[ic]"))


def _add_cache_files(root):
    (root / "game" / "__pycache__" / "rules.f-1.py311.nbi").write_bytes(b"i")
    (root / "envs" / "__pycache__" / "vector.g-2.py311.1.nbc").write_bytes(b"c")


def test_cache_kept_while_sources_unchanged(tmp_path, monkeypatch):
    root = _fake_package(tmp_path, monkeypatch)
    jit_module.clear_stale_numba_cache()
    _add_cache_files(root)
    jit_module.clear_stale_numba_cache()
    assert len(_cache_files(root)) == 2


def test_any_source_change_clears_every_cache_folder(tmp_path, monkeypatch):
    root = _fake_package(tmp_path, monkeypatch)
    jit_module.clear_stale_numba_cache()
    _add_cache_files(root)
    (root / "game" / "rules.py").write_text("x = 3\n")  # a change in another file than vector.py
    jit_module.clear_stale_numba_cache()
    assert _cache_files(root) == []
    assert (root / "game" / "__pycache__" / "numba-source.sha256").read_text() == \
        jit_module.package_source_hash()

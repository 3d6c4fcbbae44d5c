"""Signing keys: ``knock keygen`` (spec/log-format.md, LOG-17)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from knock.cli.common import FORCE, JSON_DOC, app, console
from knock.cli.output import output_file, write_json
from replay.signing import SigningKey


@app.command()
def keygen(
    out: Annotated[
        Path,
        typer.Option(
            "-o",
            "--out",
            metavar="FILE",
            help="The secret key file (FILE.pub gets the public key); refused if either exists, unless --force.",
        ),
    ],
    force: Annotated[bool, FORCE] = False,
    json_out: Annotated[str | None, JSON_DOC] = None,
) -> None:
    """Make an Ed25519 signing key: a secret key file and its public key file.

    The secret key (FILE, readable by its owner only) signs logs: knock serve/simulate/demo --key FILE. The
    public key (FILE.pub) is what auditors verify with: knock verify --key FILE.pub. Each file is one line
    (LOG-17). --json gives one document: the two files and the public key in hex.

    Exit status: 0 written; 2 a usage error (a file exists).

    Example: knock keygen -o keys/server
    """
    public_file = out.with_name(out.name + ".pub")
    output_file(out, force)
    output_file(public_file, force)
    key = SigningKey.generate()
    out.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.secret_text())
    public_file.write_text(key.public_text(), encoding="ascii")
    if json_out is not None:
        write_json({"secret": str(out), "public": str(public_file), "key": key.public.hex()}, json_out)
    else:
        console.print(f"wrote {escape(str(out))} (secret: keep it) and {escape(str(public_file))}; public key "
                      f"{key.public.hex()}")  # fmt: skip

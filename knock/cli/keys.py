"""Signing keys: ``knock keygen`` (spec/log-format.md, LOG-17)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from knock.cli.common import FORCE, JSON_DOC, app, console
from knock.cli.output import write_json
from replay.signing import KeyFileError, SigningKey, SigningUnavailable


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

    The secret key (FILE, mode 0600: readable by its owner only, as signing requires) signs logs: knock
    serve/simulate/demo --key FILE. The public key (FILE.pub) is what auditors verify with: knock verify --key
    FILE.pub. Each file is one line (LOG-17), written to a new file and renamed into place: --force replaces an
    existing file (a link is replaced, never written through). The key is made by the 'cryptography' library.
    --json gives one document: the two files and the public key in hex.

    Exit status: 0 written; 2 a usage error (a file exists, or no library to make the key).

    Example: knock keygen -o keys/server
    """
    public_file = out.with_name(out.name + ".pub")
    for path in (out, public_file):
        if path.is_dir():
            raise typer.BadParameter(f"{path} is a folder; give a file", param_hint="--out")
    try:
        key = SigningKey.generate()
        out.parent.mkdir(parents=True, exist_ok=True)
        key.write(out, force=force)
    except (KeyFileError, SigningUnavailable) as err:
        raise typer.BadParameter(str(err), param_hint="--out") from None
    if json_out is not None:
        write_json({"secret": str(out), "public": str(public_file), "key": key.public.hex()}, json_out)
    else:
        console.print(f"wrote {escape(str(out))} (secret: keep it) and {escape(str(public_file))}; public key "
                      f"{key.public.hex()}")  # fmt: skip

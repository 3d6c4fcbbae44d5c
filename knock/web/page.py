"""``knock view``'s page: the replay client as one self-contained HTML file, its log's transcript embedded.

Rules: LOG-13, LOG-6 (the verdict and digest it shows). The client's ES modules (``static/js``) are joined into one
inline script — each module becomes a function scope that returns its exports, its imports read from the modules
before it — with the style sheet inlined and the transcript as a JSON block. The page's Content-Security-Policy
allows no request at all (``default-src 'none'``): opened from a disk, it reads nothing but itself.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

from knock.web.protocol import Message

_IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w.-]+\.js)";\n', re.M)
_EXPORT = re.compile(r"^export (?:async )?(?:function\*?|const|let|class) ([A-Za-z_$][\w$]*)", re.M)
_ANY_IMPORT = re.compile(r"^\s*(import|export \{|export \*|export default)\b", re.M)

#: Nothing may be fetched: no script, style, image, font or connection from anywhere (inline code only).
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'"


class BundleError(ValueError):
    """A client module the bundler cannot join (an import form it does not read, a name not exported)."""


def static_text(path: str) -> str:
    return resources.files("knock.web").joinpath("static", path).read_text(encoding="utf-8")


def bundle(entry: str = "viewer.js") -> str:
    """The modules ``entry`` imports, and ``entry`` itself, as one script (no imports, no network).

    Raises:
        BundleError: a module imports in a form other than ``import { a, b } from "./m.js";`` or a name that the
            module does not export, or imports in a cycle.
    """
    order: list[str] = []
    sources: dict[str, str] = {}
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in sources:
            return
        if name in visiting:
            raise BundleError(f"{name}: an import cycle")
        visiting.add(name)
        text = static_text(f"js/{name}")
        for _, dep in _IMPORT.findall(text):
            visit(dep)
        visiting.discard(name)
        sources[name] = text
        order.append(name)

    visit(entry)
    exports = {name: _EXPORT.findall(text) for name, text in sources.items()}
    parts = ['"use strict";']
    for name in order:
        text = sources[name]
        imports = []
        for names, dep in _IMPORT.findall(text):
            wanted = [n.strip() for n in names.split(",") if n.strip()]
            missing = [n for n in wanted if n not in exports[dep]]
            if missing:
                raise BundleError(f"{name} imports {', '.join(missing)} from {dep}, which does not export it")
            imports.append(f"const {{ {', '.join(wanted)} }} = {_var(dep)};")
        body = _IMPORT.sub("", text)
        leftover = _ANY_IMPORT.search(body)
        if leftover is not None:
            raise BundleError(f"{name}: an import or export the bundler does not read: {leftover.group(0)!r}")
        body = re.sub(r"^export ", "", body, flags=re.M)
        returned = ", ".join(exports[name])
        parts.append(f"// --- {name}\nconst {_var(name)} = (() => {{\n{''.join(i + chr(10) for i in imports)}"
                     f"{body}\nreturn {{ {returned} }};\n}})();")  # fmt: skip
    script = "\n".join(parts)
    if "</script" in script.lower():
        raise BundleError("a client module holds '</script', which would end the page's script")
    return script


def _var(module: str) -> str:
    return "__knock_" + re.sub(r"\W", "_", module.removesuffix(".js"))


def embed_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: ``<`` written as its escape, so no text can end the element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def replay_page(t: Message) -> str:
    """One HTML file that replays transcript ``t`` (``knock.web.transcript``) with no server and no network."""
    title = f"Knock replay — {t.get('name') or 'a log'}"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="knock view">
<link rel="icon" href="data:,">
<title>{html.escape(title)}</title>
<style>
{static_text("style.css")}
</style>
</head>
<body>
<header class="top">
<p class="brand">Knock <span class="tag">replay of a verified log (made by knock view; it needs no server)</span></p>
</header>
<main id="main" tabindex="-1"><noscript>This replay needs JavaScript.</noscript></main>
<div id="announce" class="visually-hidden" aria-live="polite"></div>
<script type="application/json" id="knock-transcript">{embed_json(t)}</script>
<script type="module">
{bundle("viewer.js")}
</script>
</body>
</html>
"""

"""Benchmark-only opponents: ports of public bots that Knock's bots are measured against.

They live under ``tools/`` so that they ship in no wheel and are offered to no player (no bot list, no lobby, no
``make_bot`` name); a benchmark imports them by path. ``marjj``: the EAAI-2021 entry MARJJ v5 (``marjj.py``);
``rate.py`` measures one against the EAAI baseline ``simple``.
"""

"""``knock play`` in a real pseudo-terminal, as a person meets it: a whole game in each seat kind (two-player
non-dealer and dealer; three-handed box, captain and sitter), each kind of mistake and the reason it gets,
the table's words, and a game stopped with ``q`` and Ctrl-C, resumed and finished byte for byte as the same
game played straight through.

Each game is short (a small target) and answers its prompts as a person might: knock when it can, else the
first option (the least deadwood).
"""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.actions import PassUpcard
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import GreedyBot
from knock.play import BOT_CHOICES
from replay.log import LogReader
from replay.verdict import judge

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

EXE = shutil.which("knock", path=str(Path(sys.executable).parent))
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>]|\r")
PROMPTS = ("your move: ", "or Enter for none): ")
RULE = re.compile(r"\(rule [A-Z]+-\d+\)")
GLYPH = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
WORD = {
    "A": "ace",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "c": "club",
    "d": "diamond",
    "h": "heart",
    "s": "spade",
}


class Terminal:
    """``knock play`` on the child side of a pseudo-terminal; the test reads the screen and types."""

    def __init__(self, args: list[str], cwd: Path, *, plain: bool = True, size: tuple[int, int] = (160, 50)) -> None:
        """``plain``: line by line (``--plain``), as these tests read it; else the board at ``size`` (columns, rows)."""
        assert EXE
        pid, fd = pty.fork()
        if pid == 0:  # the child: the command, on the terminal, hearing Ctrl-C as a terminal's command does (a
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # suite run in the background has SIGINT ignored)
            os.chdir(cwd)
            env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                   "COLUMNS": str(size[0])}  # fmt: skip
            os.execve(EXE, [EXE, "play", *(["--plain"] if plain else []), *args], env)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.pid, self.fd = pid, fd
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.screen = ""  # everything shown so far, without the terminal's control sequences
        self.mark = 0
        self.status: int | None = None

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO on Linux once the child has gone
            chunk = b""
        if not chunk:
            return self._alive()
        self.screen += ANSI.sub("", self.decoder.decode(chunk))
        return True

    def _alive(self) -> bool:
        """Whether the command still runs (an empty read is its end only once it has ended)."""
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == 0:
                time.sleep(0.05)
                return True
            self.status = status
        return False

    def prompt(self, timeout: float = 30) -> str | None:
        """The screen since the last prompt, up to the next one; None when the command ends instead."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.screen) > self.mark and self.screen.endswith(PROMPTS):
                shown, self.mark = self.screen[self.mark :], len(self.screen)
                return shown
            if not self._read(0.5):
                return None
        raise AssertionError(f"no prompt within {timeout} s; the screen ends:\n{self.screen[-1500:]}")

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode() + b"\n")

    def interrupt(self) -> None:
        """Ctrl-C, as a person presses it: not within the instant the prompt appears. (CPython's readline loses a
        SIGINT that arrives after it has drawn the prompt and before it waits for a key: the wait starts anyway and
        only the next Ctrl-C ends it. A loaded machine widens that instant, so the test waits as a person would.)"""
        time.sleep(0.5)
        os.write(self.fd, b"\x03")  # the terminal sends SIGINT to the command

    def finish(self, timeout: float = 30) -> tuple[int, str]:
        """Wait for the command's end: its exit status and the screen since the last prompt."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(0.5):
            pass
        if self._alive():  # still running after the deadline: never wait on it for ever
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            os.close(self.fd)
            raise AssertionError(f"the command did not end within {timeout} s; the screen ends:\n{self.screen[-1500:]}")
        os.close(self.fd)
        assert self.status is not None
        status = self.status
        assert os.WIFEXITED(status), self.screen[-1500:]
        return os.WEXITSTATUS(status), self.screen[self.mark :]


def knock_option(screen: str) -> str | None:
    """The number of the first (least deadwood) knock offered on this screen, if any."""
    at = screen.rfind("knock (the deadwood it leaves):")
    found = re.search(r"(\d+)\. ", screen[at:]) if at >= 0 else None
    return found.group(1) if found else None


def top_card(screen: str) -> str | None:
    found = re.findall(r"discard pile (10\S|\S\S)", screen)
    return found[-1] if found and found[-1] != "em" else None


def first_discard(screen: str) -> str | None:
    found = re.search(r"discard \(the deadwood it leaves\):\s+1\. (10\S|\S\S) ", screen)
    return found.group(1) if found else None


def in_notation(card: str, n: int) -> str:
    """A card as the screen shows it (``J♠``, ``10♦``) in the n-th of the notations a person may type."""
    if card.startswith("10"):
        card = "T" + card[2:]
    rank, suit = card[0], {v: k for k, v in GLYPH.items()}[card[1]]
    forms = [
        card,
        rank.lower() + suit,
        rank + suit.upper(),
        f"{WORD.get(rank, rank)} of {WORD[suit]}s",
        ("10" if rank == "T" else rank) + suit,
    ]
    return forms[n % len(forms)]


class Person:
    """What the person types at a prompt: knock when possible; else the first option — a discard typed as the
    card in one notation after another; and, as the sitter, the first suggestion or none in turn."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, screen: str) -> str:
        self.n += 1
        if screen.endswith(PROMPTS[1]):
            assert re.search(r"^ +2\. |\b2\. \S\S", screen, re.MULTILINE), (
                "the sitter is asked only about a real choice"
            )
            return "1" if self.n % 2 else ""
        card = first_discard(screen)
        if knock_option(screen) is None and card is not None:
            typed = in_notation(card, self.n)
            return typed if self.n % 3 else f"discard {typed}"
        return knock_option(screen) or "1"


@dataclass
class Probe:
    """A mistake (or word) to try at the first prompt where ``when`` holds; the answer must match ``expect``
    and name a rule exactly when ``rule`` (a refusal by the engine; plain help names none)."""

    when: Callable[[str], bool]
    line: Callable[[str], str]
    expect: str
    rule: bool
    done: bool = field(default=False)


def moving(screen: str) -> bool:
    return screen.endswith(PROMPTS[0])


def advising(screen: str) -> bool:
    return screen.endswith(PROMPTS[1])


def discarding(screen: str) -> bool:
    return "discard (the deadwood it leaves):" in screen and top_card(screen) is not None


def typing_probes(when: Callable[[str], bool] = moving) -> list[Probe]:
    """The typing mistakes and the table's words: plain help, never a rule id."""
    return [
        Probe(when, lambda s: "hello", r"'hello' is not a move", rule=False),
        *([Probe(moving, lambda s: "", r"type a number from the list", rule=False)] if when is moving else []),
        Probe(when, lambda s: "99", r"there is no option 99", rule=False),
        Probe(when, lambda s: "discard Zz", r"'Zz' is not a card", rule=False),
        Probe(when, lambda s: "?", r"Choose a move by its number|You sit out this hand", rule=False),
        Probe(when, lambda s: "hint", r"hint: ", rule=False),
        Probe(when, lambda s: "score", r"score sheet|no hand has been scored yet", rule=False),
    ]


def move_probes(n: int) -> list[Probe]:
    """The engine's refusals of the person's own moves, each with its reason and rule id."""
    return [
        Probe(
            lambda s: moving(s) and discarding(s),
            lambda s: "discard " + in_notation(top_card(s) or "", n),
            r"✗ you do not hold .* \(rule TURN-3\)",
            rule=True,
        ),
        Probe(
            lambda s: moving(s) and discarding(s) and knock_option(s) is None,
            lambda s: "knock " + (first_discard(s) or ""),
            r"✗ cannot knock with \d+ deadwood .*KNOCK-2",
            rule=True,
        ),
        Probe(
            lambda s: moving(s) and discarding(s),
            lambda s: "take",
            r"✗ not now — discard a card, or knock \(rule TURN-1\)",
            rule=True,
        ),
    ]


def advice_probes() -> list[Probe]:
    """The sitter's nonsense advice, refused with the reason; his typing mistakes get plain help."""
    offer = lambda s: advising(s) and "1. pass" in s  # noqa: E731
    return [
        *typing_probes(advising),
        Probe(
            lambda s: advising(s) and discarding(s),
            lambda s: "discard " + (top_card(s) or ""),
            r"✗ the suggestion is not legal: .* does not hold .* \(rule TURN-3\)",
            rule=True,
        ),
        Probe(
            lambda s: advising(s) and discarding(s) and knock_option(s) is None,
            lambda s: "knock " + (first_discard(s) or ""),
            r"✗ the suggestion is not legal: cannot knock .*KNOCK-2",
            rule=True,
        ),
        Probe(offer, lambda s: "draw", r"✗ not now — take the upcard .* or pass \(rule TURN-1\)", rule=True),
    ]


def play_game(term: Terminal, probes: list[Probe], answer: Callable[[str], str] | None = None) -> list[str]:
    """Answer every prompt to the game's end, trying each probe at the first prompt it fits; returns the lines
    typed as moves."""
    answer = answer or Person()
    typed: list[str] = []
    screen = term.prompt()
    while screen is not None:
        probe = next((p for p in probes if not p.done and p.when(screen)), None)
        if probe is not None:  # a mistake changes nothing: the same prompt comes again
            probe.done = True
            term.send(probe.line(screen))
            reply = term.prompt()
            assert reply is not None and moving(reply) is moving(screen), reply
            said = reply.split("\n", 1)[-1]  # after the echo of the line typed
            assert re.search(probe.expect, said), (probe.expect, term.screen[-1500:])
            assert bool(RULE.search(said)) is probe.rule, said[-800:]
            continue
        line = answer(screen)
        typed.append(line)
        term.send(line)
        screen = term.prompt()
        if screen is not None and moving(screen) and line[:1].isalpha() and re.match(r"(discard )?\S+$", line):
            assert "you discard" in screen, screen  # a card typed in any notation is taken
    return typed


def seat_of(rules: RuleSet, seed: int, role: str) -> int:
    return Match.new(rules, seed=seed).roles()[role]


def finished(log: Path, seat: int) -> None:
    data = log.read_bytes()
    assert judge(data).kind == "pass", judge(data).message
    header = LogReader(data).header
    assert header.players[seat] == "you" and header.meta["seat"] == seat


def both_pass(rules: RuleSet, seed: int) -> bool:
    """Whether the greedy dealer passes the upcard after the non-dealer does (the first draw is then forced)."""
    m = Match.new(rules, seed=seed)
    assert m.hand is not None and m.to_act is not None
    m.apply(PassUpcard(m.to_act))
    dealer = m.to_act
    assert dealer is not None
    return GreedyBot().choose(m.hand.observation(dealer), m.legal_actions()) == PassUpcard(dealer)


def ended(term: Terminal, seed: int, log: Path, seat: int) -> str:
    status, end = term.finish()
    assert status == 0, term.screen[-1500:]
    assert re.search(r"(you win|\S+ wins) after \d+ hands?[;,]", end), end
    assert f"seed {seed}" in end and f"seed {seed}" not in term.screen[: term.screen.rfind("log: ")]
    finished(log, seat)
    return end


@pytest.mark.rule("VIS-1", "TURN-1", "TURN-3", "TURN-4", "KNOCK-2", "OFFER-4", "MATCH-4")
@pytest.mark.parametrize("role", ["non_dealer", "dealer"])
def test_two_player_game_in_a_terminal(role: str, tmp_path: Path) -> None:
    rules = RuleSet.preset("standard", target=20)
    seed = next(s for s in range(1, 500) if both_pass(rules, s))
    seat = seat_of(rules, seed, role)
    log = tmp_path / "game.knock"
    term = Terminal(
        ["--seed", str(seed), "--seat", str(seat), "--bots", "greedy", "--set", "target=20", "-o", str(log)], tmp_path
    )
    probes = [*typing_probes(), *move_probes(0 if role == "dealer" else 3)]
    person = Person()
    taken: list[str] = []

    def answer(screen: str) -> str:
        """Once, pick up the discard (to try discarding it again, TURN-4)."""
        found = re.search(r"2\. pick up (10\S|\S\S) ", screen)
        if role == "dealer" and not taken and found:
            taken.append(found.group(1))
            return "2"
        return person(screen)

    if role == "non_dealer":  # both pass the upcard: the first draw is from the stock
        forced = lambda s: moving(s) and "1. draw from the stock" in s and "2. " not in s  # noqa: E731
        probes.append(Probe(forced, lambda s: "pickup", r"first draw is from the stock \(rule OFFER-4\)", rule=True))
    else:
        probes.insert(
            0,
            Probe(
                lambda s: bool(taken) and moving(s) and discarding(s),
                lambda s: taken[0],
                r"✗ .* was just taken from the discard pile .* \(rule TURN-4\)",
                rule=True,
            ),
        )
    play_game(term, probes, answer)
    ended(term, seed, log, seat)
    assert all(p.done for p in probes), [p.expect for p in probes if not p.done]
    assert (
        "score sheet" in term.screen
        and "hand 1: " + ("you deal" if role == "dealer" else "greedy deals") in term.screen
    )


@pytest.mark.rule("THREE-1", "THREE-7", "THREE-8", "VIS-1")
@pytest.mark.parametrize("role", ["box", "captain", "sitter"])
def test_three_handed_game_in_a_terminal(role: str, tmp_path: Path) -> None:
    rules = RuleSet.preset("three_handed", target=15)
    seed = 4
    seat = seat_of(rules, seed, role)
    log = tmp_path / "game.knock"
    term = Terminal(
        [
            "--preset",
            "three_handed",
            "--seed",
            str(seed),
            "--seat",
            str(seat),
            "--bots",
            "greedy",
            "--set",
            "target=15",
            "-o",
            str(log),
        ],
        tmp_path,
    )
    probes = advice_probes() if role == "sitter" else [*typing_probes(), *move_probes(1)]
    play_game(term, probes)
    ended(term, seed, log, seat)
    assert all(p.done for p in probes), [p.expect for p in probes if not p.done]
    mine = {"box": "you in the box", "captain": "you captain", "sitter": "you sit out"}[role]
    assert "hand 1: " in term.screen and mine in term.screen.split("hand 2:")[0]
    if role == "sitter":
        assert "you advise " in term.screen


def feed(term: Terminal, lines: list[str]) -> None:
    for line in lines:
        assert term.prompt() is not None
        term.send(line)


@pytest.mark.rule("LOG-5", "LOG-7", "LOG-13", "MATCH-7")
def test_a_game_stopped_and_resumed_is_the_game_played_straight_through(tmp_path: Path) -> None:
    """A random seed by default, printed only at the end; a game stopped with q, resumed, stopped with Ctrl-C,
    resumed and finished writes the very bytes of the game played straight through — random bots included,
    whose generators the resumed game rebuilds."""
    args = ["--bots", "random", "--set", "target=30"]
    straight = tmp_path / "straight.knock"
    term = Terminal([*args, "-o", str(straight)], tmp_path)
    typed = play_game(term, [])
    status, end = term.finish()
    assert status == 0, end
    found = re.search(r"seed (\d+) — the same deals again with --seed \d+", end)
    assert found, end
    seed = int(found.group(1))
    assert str(seed) not in term.screen[: term.screen.rfind("log: ")]  # never shown while the game is on
    assert LogReader(straight.read_bytes()).header.meta["seed"] == seed

    # Stopping twice needs a game of some length, which a random seed may not give: a seed that does, played
    # straight through first, is the game the stopped and resumed one must equal.
    seed, straight = 2, tmp_path / "straight-2.knock"
    term = Terminal([*args, "--seed", str(seed), "-o", str(straight)], tmp_path)
    typed = play_game(term, [])
    status, end = term.finish()
    assert status == 0 and len(typed) > 12, (end, typed)

    log = tmp_path / "stopped.knock"
    first, second = len(typed) // 3, 2 * len(typed) // 3
    term = Terminal([*args, "--seed", str(seed), "-o", str(log)], tmp_path)
    feed(term, typed[:first])
    assert term.prompt() is not None
    term.send("q")
    status, end = term.finish()
    stopped = f"stopped: the game so far is in {log} (unfinished at record "
    assert status == 0 and stopped in end and end.rstrip().endswith(f"go on with: knock play --resume {log}"), end
    assert len(end.strip().splitlines()) == 2, end  # the q typed, and one line
    assert judge(log.read_bytes()).kind == "unfinished"

    term = Terminal(["--resume", str(log)], tmp_path)
    feed(term, typed[first:second])
    assert term.prompt() is not None
    term.interrupt()
    status, end = term.finish()
    assert status == 130 and "\n" + stopped in end, end  # a newline after the ^C, then the one line
    assert judge(log.read_bytes()).kind == "unfinished"

    term = Terminal(["--resume", str(log)], tmp_path)
    feed(term, typed[second:])
    assert term.prompt() is None
    status, end = term.finish()
    assert status == 0 and f"seed {seed}" in end, end
    assert "(resumed)" in term.screen
    assert log.read_bytes() == straight.read_bytes()


def wait_for(term: Terminal, text: str, timeout: float = 30) -> None:
    """Read the board's output until ``text`` has appeared since the last wait."""
    deadline = time.monotonic() + timeout
    while text not in term.screen[term.mark :]:
        assert time.monotonic() < deadline, f"no {text!r} within {timeout} s; the screen ends:\n{term.screen[-1500:]}"
        assert term._read(0.5), term.screen[-1500:]
    term.mark = term.screen.index(text, term.mark) + len(text)


@pytest.mark.rule("VIS-1", "LOG-5", "LOG-13")
def test_on_a_terminal_the_board_offers_the_bots_plays_and_stops_with_the_resume_command(tmp_path: Path) -> None:
    """Without --plain on a terminal: the choice of bot (the second, by the arrow key), a move typed, Ctrl-C."""
    log = tmp_path / "b.knock"
    term = Terminal(["--seed", "5", "-o", str(log)], tmp_path, plain=False, size=(80, 24))
    wait_for(term, "choose the bot you play against")
    os.write(term.fd, b"\x1b[B")
    time.sleep(0.3)
    os.write(term.fd, b"\r")
    wait_for(term, "your move")
    os.write(term.fd, b"1\r")
    wait_for(term, "> 1")
    time.sleep(0.3)
    os.write(term.fd, b"\x03")  # Ctrl-C: the board closes, the game is saved
    status, end = term.finish()
    assert status == 130 and f"go on with: knock play --resume {log}" in end, end[-800:]
    data = log.read_bytes()
    assert judge(data).kind == "unfinished" and LogReader(data).header.meta["bots"] == [BOT_CHOICES[1][0]]


def test_in_line_mode_without_bots_a_numbered_question_chooses_the_bot(tmp_path: Path) -> None:
    log = tmp_path / "c.knock"
    term = Terminal(["--seed", "5", "--set", "target=10", "-o", str(log)], tmp_path)
    wait_for(term, "choose the bot you play against:")
    wait_for(term, "(Enter: heuristic): ")
    term.send(str(len(BOT_CHOICES) + 3))
    wait_for(term, f"no such bot: type 1–{len(BOT_CHOICES)}")
    term.send("greedy")
    assert term.prompt() is not None
    term.send("q")
    status, end = term.finish()
    assert status == 0 and LogReader(log.read_bytes()).header.meta["bots"] == ["greedy"], end

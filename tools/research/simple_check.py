#!/usr/bin/env python3
"""Check the ``simple`` bot against the Java it ports: the EAAI challenge's ``SimpleGinRummyPlayer``.

    .venv/bin/python tools/research/simple_check.py /path/to/gin-rummy-eaai/src/ginrummy            # 2,000 positions
    .venv/bin/python tools/research/simple_check.py JAVA_DIR --positions 5000 --seed 7 --json out/simple-check.json

``JAVA_DIR`` holds the base code's Java sources of package ``ginrummy`` (``Card.java``, ``GinRummyUtil.java``,
``GinRummyPlayer.java``, ``SimpleGinRummyPlayer.java``; from ``tneller/gin-rummy-eaai``, not shipped here). The
tool compiles them with Debian's OpenJDK (``javac``, package ``openjdk-17-jdk-headless``) beside a small harness
it writes to a temporary folder, plays seeded games of Knock (standard rules: the Java's knock limit of 10) with
``simple`` in both seats, and at each of its decisions asks both sides the same question:

- ``draw``: does it take the face-up card (``willDrawFaceUpCard``);
- ``discard``: the set of cards it chooses among (``getDiscard``, every branch of its random choice enumerated
  by a stub ``Random``), given its cards, the card drawn, whether it was the face-up card and its earlier
  draw/discard pairs of the hand;
- ``repeat``: the same with a draw/discard pair added that bars a card (the repeat rule seldom bars one in
  play, so each discard position is asked again so);
- ``knock``: does it knock with the hand the discard leaves, and the set of meld sets it may spread
  (``getFinalMelds``);
- ``defend``: the set of meld sets it may lay down after the other seat knocked, and for each the layoffs the
  EAAI game (``GinRummyGame.play``) makes for it onto the knocker's melds.

Randomness aside, the answers must agree: the tool prints the count of positions per question and of
disagreements, and exits 1 on any disagreement (or when the Python bot chose outside its own set).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.actions import Action, Discard, DrawDiscard, Knock, LayOff, Spread, TakeUpcard, shown_mask
from engine.cards import Card, from_mask, to_mask
from engine.match import Match
from engine.melds import Meld, deadwood, value
from engine.rules import RuleSet
from engine.visibility import Observation
from knock.bots import make_bot
from knock.bots.simple import EAAI_RULES, SimpleBot, best_meld_sets, discard_candidates, game_layoffs, would_meld

JAVA_FILES = ("Card.java", "GinRummyUtil.java", "GinRummyPlayer.java", "SimpleGinRummyPlayer.java")

HARNESS = r"""
package ginrummy;

import java.io.*;
import java.util.*;

/** Answers Knock's questions with SimpleGinRummyPlayer's own methods, one line in, one line out. */
public class SimpleCheck {
    static class Fixed extends Random {
        int pick; int bound = -1;
        Fixed(int pick) { this.pick = pick; }
        @Override public int nextInt(int bound) { this.bound = bound; return Math.min(pick, bound - 1); }
    }

    static ArrayList<Card> cards(String text) {
        ArrayList<Card> out = new ArrayList<Card>();
        for (String s : text.trim().split(" ")) if (!s.isEmpty()) out.add(Card.strCardMap.get(s.toUpperCase()));
        return out;
    }

    static String name(Card c) { return c.toString().substring(0, 1) + c.toString().substring(1).toLowerCase(); }

    static String cardsText(Collection<Card> cs) {
        ArrayList<String> names = new ArrayList<String>();
        for (Card c : cs) names.add(name(c));
        Collections.sort(names);
        return String.join(" ", names);
    }

    static String meldSetText(ArrayList<ArrayList<Card>> melds) {
        ArrayList<String> out = new ArrayList<String>();
        for (ArrayList<Card> m : melds) out.add(cardsText(m).replace(' ', '-'));
        Collections.sort(out);
        return String.join(" ", out);
    }

    static SimpleGinRummyPlayer player(ArrayList<Card> hand, int pick) {
        SimpleGinRummyPlayer p = new SimpleGinRummyPlayer();
        p.cards = new ArrayList<Card>(hand);
        p.random = new Fixed(pick);
        return p;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\\|", -1);
            String kind = f[0].trim();
            ArrayList<Card> hand = cards(f[1]);
            if (kind.equals("draw")) {
                out.println(player(hand, 0).willDrawFaceUpCard(cards(f[2]).get(0)) ? "take" : "decline");
            } else if (kind.equals("discard")) {
                Card drawn = cards(f[2]).get(0);
                boolean faceUp = f[3].trim().equals("1");
                TreeSet<String> chosen = new TreeSet<String>();
                for (int pick = 0, bound = 1; pick < bound; pick++) {
                    SimpleGinRummyPlayer p = player(hand, pick);
                    p.drawnCard = drawn;
                    p.faceUpCard = faceUp ? drawn : null;
                    for (String pair : f[4].trim().split(","))
                        if (!pair.isEmpty())
                            p.drawDiscardBitstrings.add(GinRummyUtil.cardsToBitstring(cards(pair.replace('+', ' '))));
                    chosen.add(name(p.getDiscard()));
                    bound = ((Fixed) p.random).bound;
                }
                out.println(String.join(" ", chosen));
            } else if (kind.equals("knock") || kind.equals("defend")) {
                ArrayList<ArrayList<Card>> knockMelds = new ArrayList<ArrayList<Card>>();
                if (kind.equals("defend"))
                    for (String m : f[2].trim().split(" "))
                        if (!m.isEmpty()) knockMelds.add(cards(m.replace('-', ' ')));
                TreeSet<String> chosen = new TreeSet<String>();
                boolean knocks = true;
                for (int pick = 0, bound = 1; pick < bound; pick++) {
                    SimpleGinRummyPlayer p = player(hand, pick);
                    p.opponentKnocked = kind.equals("defend");
                    ArrayList<ArrayList<Card>> melds = p.getFinalMelds();
                    if (melds == null) { knocks = false; break; }
                    String answer = meldSetText(melds);
                    if (kind.equals("defend"))
                        answer += " / " + (f[3].trim().equals("1") ? layoffs(hand, melds, knockMelds) : "");
                    chosen.add(answer);
                    bound = Math.max(((Fixed) p.random).bound, 1);
                }
                out.println(knocks ? String.join(" ; ", chosen) : "no");
            } else {
                out.println("? " + kind);
            }
            out.flush();
        }
    }

    /** The layoff loop of GinRummyGame.play (the knocker did not go gin), on copies of the melds. */
    @SuppressWarnings("unchecked")
    static String layoffs(
            ArrayList<Card> hand, ArrayList<ArrayList<Card>> melds, ArrayList<ArrayList<Card>> knockMelds0) {
        ArrayList<ArrayList<Card>> knockMelds = new ArrayList<ArrayList<Card>>();
        for (ArrayList<Card> m : knockMelds0) knockMelds.add((ArrayList<Card>) m.clone());
        long unmelded = GinRummyUtil.cardsToBitstring(hand);
        for (ArrayList<Card> m : melds) unmelded &= ~GinRummyUtil.cardsToBitstring(m);
        ArrayList<Card> unmeldedCards = GinRummyUtil.bitstringToCards(unmelded);
        ArrayList<String> laid = new ArrayList<String>();
        boolean cardWasLaidOff;
        do {
            cardWasLaidOff = false;
            Card layOffCard = null;
            ArrayList<Card> layOffMeld = null;
            for (Card card : unmeldedCards) {
                for (ArrayList<Card> meld : knockMelds) {
                    ArrayList<Card> newMeld = (ArrayList<Card>) meld.clone();
                    newMeld.add(card);
                    if (GinRummyUtil.getAllMeldBitstrings().contains(GinRummyUtil.cardsToBitstring(newMeld))) {
                        layOffCard = card;
                        layOffMeld = meld;
                        break;
                    }
                }
                if (layOffCard != null) {
                    laid.add(name(layOffCard) + ">" + name(knockMelds0.get(knockMelds.indexOf(layOffMeld)).get(0)));
                    unmeldedCards.remove(layOffCard);
                    layOffMeld.add(layOffCard);
                    cardWasLaidOff = true;
                    break;
                }
            }
        } while (cardWasLaidOff);
        Collections.sort(laid);
        return String.join(" ", laid);
    }
}
"""


def _cards(cs: Sequence[Card] | int) -> str:
    return " ".join(sorted(str(c) for c in (from_mask(cs) if isinstance(cs, int) else cs)))


def _melds(melds: Sequence[Meld]) -> str:
    return " ".join(sorted(_cards(m.cards).replace(" ", "-") for m in melds))


def _java_meld(m: Meld) -> str:
    """A knocker's meld as the harness reads it: its cards in Knock's order joined by dashes (its first card
    names it in the layoffs' answer)."""
    return "-".join(str(c) for c in m.cards)


@dataclass(frozen=True)
class Question:
    kind: str
    line: str  #: the harness's input
    expected: str  #: the Python port's answer, in the harness's form
    chosen_ok: bool  #: the Python bot's own choice lies in its answer


class Recorder(SimpleBot):
    """The ``simple`` bot, asking every question its decisions answer of its pure functions too."""

    def __init__(self, seed: int, out: list[Question]) -> None:
        super().__init__(seed)
        self.out = out

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        before, pairs = self._before, frozenset(self._pairs)
        same_hand = self._hand_key == (obs.seat, obs.dealer, obs.upcard, obs.knock_limit, obs.rules) and (
            obs.stock_size <= self._stock
        )
        action = super().choose(obs, legal)
        mask = to_mask(obs.hand)
        kinds = {type(a) for a in legal}
        if len(kinds) > 1 and kinds & {TakeUpcard, DrawDiscard}:
            top = obs.discard_pile[-1]
            answer = "take" if would_meld(mask, top) else "decline"
            took = isinstance(action, TakeUpcard | DrawDiscard)
            self.out.append(Question("draw", f"draw|{_cards(mask)}|{top}", answer, took == (answer == "take")))
        elif isinstance(action, Discard | Knock) and same_hand:
            drawn = obs.taken
            if drawn is None and before is not None and (mask & ~before).bit_count() == 1:
                drawn = from_mask(mask & ~before)[0]
            if drawn is not None:
                options = discard_candidates(mask, drawn, obs.taken, pairs)
                java_pairs = ",".join("+".join(str(c) for c in from_mask(p)) for p in sorted(pairs))
                line = f"discard|{_cards(mask)}|{drawn}|{int(obs.taken is not None)}|{java_pairs}"
                self.out.append(Question("discard", line, _cards(options), action.card in options))
                # The repeat rule seldom bars a card in play: ask again with the pair of the drawn card and each
                # of the chosen cards in turn (the last also with the drawn card alone) already made.
                for k, barred in enumerate(options[:2]):
                    extra = pairs | {drawn.bit | barred.bit} | ({drawn.bit} if k else set())
                    more = discard_candidates(mask, drawn, obs.taken, frozenset(extra))
                    java_more = ",".join("+".join(str(c) for c in from_mask(p)) for p in sorted(extra))
                    line = f"discard|{_cards(mask)}|{drawn}|{int(obs.taken is not None)}|{java_more}"
                    self.out.append(Question("repeat", line, _cards(more), True))
            rest = mask ^ action.card.bit
            sets = best_meld_sets(rest)
            knocks = deadwood(rest) <= 10 and bool(sets)
            answer = " ; ".join(sorted(_melds(s) for s in sets)) if knocks else "no"
            self.out.append(Question("knock", f"knock|{_cards(rest)}", answer, isinstance(action, Knock) == knocks))
        elif isinstance(action, Spread):
            low = deadwood(mask)
            ok = value(mask & ~shown_mask(action)) == low
            answer = " ; ".join(sorted(_melds(s) for s in best_meld_sets(mask)))
            self.out.append(Question("spread", f"knock|{_cards(mask)}", answer, ok))
        elif isinstance(action, LayOff):
            assert obs.spread is not None
            targets = obs.spread.melds
            answers = []
            for s in best_meld_sets(mask) or [()]:
                melded = to_mask(c for m in s for c in m.cards)
                laid = game_layoffs(mask & ~melded, targets) if obs.spread.deadwood else ()
                answers.append(f"{_melds(s)} / " + " ".join(sorted(f"{lo.card}>{lo.onto.cards[0]}" for lo in laid)))
            line = f"defend|{_cards(mask)}|{' '.join(_java_meld(m) for m in targets)}|{int(obs.spread.deadwood > 0)}"
            mine = f"{_melds(action.melds)} / " + " ".join(
                sorted(f"{lo.card}>{lo.onto.cards[0]}" for lo in action.layoffs)
            )
            answer = " ; ".join(sorted(answers))
            self.out.append(Question("defend", line, answer, mine in answers))
        return action


def questions(positions: int, seed: int) -> Iterator[Question]:
    """Questions from seeded games (the standard rules, and the EAAI game's): ``simple`` against itself,
    the heuristic and the random bot, until ``positions`` of them."""
    asked: list[Question] = []
    game = 0
    opponents = ("simple", "heuristic", "random")
    while len(asked) < positions:
        g = seed + game
        rules = EAAI_RULES if game % 2 else RuleSet()
        other = opponents[game % 3]
        me = game % 2
        bots = [make_bot(other, g * 2 + 1), make_bot(other, g * 2 + 1)]
        bots[me] = Recorder(g * 2, asked)
        if other == "simple":
            bots[1 - me] = Recorder(g * 2 + 1, asked)
        match = Match.new(rules, seed=g)
        while (s := match.to_act) is not None and len(asked) < positions:
            assert match.hand is not None
            match.apply(bots[s].choose(match.hand.observation(s), match.legal_actions()))
        game += 1
    yield from asked[:positions]


def compile_harness(java_dir: Path, work: Path) -> None:
    """Copy the base code's sources and the harness into ``work`` and compile them there."""
    src = work / "ginrummy"
    src.mkdir(parents=True)
    for name in JAVA_FILES:
        if not (java_dir / name).is_file():
            raise SystemExit(f"{java_dir / name} not found: give the folder of package ginrummy's sources")
        shutil.copy(java_dir / name, src / name)
    (src / "SimpleCheck.java").write_text(HARNESS)
    if shutil.which("javac") is None:
        raise SystemExit("javac not found: apt-get install openjdk-17-jdk-headless")
    files = [str(src / n) for n in (*JAVA_FILES, "SimpleCheck.java")]
    subprocess.run(["javac", "-nowarn", "-d", str(work / "classes"), *files], check=True, capture_output=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("java_dir", type=Path, help="folder of the base code's package ginrummy sources")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the counts and every disagreement here")
    parser.add_argument("--show", type=int, default=5, help="disagreements printed (default 5)")
    args = parser.parse_args(argv)
    asked = list(questions(args.positions, args.seed))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        compile_harness(args.java_dir, work)
        feed = "".join(q.line + "\n" for q in asked)
        run = subprocess.run(
            ["java", "-cp", str(work / "classes"), "ginrummy.SimpleCheck"],
            input=feed,
            capture_output=True,
            text=True,
            check=True,
        )
    answers = run.stdout.splitlines()
    assert len(answers) == len(asked), f"{len(answers)} answers to {len(asked)} questions: {run.stderr[-500:]}"
    counts: Counter[str] = Counter(q.kind for q in asked)
    wrong = [(q, a) for q, a in zip(asked, answers, strict=True) if q.expected != a]
    outside = [q for q in asked if not q.chosen_ok]
    for kind in sorted(counts):
        bad = sum(q.kind == kind for q, _ in wrong)
        print(f"{kind:8} {counts[kind]:6} positions, {bad} disagreements")
    print(f"total    {len(asked):6} positions, {len(wrong)} disagreements, {len(outside)} choices outside the set")
    for q, a in wrong[: args.show]:
        print(f"  {q.line}\n    python: {q.expected}\n    java:   {a}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        record = {
            "positions": len(asked),
            "by_kind": dict(sorted(counts.items())),
            "disagreements": len(wrong),
            "outside": len(outside),
            "seed": args.seed,
            "wrong": [{"question": q.line, "python": q.expected, "java": a} for q, a in wrong],
        }
        args.json.write_text(json.dumps(record, indent=1) + "\n")
    return 1 if wrong or outside else 0


if __name__ == "__main__":
    sys.exit(main())

// The page's words for seats and results (knock/web/static/js/dom.js's seatName, showdown.js's resultWords), run
// by Node on the cases given as JSON in argv[2]: {names: [[...]], results: [{result, players, me}]}. Prints
// {names: [[...]], results: [...]}, for tests/web/test_page_words.py to compare with replay.narration's.
import { seatName } from "../../knock/web/static/js/dom.js";
import { resultWords } from "../../knock/web/static/js/showdown.js";

const cases = JSON.parse(process.argv[2]);
const names = cases.names.map((players) => players.map((_, seat) => seatName(players, seat)));
const results = cases.results.map(({ result, players, me }) => resultWords(result, players, me));
process.stdout.write(JSON.stringify({ names, results }));

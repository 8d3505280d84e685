// yaml/syntax says the YAML library's errors in our words: what is wrong and what to do first, in
// a headline that fits a Problems panel row, then the library's own text, so nothing it said is
// lost; the range stays the parser's. Each case is a real slip in a gateway file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { firstSentence, headlineFits } from '../../server/src/core/wording/headlines.js';
import { Workspace } from '../../server/src/core/workspace.js';

const HEAD = 'compositeTools:\n  - name: docs\n    steps: []\n';

/** [what the user wrote after the head, the start of our headline, the library's words kept after it] */
const CASES: [string, string, RegExp][] = [
  ['name: "docs\n', 'This string has no closing `"`', /Missing closing "quote/],
  [
    'name: docs\nbackends\n',
    'This line has no `key: value` colon',
    /Implicit map keys need to be followed by map values/,
  ],
  ['name: "docs" extra\n', 'Something follows this value on its line', /Unexpected scalar at node end/],
  ['backends: [a, , b]\n', 'A stray comma: remove it', /Unexpected , in flow sequence/],
  ['name:\n\tdocs\n', 'A tab indents this line', /Tabs are not allowed as indentation/],
  ['name: @docs\n', 'A plain value cannot start with this character', /Plain value cannot start with/],
  ['name: "a\\qb"\n', 'This `\\` escape is not valid', /Invalid escape sequence/],
  ['outgoingAuth:\n  source: inline\n type: x\n', 'This entry is not aligned', /must start at the same column/],
  [
    'backends: [a, b\n',
    'This `[` is not closed',
    /Flow sequence in block collection must be sufficiently indented and end with a \]/,
  ],
  ['name: a: b\n', 'Two `key:` on one line', /Nested mappings are not allowed in compact mappings/],
];

describe('yaml/syntax words the YAML parser errors', () => {
  for (const [tail, headline, library] of CASES) {
    test(JSON.stringify(tail), () => {
      const text = HEAD + tail;
      const workspace = new Workspace('/ws');
      const file = workspace.parse('gateway.vmcp.yaml', text);
      const problems = file.documents.flatMap((d) => d.problems).filter((p) => p.rule === 'yaml/syntax');
      const findings = checkFile(file, workspace).findings.filter((f) => f.rule === 'yaml/syntax');
      assert.ok(findings.length > 0, `no yaml/syntax finding for ${JSON.stringify(text)}`);
      const ours = findings.find((f) => f.message.startsWith(headline));
      assert.ok(ours, `no finding starts "${headline}":\n${findings.map((f) => f.message).join('\n')}`);
      assert.ok(headlineFits(firstSentence(ours.message)), `the headline is too long: ${ours.message}`);
      assert.match(ours.why ?? '', library, "the parser's own words follow");
      assert.ok(
        problems.some((p) => p.span.start === ours.span.start && p.span.end === ours.span.end),
        "the finding keeps the parser's range",
      );
    });
  }
});

// The library ends a quoted string whose closing quote is escaped, or whose quotes inside are not
// paired, at its own line without a word, when the next line cannot continue it: YAML does not
// allow that string, and what it reads depends on a quote further on (a fix that removed that
// quote once turned the file into an error). It is said, once, on the string; a paired one is not.
describe('yaml/syntax: a quoted string that YAML never closes', () => {
  const cases: [string, string][] = [
    ['description: "ends with \\"\nname: "docs"\n', 'This quoted string has an unescaped " inside'],
    ["description: 'odd run ''''\nname: 'docs'\n", "This quoted string has an unpaired ' inside"],
  ];
  for (const [tail, headline] of cases) {
    test(JSON.stringify(tail), () => {
      const text = HEAD.replace('steps: []\n', `steps: []\n    ${tail.replace(/\n(?=.)/g, '\n    ')}`);
      const workspace = new Workspace('/ws');
      const file = workspace.parse('gateway.vmcp.yaml', text);
      const findings = checkFile(file, workspace).findings.filter((f) => f.rule === 'yaml/syntax');
      assert.equal(findings.length, 1, findings.map((f) => f.message).join('\n'));
      const [finding] = findings;
      assert.ok(finding!.message.startsWith(headline), finding!.message);
      assert.ok(headlineFits(firstSentence(finding!.message)), finding!.message);
      // On the string itself, from its opening quote.
      assert.equal(finding!.span.start, text.indexOf('description: ') + 'description: '.length);
    });
  }
  test('paired quotes and escapes are no finding', () => {
    const text = `${HEAD}    description: "escapes \\\\ and \\" inside"\n    title: 'it''s fine'\n`;
    const workspace = new Workspace('/ws');
    const findings = checkFile(workspace.parse('gateway.vmcp.yaml', text), workspace).findings.filter(
      (f) => f.rule === 'yaml/syntax',
    );
    assert.deepEqual(findings, []);
  });
});

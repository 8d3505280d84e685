// .toollens.yaml problems with "did you mean": a misspelt key, rule id (in `rules` and in an
// override), severity and kind each gets the closest right word in its message and a fix (a
// suggestion) that writes it, keeping the quoting; a word close to nothing gets neither. And
// `ruleDocsUrl`: read, refused when it is no http(s) URL, and turned into each rule's link.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfig } from '../../server/src/core/config/config.js';
import { RULE_IDS } from '../../server/src/core/rules/registry.js';
import { DOCS_BASE_URL, ruleDocsUrl } from '../../server/src/core/rules/rule.js';
import { applyEdits } from '../../server/src/core/text/edits.js';

function fixed(text: string): { messages: string[]; text: string; safe: boolean[] } {
  const { problems } = parseConfig('.toollens.yaml', text, RULE_IDS);
  const fixes = problems.map((p) => p.fixes?.[0]).filter((f) => f !== undefined);
  return {
    messages: problems.map((p) => p.message),
    text: applyEdits(
      text,
      fixes.flatMap((f) => f.edits),
    ),
    safe: fixes.map((f) => f.safe),
  };
}

describe('.toollens.yaml did-you-mean', () => {
  test('keys, rule ids, severities and kinds', () => {
    const text = [
      'catalog: ["a/*.json"]',
      'rules:',
      "  'annotations/contradicton': warnig",
      'overrides:',
      '  - files: ["b/**"]',
      '    rules:',
      '      template/not-upstrem: "of"',
      'kinds:',
      '  face-overlays: ["c/*.yaml"]',
      '',
    ].join('\n');
    const result = fixed(text);
    // A misspelt id and a misspelt severity on one line are two problems, both said at once.
    assert.deepEqual(result.messages, [
      '"catalog" is not a configuration key. Did you mean catalogs? The keys are catalogs, workloads, rules, overrides, kinds, limits and ruleDocsUrl.',
      '"annotations/contradicton" is not a rule id. Did you mean annotations/contradiction? `tool-lens rules` lists them.',
      'The severity of annotations/contradicton must be one of error, warning, info, hint, off. Did you mean warning?',
      '"template/not-upstrem" is not a rule id. Did you mean template/not-upstream? `tool-lens rules` lists them.',
      'The severity of template/not-upstrem must be one of error, warning, info, hint, off. Did you mean off?',
      result.messages[5]!,
    ]);
    assert.match(
      result.messages[5]!,
      /^"face-overlays" is not a document kind\. Did you mean face-overlay\? The kinds are /,
    );
    assert.equal(
      result.text,
      text
        .replace('catalog:', 'catalogs:')
        .replace("'annotations/contradicton'", "'annotations/contradiction'")
        .replace('warnig', 'warning')
        .replace('not-upstrem', 'not-upstream')
        .replace('"of"', '"off"')
        .replace('face-overlays', 'face-overlay'),
    );
    assert.ok(
      result.safe.every((s) => !s),
      'a guess is a suggestion, never applied alone',
    );
    assert.deepEqual(fixed(result.text).messages, []);
  });

  test('every problem is said at once: what a misspelt key or an override holds is read too', () => {
    const text = [
      'rulse:',
      '  tool/unknwn: eror',
      '  args/unknown: warnin',
      'overrides:',
      '  - files: ["b/**"]',
      '    rule:',
      '      template/not-upstrem: warning',
      'kinds:',
      '  face-overlays: ["c/*.yaml"]',
      '',
    ].join('\n');
    const result = fixed(text);
    assert.deepEqual(result.messages, [
      '"rulse" is not a configuration key. Did you mean rules? The keys are catalogs, workloads, rules, overrides, kinds, limits and ruleDocsUrl.',
      '"tool/unknwn" is not a rule id. Did you mean tool/unknown? `tool-lens rules` lists them.',
      'The severity of tool/unknwn must be one of error, warning, info, hint, off. Did you mean error?',
      'The severity of args/unknown must be one of error, warning, info, hint, off. Did you mean warning?',
      '"rule" is not a key of an override: did you mean rules?',
      '"template/not-upstrem" is not a rule id. Did you mean template/not-upstream? `tool-lens rules` lists them.',
      result.messages[6]!,
    ]);
    assert.match(result.messages[6]!, /^"face-overlays" is not a document kind\./);
    // What a misspelt key holds is read for its problems only: none of it applies.
    const { config } = parseConfig('.toollens.yaml', text, RULE_IDS);
    assert.deepEqual(config.rules, {});
    assert.deepEqual(config.overrides, [{ files: ['b/**'], rules: {} }]);
    assert.deepEqual(fixed(result.text).messages, []);
  });

  test('a word close to nothing is told the list, with no fix', () => {
    const { problems } = parseConfig(
      '.toollens.yaml',
      'zzzzzz: 1\nrules:\n  qqqq/qqqq: error\n  yaml/syntax: fatal\n',
      RULE_IDS,
    );
    assert.deepEqual(
      problems.map((p) => [p.message, p.fixes]),
      [
        [
          '"zzzzzz" is not a configuration key. The keys are catalogs, workloads, rules, overrides, kinds, limits and ruleDocsUrl.',
          undefined,
        ],
        ['"qqqq/qqqq" is not a rule id. `tool-lens rules` lists them.', undefined],
        ['The severity of yaml/syntax must be one of error, warning, info, hint, off.', undefined],
      ],
    );
  });
});

describe('ruleDocsUrl', () => {
  test('read from the configuration, refused unless http(s)', () => {
    assert.equal(
      parseConfig('.toollens.yaml', 'ruleDocsUrl: https://wiki.example/{rule}\n', RULE_IDS).config.ruleDocsUrl,
      'https://wiki.example/{rule}',
    );
    for (const [value, why] of [
      ['ftp://x.example/', 'is a ftp URL'],
      ['not a url', 'is not a URL'],
      ['[1]', 'it is not a string'],
    ] as const) {
      const { config, problems } = parseConfig('.toollens.yaml', `ruleDocsUrl: ${value}\n`, RULE_IDS);
      assert.equal(config.ruleDocsUrl, undefined);
      assert.equal(problems.length, 1);
      assert.ok(problems[0]!.message.includes(why), problems[0]!.message);
      assert.equal(problems[0]!.rule, 'schema/invalid-value');
    }
  });

  test('turned into a rule link', () => {
    assert.equal(ruleDocsUrl('yaml/syntax'), `${DOCS_BASE_URL}yaml/syntax.md`);
    assert.equal(
      ruleDocsUrl('yaml/syntax', 'https://wiki.example/lint/{rule}.html'),
      'https://wiki.example/lint/yaml/syntax.html',
    );
    assert.equal(
      ruleDocsUrl('yaml/syntax', 'https://wiki.example/docs/rules'),
      'https://wiki.example/docs/rules/yaml/syntax.md',
    );
    assert.equal(
      ruleDocsUrl('yaml/syntax', 'https://wiki.example/docs/rules/'),
      'https://wiki.example/docs/rules/yaml/syntax.md',
    );
  });
});

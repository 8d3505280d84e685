// Inline suppressions are read from the comments the parsers found, never from text that only looks
// like a comment: a string, a key or a block scalar holding `# tool-lens-disable-line RULE` neither
// silences a finding nor is reported as an unused suppression. Real comments (`#` in YAML, `//` in
// JSON with comments) keep every form and behaviour, also after an incremental re-parse.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Lexer } from 'yaml';
import { checkFile } from '../../server/src/core/engine.js';
import { parseFile, type ParsedFile } from '../../server/src/core/parse/file.js';
import { reparseFile } from '../../server/src/core/parse/incremental.js';
import { findDirectives, UNUSED_SUPPRESSION } from '../../server/src/core/suppressions.js';
import { applyEdits } from '../../server/src/core/text/edits.js';
import type { Finding } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { yamlFiles } from '../helpers/yamlCorpus.js';

const ROOT = join(__dirname, '..', '..');

function check(path: string, text: string): { file: ParsedFile; findings: Finding[] } {
  const logs: string[] = [];
  const workspace = new Workspace('/ws', (message) => logs.push(message));
  const file = workspace.parse(path, text);
  const { findings } = checkFile(file, workspace);
  assert.deepEqual(logs, [], `a rule failed on ${path}`);
  assert.ok(file.kind, `${path} is one of our kinds`);
  return { file, findings };
}

/** `LINE RULE` (1-based) for every finding. */
function lines(file: ParsedFile, findings: readonly Finding[]): string[] {
  return findings.map((f) => `${file.source.positionAt(f.span.start).line + 1} ${f.rule}`);
}

/** The 1-based line of the first line of `text` that includes `marker`. */
function lineWith(text: string, marker: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(marker));
  assert.ok(index >= 0, `no line holds ${marker}`);
  return index + 1;
}

const STEP_HEAD = `compositeTools:
  - name: strings
    description: Text that looks like a suppression
    steps:
      - id: ask
        type: elicitation
`;
const SCHEMA = '        schema: {type: object, properties: {ok: {type: boolean}}}\n';

interface Case {
  name: string;
  path: string;
  /** Holds `RULE` where the directive-like text names a rule, and `FINDING` on the line of the finding. */
  text: string;
  /** The rule whose finding on the FINDING line the text would hide if it were read as a directive. */
  rule: string;
  /** The comment marker of the language, for the control (a real comment), or none where comments are not allowed. */
  marker?: '#' | '//';
}

const CASES: Case[] = [
  {
    name: 'a plain scalar',
    path: 'plain.vmcp.yaml',
    text: `${STEP_HEAD}        message: first\n        message: see // tool-lens-disable-line RULE -- why  # FINDING\n${SCHEMA}`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a plain scalar over two lines',
    path: 'plain-lines.vmcp.yaml',
    text: `${STEP_HEAD}        message: first line\n          // tool-lens-disable-next-line RULE -- why\n        message: again  # FINDING\n${SCHEMA}`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a single-quoted scalar',
    path: 'single.vmcp.yaml',
    text: `${STEP_HEAD}        message: first\n        message: 'x # tool-lens-disable-line RULE -- it''s text'  # FINDING\n${SCHEMA}`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a single-quoted scalar over two lines',
    path: 'single-lines.vmcp.yaml',
    text: `${STEP_HEAD}        message: 'first line\n          # tool-lens-disable-next-line RULE -- why'\n        message: again  # FINDING\n${SCHEMA}`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a double-quoted scalar',
    path: 'double.vmcp.yaml',
    text: `${STEP_HEAD}        message: first\n        message: "x # tool-lens-disable-line RULE -- \\"why\\""  # FINDING\n${SCHEMA}`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a double-quoted scalar over two lines',
    path: 'double-lines.vmcp.yaml',
    text: `${STEP_HEAD}        message: "first line\n          # tool-lens-disable-next-line RULE -- why"\n        message: again  # FINDING\n${SCHEMA}`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a literal block scalar',
    path: 'literal.vmcp.yaml',
    text: `${STEP_HEAD}        message: |\n          Text.\n          # tool-lens-disable-next-line RULE -- why\n        message: again  # FINDING\n${SCHEMA}`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a literal block scalar, file-wide',
    path: 'literal-file.vmcp.yaml',
    text: `${STEP_HEAD}        message: |+\n          # tool-lens-disable-file RULE -- why\n\n${SCHEMA}        message: again  # FINDING\n`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a folded block scalar',
    path: 'folded.vmcp.yaml',
    text: `${STEP_HEAD}        message: >-\n          Text.\n          // tool-lens-disable-next-line RULE -- why\n        message: again  # FINDING\n${SCHEMA}`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a flow mapping',
    path: 'flow-map.vmcp.yaml',
    text: `${STEP_HEAD}        message: m\n        schema: {type: object, description: "d # tool-lens-disable-line RULE -- why", description: e}  # FINDING\n`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a plain scalar in a flow mapping',
    path: 'flow-map-plain.vmcp.yaml',
    text: `${STEP_HEAD}        message: m\n        schema: {type: object, description: d // tool-lens-disable-line RULE -- why, description: e}  # FINDING\n`,
    rule: 'yaml/duplicate-key',
    marker: '#',
  },
  {
    name: 'a flow sequence',
    path: 'flow-seq.vmcp.yaml',
    text: `${STEP_HEAD}        message: m\n${SCHEMA}        dependsOn: [ask, "x # tool-lens-disable-line RULE -- why"]  # FINDING\n`,
    rule: 'workflow/unknown-dependency',
    marker: '#',
  },
  {
    name: 'a quoted key',
    path: 'key.vmcp.yaml',
    text: `${STEP_HEAD}        message: m\n${SCHEMA}        "x # tool-lens-disable-line RULE -- why": 1  # FINDING\n`,
    rule: 'schema/unknown-key',
    marker: '#',
  },
  {
    name: 'a plain key',
    path: 'plain-key.vmcp.yaml',
    text: `${STEP_HEAD}        message: m\n${SCHEMA}        x // tool-lens-disable-line RULE -- why: 1  # FINDING\n`,
    rule: 'schema/unknown-key',
    marker: '#',
  },
  {
    name: 'a JSON string',
    path: 'servers.json',
    text: '{\n  "mcpServers": {\n    "fs": {\n      "command": "npx",\n      "command": "node // tool-lens-disable-line RULE -- why" // FINDING\n    }\n  }\n}\n',
    rule: 'yaml/duplicate-key',
    marker: '//',
  },
  {
    name: 'a JSON string on the line before',
    path: 'next.json',
    text: '{\n  "mcpServers": {\n    "fs": {\n      "command": "npx",\n      "args": ["x # tool-lens-disable-next-line RULE -- why"],\n      "command": "node" // FINDING\n    }\n  }\n}\n',
    rule: 'yaml/duplicate-key',
    marker: '//',
  },
  {
    name: 'a JSON key',
    path: 'key.json',
    text: '{\n  "mcpServers": {\n    "fs // tool-lens-disable-line RULE -- why": {"command": "npx", "command": "node"} // FINDING\n  }\n}\n',
    rule: 'yaml/duplicate-key',
    marker: '//',
  },
  {
    name: 'a JSONC string, among real comments',
    path: 'servers.jsonc',
    text: '// servers\n{\n  "mcpServers": {\n    /* the one server */\n    "fs": {\n      "env": {"NOTE": "x // tool-lens-disable-file RULE -- why"}, // env\n      "command": "npx",\n      "command": "node" // FINDING\n    }\n  }\n}\n',
    rule: 'yaml/duplicate-key',
    marker: '//',
  },
  {
    name: 'a JSONL string',
    path: 'log.calls.jsonl',
    text: '{"tool": "fs.read", "arguments": {"path": "a"}}\n{"tool": "fs.read", "arguments": {"path": "a // tool-lens-disable-line RULE -- why", "path": "b"}}\n',
    rule: 'yaml/duplicate-key',
  },
];

/** The case's text naming `rule` (FINDING stays: it is in a comment of its own). */
function textOf(c: Case, rule: string): string {
  return c.text.replaceAll('RULE', rule);
}

function findingLine(c: Case): number {
  // JSONL holds no markers: its finding is on the line with the directive-like text.
  return c.marker ? lineWith(c.text, 'FINDING') : lineWith(c.text, 'RULE');
}

describe('text that only looks like a suppression', () => {
  for (const c of CASES) {
    test(`in ${c.name}: no directive, the finding stays, no unused suppression`, () => {
      const text = textOf(c, c.rule);
      const { file, findings } = check(c.path, text);
      assert.deepEqual(findDirectives(file), [], 'no directive is read from the text');
      const found = lines(file, findings);
      assert.ok(found.includes(`${findingLine(c)} ${c.rule}`), `the ${c.rule} finding is kept:\n${found.join('\n')}`);
      assert.deepEqual(
        found.filter((f) => f.endsWith(UNUSED_SUPPRESSION)),
        [],
      );
    });

    test(`in ${c.name}: naming a rule that reports nothing, it is not reported as unused`, () => {
      const { file, findings } = check(c.path, textOf(c, 'yaml/syntax'));
      assert.deepEqual(
        lines(file, findings).filter((f) => f.endsWith(UNUSED_SUPPRESSION)),
        [],
      );
    });

    if (c.marker) {
      test(`in ${c.name}: control, the same rule in a real comment silences the finding`, () => {
        const text = textOf(c, c.rule).replace(
          `${c.marker} FINDING`,
          `${c.marker} tool-lens-disable-line ${c.rule} -- control`,
        );
        const { file, findings } = check(c.path, text);
        const found = lines(file, findings);
        assert.ok(!found.includes(`${findingLine(c)} ${c.rule}`), `the finding is silenced:\n${found.join('\n')}`);
        assert.deepEqual(
          found.filter((f) => f.endsWith(UNUSED_SUPPRESSION)),
          [],
        );
        assert.equal(findDirectives(file).length, 1);
      });
    }
  }
});

const REAL = `# tool-lens-disable-file workflow/unknown-dependency -- ids are checked elsewhere
compositeTools:
  - name: real
    description: first
    # tool-lens-disable-next-line yaml/duplicate-key -- kept from an older version
    description: second
    steps:
      - id: ask
        type: elicitation
        message: "a # tool-lens-disable-line yaml/syntax"
        message: "b # tool-lens-disable-line yaml/syntax" # tool-lens-disable-line yaml/duplicate-key -- after a string
        type: elicitation #tool-lens-disable-line yaml/duplicate-key
        schema: {type: object, properties: {ok: {type: boolean}}} # tool-lens-disable-line yaml/syntax, schema/unknown-key -- stale
        dependsOn: [nowhere]
        message: | # tool-lens-disable-line yaml/duplicate-key -- on a block scalar's header
          # tool-lens-disable-line yaml/syntax
`;

describe('real comments', () => {
  test('YAML: every form, after a string on its line, on a block header; only the stale ids are reported', () => {
    const { file, findings } = check('real.vmcp.yaml', REAL);
    const directives = findDirectives(file);
    assert.deepEqual(
      directives.map((d) => [d.kind, d.line + 1, d.rules.map((r) => r.id)]),
      [
        ['file', 1, ['workflow/unknown-dependency']],
        ['next-line', 5, ['yaml/duplicate-key']],
        ['line', 11, ['yaml/duplicate-key']],
        ['line', 12, ['yaml/duplicate-key']],
        ['line', 13, ['yaml/syntax', 'schema/unknown-key']],
        ['line', 15, ['yaml/duplicate-key']],
      ],
    );
    const text = file.source.text;
    assert.equal(
      text.slice(directives[2]!.commentSpan.start, directives[2]!.commentSpan.end),
      '# tool-lens-disable-line yaml/duplicate-key -- after a string',
    );
    assert.deepEqual(lines(file, findings), ['13 lens/unused-suppression', '13 lens/unused-suppression']);
    // Their fix removes the comment and nothing else: the string before it stays.
    const fix = findings[0]!.fixes![0]!;
    assert.equal(
      applyEdits(text, fix.edits).split('\n')[12],
      '        schema: {type: object, properties: {ok: {type: boolean}}}',
    );
  });

  test('YAML with CRLF line breaks: the comment and its removal stop at the line break', () => {
    const text = REAL.replace(/\n/g, '\r\n');
    const { file, findings } = check('crlf.vmcp.yaml', text);
    assert.deepEqual(lines(file, findings), ['13 lens/unused-suppression', '13 lens/unused-suppression']);
    const next = findDirectives(file)[1]!;
    assert.equal(
      text.slice(next.removalSpan.start, next.removalSpan.end),
      '    # tool-lens-disable-next-line yaml/duplicate-key -- kept from an older version\r\n',
    );
    assert.ok(file.comments.every((c) => !c.text.includes('\r')));
  });

  const JSONC = `// tool-lens-disable-file workflow/unknown-dependency -- names no finding here
{
  "mcpServers": {
    "fs": {
      "command": "npx",
      // tool-lens-disable-next-line yaml/duplicate-key -- kept
      "command": "node",
      "args": ["// tool-lens-disable-line yaml/syntax"], "args": [], /* note */ // tool-lens-disable-line yaml/duplicate-key
      "env": {"A": "1", "A": "2"} /* tool-lens-disable-line yaml/duplicate-key */
    },
    /*
    // tool-lens-disable-next-line yaml/duplicate-key
    */
    "git": {"command": "uvx", "command": "git"}
  }
}
`;

  test('JSONC: line comments suppress, also after a block comment on their line; block comments hold none', () => {
    const { file, findings } = check('servers.jsonc', JSONC);
    assert.deepEqual(
      findDirectives(file).map((d) => [d.kind, d.line + 1, d.rules.map((r) => r.id)]),
      [
        ['file', 1, ['workflow/unknown-dependency']],
        ['next-line', 6, ['yaml/duplicate-key']],
        ['line', 8, ['yaml/duplicate-key']],
      ],
    );
    // The two duplicates the block comments mention stay, and only the file-wide id is stale.
    assert.deepEqual(lines(file, findings), [
      '1 lens/unused-suppression',
      '9 yaml/duplicate-key',
      '14 yaml/duplicate-key',
    ]);
    assert.deepEqual(
      file.comments.map((c) => c.text.split('\n')[0]),
      [
        '// tool-lens-disable-file workflow/unknown-dependency -- names no finding here',
        '// tool-lens-disable-next-line yaml/duplicate-key -- kept',
        '/* note */',
        '// tool-lens-disable-line yaml/duplicate-key',
        '/* tool-lens-disable-line yaml/duplicate-key */',
        '/*',
      ],
    );
  });

  test('a directive after other words of a comment still counts, as it did', () => {
    const text = `${STEP_HEAD}        message: first\n        message: second # see the docs # tool-lens-disable-line yaml/duplicate-key\n${SCHEMA}`;
    const { file, findings } = check('words.vmcp.yaml', text);
    assert.deepEqual(findings, []);
    const [directive] = findDirectives(file);
    assert.equal(
      text.slice(directive!.removalSpan.start, directive!.removalSpan.end),
      ' # tool-lens-disable-line yaml/duplicate-key',
    );
  });
});

describe('comments collected by the parsers', () => {
  test('YAML: every comment token with its exact span, none from inside a scalar', () => {
    const text = [
      '%YAML 1.2',
      '# before the document',
      '---',
      'a: 1 # after a value',
      'b: | # on a header',
      '  # content, not a comment',
      "c: 'x # text' # after a quoted string",
      'd: [1, # in a flow sequence',
      '  2] # after it',
      'e: plain#text',
      '...',
      '# after the end marker',
      '---',
      '# in a second document',
      'f: g',
      '',
    ].join('\n');
    const file = parseFile('x.yaml', text);
    const expected = [
      '# before the document',
      '# after a value',
      '# on a header',
      '# after a quoted string',
      '# in a flow sequence',
      '# after it',
      '# after the end marker',
      '# in a second document',
    ];
    assert.deepEqual(
      file.comments.map((c) => c.text),
      expected,
    );
    for (const comment of file.comments) assert.equal(text.slice(comment.span.start, comment.span.end), comment.text);
  });

  test('YAML: the comments are exactly those the YAML lexer emits, in every sample', () => {
    const samples = [join(ROOT, 'test', 'corpus'), join(ROOT, 'test', 'fixtures'), join(ROOT, 'examples')].flatMap(
      (dir) => yamlFiles(dir),
    );
    assert.ok(samples.length > 50);
    let total = 0;
    for (const path of samples) {
      const text = readFileSync(path, 'utf8');
      const file = parseFile(path, text);
      assert.deepEqual(
        file.comments.map((c) => `${c.span.start} ${c.text}`),
        lexedComments(text),
        path,
      );
      total += file.comments.length;
    }
    assert.ok(total > 100, `only ${total} comments in the samples`);
  });

  test('JSON and JSONL: the scanner comments with file offsets, none from strings', () => {
    const json = '{"a": "// no", /* one */ "b": 1 // two\n}\n';
    assert.deepEqual(parseFile('x.json', json).comments, [
      { span: { start: 15, end: 24 }, text: '/* one */' },
      { span: { start: 32, end: 38 }, text: '// two' },
    ]);
    // JSONL allows no comments (each is a syntax problem too), but the scanner still reads them as comments.
    const jsonl = '{"a": "// no"}\n{"b": 1} // three\n';
    const file = parseFile('x.calls.jsonl', jsonl);
    assert.deepEqual(file.comments, [{ span: { start: 24, end: 32 }, text: '// three' }]);
    assert.equal(parseFile('plain.json', '{"url": "https://example.com"}').comments.length, 0);
  });
});

/** `OFFSET TEXT` of each comment the lexer emits: control tokens take no room, a scalar's text follows its marker. */
function lexedComments(text: string): string[] {
  const out: string[] = [];
  let offset = 0;
  let scalarNext = false;
  for (const token of new Lexer().lex(text)) {
    if (token === '\u0002' || token === '\u0018') continue;
    if (token === '\u001f') {
      scalarNext = true;
      continue;
    }
    if (token.startsWith('#') && !scalarNext) out.push(`${offset} ${token.replace(/\r$/, '')}`);
    scalarNext = false;
    offset += token.length;
  }
  return out;
}

// No parse problem in it: a document with one is always parsed in full.
const EDITED = `compositeTools:
  - name: edited
    description: first
    steps:
      - id: ask
        type: elicitation
        message: first
        # tool-lens-disable-next-line workflow/unknown-dependency -- kept
        dependsOn: [nowhere]
        extra: "x # tool-lens-disable-line yaml/syntax" # tool-lens-disable-line schema/unknown-key
        schema: {type: object, properties: {ok: {type: boolean}}}
      - id: tell
        type: elicitation
        message: third
        # tool-lens-disable-next-line yaml/syntax -- stale
        schema: {type: object, properties: {ok: {type: boolean}}}
`;

describe('after an incremental re-parse', () => {
  // What is left each time: the stale suppression, and the finding whose suppression was removed.
  const STALE = ['lens/unused-suppression'];
  const edits: [string, string, string[]][] = [
    ['before every comment', EDITED.replace('description: first', 'description: the very first'), STALE],
    ['a line added before them', EDITED.replace('    steps:\n', '    timeout: 30s\n    steps:\n'), STALE],
    [
      'in the entry that holds the comments',
      EDITED.replace('        message: first\n', '        message: the first\n'),
      STALE,
    ],
    [
      'a comment added in an entry',
      EDITED.replace(
        '        message: third\n',
        '        message: third\n        # tool-lens-disable-next-line workflow/unknown-dependency\n        dependsOn: [gone]\n',
      ),
      STALE,
    ],
    [
      'a comment removed',
      EDITED.replace('        # tool-lens-disable-next-line workflow/unknown-dependency -- kept\n', ''),
      ['workflow/unknown-dependency', ...STALE],
    ],
    [
      'text that looks like one, typed into a string',
      EDITED.replace('message: third', 'message: "third # tool-lens-disable-line yaml/syntax"'),
      STALE,
    ],
    ['after every comment', EDITED.replace('      - id: tell', '      - id: told'), STALE],
  ];

  for (const [what, text, rules] of edits) {
    test(`${what}: the same comments, directives and findings as a full parse`, () => {
      const workspace = new Workspace('/ws');
      const previous = workspace.parse('edited.vmcp.yaml', EDITED);
      const full = parseFile('edited.vmcp.yaml', text);
      // As the language server does it: the previous parse is consumed.
      const reparsed = reparseFile(previous, text, null, { consume: true });
      assert.ok(reparsed, 'the edit is re-parsed in part');
      assert.deepEqual(reparsed.comments, full.comments);
      assert.deepEqual(findDirectives(reparsed), findDirectives(full));
      const findings = checkFile(reparsed, workspace).findings;
      assert.deepEqual(findings, checkFile(full, workspace).findings);
      assert.deepEqual(
        findings.map((f) => f.rule),
        rules,
      );
    });
  }

  test('a chain of edits keeps the directives where they are', () => {
    const workspace = new Workspace('/ws');
    let file = workspace.parse('edited.vmcp.yaml', EDITED);
    let text = EDITED;
    for (const [from, to] of [
      ['description: first', 'description: first!'],
      ['message: first', 'message: first!'],
      ['message: third', 'message: third!'],
      ['description: first!', 'description: one'],
    ]) {
      text = text.replace(from!, to!);
      const next = reparseFile(file, text, null, { consume: true });
      assert.ok(next, `${to}: re-parsed in part`);
      file = next;
    }
    const findings = lines(file, checkFile(file, workspace).findings);
    // The duplicate stays silenced; the stale suppression is still reported on its own line.
    assert.deepEqual(findings, [`${lineWith(text, 'yaml/syntax -- stale')} lens/unused-suppression`]);
    assert.deepEqual(file.comments, parseFile('edited.vmcp.yaml', text).comments);
  });
});

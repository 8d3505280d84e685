// TOML to our node tree (parse/toml.ts): every node's span is the text it stands for, for table
// headers, dotted and quoted keys, inline tables and arrays over several lines; a mapping named in
// parts covers them all; a syntax error is one yaml/syntax problem where the parser stopped.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFile } from '../../server/src/core/parse/file.js';
import { getNode, getPair, isMap, isSeq, nodeAtPath, type Node, type Pair } from '../../server/src/core/parse/nodes.js';
import { parseToml } from '../../server/src/core/parse/toml.js';
import { LIMITS } from '../../server/src/core/limits.js';
import type { Span } from '../../server/src/core/types.js';

const TEXT = [
  '# Codex',
  'model = "o3"',
  '',
  '[mcp_servers."my server"]',
  "command = 'npx'",
  'args = [',
  '  "-y",',
  '  "pkg@1.0.0", # pinned',
  ']',
  'env = { TOKEN = "x", nested.deep = 2 }',
  'tools.search.approval_mode = "approve"',
  '',
  '[mcp_servers.other]',
  'url = "https://example.com/mcp"',
  'enabled = false',
  'startup_timeout_sec = 2.5',
  'note = """',
  'two',
  'lines"""',
  '',
].join('\n');

const root = parseToml(TEXT).root;
const at = (span: Span) => TEXT.slice(span.start, span.end);
const node = (...path: string[]): Node => {
  const found = nodeAtPath(root, path);
  assert.ok(found, path.join('.'));
  return found;
};
const pair = (...path: string[]): Pair => {
  const found = getPair(nodeAtPath(root, path.slice(0, -1)), path[path.length - 1]!);
  assert.ok(found, path.join('.'));
  return found;
};

describe('TOML to the node tree', () => {
  test('scalars: value, style and span as written', () => {
    assert.deepEqual(node('model'), { type: 'scalar', value: 'o3', span: node('model').span, style: 'json' });
    assert.equal(at(node('model').span), '"o3"');
    const command = node('mcp_servers', 'my server', 'command');
    assert.equal(at(command.span), "'npx'");
    assert.equal(command.type === 'scalar' && command.style, 'single');
    assert.equal(at(node('mcp_servers', 'other', 'enabled').span), 'false');
    assert.equal(nodeAtPath(root, ['mcp_servers', 'other', 'startup_timeout_sec'])?.type, 'scalar');
    const timeout = node('mcp_servers', 'other', 'startup_timeout_sec');
    assert.equal(timeout.type === 'scalar' && timeout.value, 2.5);
    const note = node('mcp_servers', 'other', 'note');
    assert.equal(note.type === 'scalar' && note.value, 'two\nlines');
    assert.equal(note.type === 'scalar' && note.style, 'toml');
    assert.equal(at(note.span), '"""\ntwo\nlines"""');
  });

  test('a table header: quoted key segments, the table over its entries', () => {
    const server = pair('mcp_servers', 'my server');
    assert.equal(at(server.key.span), '"my server"');
    assert.equal(server.key.style, 'json');
    const table = node('mcp_servers', 'my server');
    assert.ok(at(table.span).startsWith('[mcp_servers."my server"]\ncommand'));
    assert.ok(at(table.span).endsWith('tools.search.approval_mode = "approve"'));
    assert.equal(at(pair('mcp_servers', 'my server').span), at(table.span).slice('[mcp_servers.'.length));
    // `mcp_servers`, named in both headers, covers both tables.
    const servers = node('mcp_servers');
    assert.ok(isMap(servers));
    assert.deepEqual(
      servers.pairs.map((p) => p.key.value),
      ['my server', 'other'],
    );
    assert.equal(at(pair('mcp_servers').key.span), 'mcp_servers');
    assert.ok(at(servers.span).endsWith('lines"""'));
  });

  test('a multi-line array: its brackets, each item its own text', () => {
    const args = node('mcp_servers', 'my server', 'args');
    assert.ok(isSeq(args) && args.flow);
    assert.equal(at(args.span), '[\n  "-y",\n  "pkg@1.0.0", # pinned\n]');
    assert.deepEqual(
      args.items.map((i) => at(i.span)),
      ['"-y"', '"pkg@1.0.0"'],
    );
  });

  test('an inline table and dotted keys', () => {
    const env = node('mcp_servers', 'my server', 'env');
    assert.ok(isMap(env) && env.flow);
    assert.equal(at(env.span), '{ TOKEN = "x", nested.deep = 2 }');
    assert.equal(at(pair('mcp_servers', 'my server', 'env', 'TOKEN').key.span), 'TOKEN');
    assert.equal(at(pair('mcp_servers', 'my server', 'env', 'nested').span), 'nested.deep = 2');
    assert.equal(at(node('mcp_servers', 'my server', 'env', 'nested', 'deep').span), '2');
    const tools = pair('mcp_servers', 'my server', 'tools');
    assert.equal(at(tools.key.span), 'tools');
    assert.equal(at(tools.span), 'tools.search.approval_mode = "approve"');
    assert.equal(at(pair('mcp_servers', 'my server', 'tools', 'search', 'approval_mode').key.span), 'approval_mode');
  });

  test('arrays of tables, and a table reopened through a dotted header', () => {
    const text = '[[a]]\nx = 1\n[[a]]\nx = 2\n[a.b]\ny = 3\n';
    const tree = parseToml(text).root;
    const list = getNode(tree, 'a');
    assert.ok(isSeq(list));
    assert.equal(list.items.length, 2);
    assert.equal(text.slice(list.items[0]!.span.start, list.items[0]!.span.end), '[[a]]\nx = 1');
    const second = list.items[1]!;
    assert.equal(text.slice(second.span.start, second.span.end), '[[a]]\nx = 2\n[a.b]\ny = 3');
    assert.equal(nodeAtPath(tree, ['a', 1, 'b', 'y'])?.span.start, text.indexOf('3'));
  });

  test('a BOM and astral characters: offsets stay UTF-16 offsets of the file', () => {
    const text = '\uFEFFk = "😀"\nv = 1\n';
    const tree = parseToml(text).root;
    const v = getNode(tree, 'v');
    assert.equal(text.slice(v!.span.start, v!.span.end), '1');
    const k = getNode(tree, 'k');
    assert.equal(text.slice(k!.span.start, k!.span.end), '"😀"');
  });

  test('a syntax error is one yaml/syntax problem where the parser stopped, and no tree', () => {
    const text = 'a = 1\nb = [1,\nc = \n';
    const parsed = parseToml(text);
    assert.equal(parsed.root, null);
    assert.equal(parsed.problems.length, 1);
    const [problem] = parsed.problems;
    assert.equal(problem!.rule, 'yaml/syntax');
    assert.equal(problem!.code, 'tomlError');
    assert.equal(problem!.span.end - problem!.span.start, 1);
    assert.ok(problem!.span.start >= text.indexOf('c ='));
    // An array never closed, the text ending inside it: on its opening bracket, as YAML and JSON say it.
    const unclosed = 'a = ["x",\n  "y" # the last "one"\n\n# end\n';
    const [atEnd] = parseToml(unclosed).problems;
    assert.deepEqual(atEnd!.span, { start: 4, end: 5 });
    assert.deepEqual(atEnd!.data, { text: 'this array is never closed' });
    // The innermost one open, after a trailing comma too; an inline table alike.
    const nested = 'a = [1, [2,\n 3,\n';
    assert.deepEqual(parseToml(nested).problems[0]!.span, { start: 8, end: 9 });
    const table = 'b = 1\na = [1, {x = 1';
    assert.deepEqual(parseToml(table).problems[0]!.span, { start: table.indexOf('{'), end: table.indexOf('{') + 1 });
    // Past the end with no bracket open (a value never given): on the last character written.
    const noValue = 'a = 1\nb =   # none\n';
    assert.deepEqual(parseToml(noValue).problems[0]!.span, { start: 8, end: 9 });
    // With a BOM, the offsets are the file's.
    const bom = '\uFEFFa = [1,\n';
    assert.deepEqual(parseToml(bom).problems[0]!.span, { start: 5, end: 6 });
    const duplicate = parseToml('a = 1\na = 2\n');
    assert.equal(duplicate.problems[0]?.span.start, 6);
  });

  test('nesting past what the parser can read: the document is declined, nothing thrown', () => {
    const parsed = parseToml(`a = ${'['.repeat(20000)}${']'.repeat(20000)}\n`);
    assert.equal(parsed.root, null);
    assert.deepEqual(
      parsed.problems.map((p) => `${p.rule}:${p.code}`),
      ['lens/declined:unreadable'],
    );
  });

  test('a header or a dotted key deeper than the nesting limit: declined there, the rest read', () => {
    const deep = Array.from({ length: LIMITS.nesting + 1 }, (_, i) => `k${i}`).join('.');
    const parsed = parseToml(`d.${deep} = 3\n[h.${deep}]\nx = 1\n[ok]\ny = 2\n`);
    assert.deepEqual(
      parsed.problems.map((p) => `${p.rule}:${p.code}`),
      ['lens/declined:tooDeep', 'lens/declined:tooDeep'],
    );
    assert.ok(nodeAtPath(parsed.root, ['ok', 'y']));
  });

  test('a .toml path parses as TOML, with its comments', () => {
    const file = parseFile('/p/.codex/config.toml', TEXT);
    assert.equal(file.language, 'toml');
    assert.equal(file.kind, 'mcp-servers');
    assert.deepEqual(
      file.comments.map((c) => c.text),
      ['# Codex', '# pinned'],
    );
    assert.equal(at(file.comments[1]!.span), '# pinned');
  });
});

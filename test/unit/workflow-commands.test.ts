// formatters/workflowCommands.ts: no line of our output reads as a GitHub Actions runner command,
// the way the runner reads lines (actions/runner ActionCommand.cs: `::` first after .NET's
// TrimStart, `##[` anywhere; lines end at LF, CR or CRLF), and each format keeps its meaning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardGithub, guardJson, guardText, guardXml } from '../../server/src/cli/formatters/workflowCommands.js';

/** What the runner would take for a command: a line starting with `::` once trimmed, or one holding `##[`. */
function commands(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/^[\s\u0085\u180e]+/, ''))
    .filter((line) => line.startsWith('::') || line.includes('##['));
}

const HOSTILE = [
  '::stop-commands::tok',
  '  ::group::g',
  'a\r::add-mask::x',
  'a\r\n\u00a0::notice::n',
  '\u0085::endgroup::',
  '\u2003\t::error::e',
  'text ##[error]v1 anywhere',
  'ok: :: not at the start',
].join('\n');

test('text: every command line and ##[ shown as an escape, nothing else changed', () => {
  const guarded = guardText(HOSTILE);
  assert.deepEqual(commands(guarded), []);
  assert.ok(guarded.startsWith('\\x3a:stop-commands::tok\n  \\x3a:group::g\na\r\\x3a:add-mask::x'), guarded);
  assert.ok(guarded.includes('text ##\\x5berror]v1 anywhere'));
  assert.ok(guarded.endsWith('ok: :: not at the start'));
  assert.equal(guardText('plain text: nothing to do\n'), 'plain text: nothing to do\n');
});

test('JSON: the same value once parsed', () => {
  const value = { path: '::notice::x ##[add-mask]y', list: ['##[group]'] };
  const guarded = guardJson(JSON.stringify(value, null, 2));
  assert.deepEqual(commands(guarded), []);
  assert.deepEqual(JSON.parse(guarded), value);
});

test('XML: character references, read back as the same text', () => {
  const guarded = guardXml(`<a>\n::notice::x\n ##[error]y</a>`);
  assert.deepEqual(commands(guarded), []);
  assert.equal(guarded, '<a>\n&#58;:notice::x\n ##&#91;error]y</a>');
});

test('github: our annotations stay as they are; any other line is guarded', () => {
  const ours = '::error file=a.yaml,line=1,col=1,endLine=1,endColumn=2,title=r/x::message ##[text]\n';
  assert.equal(guardGithub(ours), ours);
  assert.deepEqual(
    commands(guardGithub(`${ours}::group::forged\n`)).map((l) => l.slice(0, 8)),
    ['::error '],
  );
});

// The pieces of the formatters that the scenario runs do not reach: caret alignment with tabs and
// wide characters, clipping of long lines, the escaping of GitHub workflow commands, colour choice.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { colourWanted, palette } from '../../server/src/cli/colors.js';
import { escapeData, escapeProperty } from '../../server/src/cli/formatters/github.js';
import { escapeAttribute, escapeText } from '../../server/src/cli/formatters/junit.js';
import { utf8Position } from '../../server/src/cli/formatters/rdjson.js';
import { snippet } from '../../server/src/cli/formatters/stylish.js';
import { visible } from '../../server/src/cli/formatters/visible.js';
import { SourceText } from '../../server/src/core/text/source.js';

/** The snippet for the first occurrence of `target` in `text`. */
function underline(text: string, target: string, length = target.length): { shown: string; underline: string } {
  const source = new SourceText(text);
  const start = text.indexOf(target);
  assert.ok(start >= 0);
  return snippet(source, { start, end: start + length }, source.positionAt(start).line);
}

describe('stylish snippet', () => {
  test('the caret sits under the range and the tilde runs to its end', () => {
    assert.deepEqual(underline('a: 1\nkey: value\n', 'value'), { shown: 'key: value', underline: '     ^~~~~' });
  });

  test('tabs before the range are kept, so the caret lines up at any tab width', () => {
    assert.deepEqual(underline('x:\n\t"a":\t"b"\n', '"b"'), { shown: '\t"a":\t"b"', underline: '\t    \t^~~' });
  });

  test('an empty range still gets a caret', () => {
    const source = new SourceText('steps: [\n');
    assert.deepEqual(snippet(source, { start: 8, end: 8 }, 0), { shown: 'steps: [', underline: '        ^' });
  });

  test('only the first line of a multi-line range is underlined', () => {
    assert.deepEqual(underline('k: |\n  one\n  two\n', 'one', 'one\n  two'.length), {
      shown: '  one',
      underline: '  ^~~',
    });
  });

  test('wide characters take two columns', () => {
    assert.deepEqual(underline('名前: 値\n', '値'), { shown: '名前: 値', underline: '      ^~' });
  });

  test('control characters and bidi overrides are shown as escapes, and the caret counts their width', () => {
    assert.deepEqual(underline('k: a\x1b[2Jb\u202ec: x\n', 'b'), {
      shown: 'k: a\\x1b[2Jb\\u202ec: x',
      underline: '           ^',
    });
    assert.deepEqual(underline('k: \x07bell\n', '\x07bell'), { shown: 'k: \\x07bell', underline: '   ^~~~~~~~' });
    assert.equal(visible('line\nbreak\r\x00\x9b\u2066'), 'line\\nbreak\\r\\0\\x9b\\u2066');
    assert.equal(visible('tab\tand é 😀'), 'tab\tand é 😀', 'a tab and printable text stay');
  });

  test('a long line is clipped around the range', () => {
    const line = `${'a'.repeat(200)}TARGET${'b'.repeat(200)}`;
    const { shown, underline: marks } = underline(line, 'TARGET');
    assert.ok(shown.startsWith('…') && shown.endsWith('…'));
    assert.ok(shown.length <= 122);
    assert.equal(shown.indexOf('TARGET'), marks.indexOf('^'));
    assert.ok(marks.endsWith('^~~~~~'));
  });
});

describe('github workflow commands', () => {
  test('data escapes %, CR and LF', () => {
    assert.equal(escapeData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
  });
  test('other control characters and bidi overrides become visible escapes, before the % escapes', () => {
    assert.equal(escapeData('a\x1b[31m\x07\u202e%\tb'), 'a\\x1b[31m\\x07\\u202e%25\tb');
    assert.equal(escapeProperty('x\x1b,y'), 'x\\x1b%2Cy');
  });
  test('properties also escape : and ,', () => {
    assert.equal(escapeProperty('dir,with:odd%name\n'), 'dir%2Cwith%3Aodd%25name%0A');
  });
});

describe('colour', () => {
  test('the flag, then FORCE_COLOR, then NO_COLOR, then TERM=dumb, then whether it is a terminal', () => {
    assert.equal(colourWanted({ isTTY: true }, undefined, {}), true);
    assert.equal(colourWanted({ isTTY: false }, undefined, {}), false);
    assert.equal(colourWanted({ isTTY: true }, false, {}), false, '--no-color');
    assert.equal(colourWanted({ isTTY: false }, true, { NO_COLOR: '1' }), true, '--color wins over everything');
    assert.equal(colourWanted({ isTTY: true }, false, { FORCE_COLOR: '1' }), false, '--no-color wins over FORCE_COLOR');
    assert.equal(colourWanted({ isTTY: true }, undefined, { NO_COLOR: '1' }), false);
    assert.equal(colourWanted({ isTTY: true }, undefined, { NO_COLOR: '' }), true, 'an empty NO_COLOR does not count');
    assert.equal(
      colourWanted({ isTTY: false }, undefined, { FORCE_COLOR: '1', NO_COLOR: '1' }),
      true,
      'FORCE_COLOR wins over NO_COLOR',
    );
    assert.equal(colourWanted({ isTTY: false }, undefined, { FORCE_COLOR: '' }), true);
    assert.equal(colourWanted({ isTTY: true }, undefined, { FORCE_COLOR: '0' }), false);
    assert.equal(colourWanted({ isTTY: true }, undefined, { FORCE_COLOR: 'false' }), false);
    assert.equal(colourWanted({ isTTY: true }, undefined, { TERM: 'dumb' }), false);
  });
  test('the palette wraps text in ANSI codes only when enabled', () => {
    assert.equal(palette(false).severity('error', 'error'), 'error');
    assert.equal(palette(true).severity('error', 'error'), '\u001b[31merror\u001b[39m');
  });
});

describe('junit escaping', () => {
  test('markup is escaped; what XML 1.0 cannot hold is written \\uXXXX; pairs and line breaks stay', () => {
    assert.equal(escapeText('a<b>&c'), 'a&lt;b&gt;&amp;c');
    assert.equal(escapeText('\u0000\u0001\u001f\ufffe'), '\\u0000\\u0001\\u001f\\ufffe');
    assert.equal(escapeText('lone \ud800 and \udc00; pair 😀'), 'lone \\ud800 and \\udc00; pair 😀');
    assert.equal(escapeText('tab\tlf\ncr\r'), 'tab\tlf\ncr\r');
    assert.equal(escapeAttribute('say "x"\nnext\ttab'), 'say &quot;x&quot;&#10;next&#9;tab');
  });
});

describe('rdjson columns', () => {
  test('count UTF-8 bytes from 1', () => {
    const source = new SourceText('ab\né😀x\n');
    assert.deepEqual(utf8Position(source, 1), { line: 1, column: 2 });
    assert.deepEqual(utf8Position(source, 3), { line: 2, column: 1 });
    // é is 2 bytes, 😀 4 (and 2 UTF-16 code units): x starts at byte 7.
    assert.deepEqual(utf8Position(source, 3 + 1 + 2), { line: 2, column: 7 });
  });
});

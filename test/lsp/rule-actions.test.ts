// "Disable RULE for the entire file" as an edit (lsp/ruleActions.ts): the comment each language takes,
// the file's line breaks, after a BOM, joining the file's first file-wide suppression, none in
// JSONL or for a rule listed already; and the link of a diagnostic.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFile } from '../../server/src/core/parse/file.js';
import { applyEdits } from '../../server/src/core/text/edits.js';
import { fileSuppressionEdit } from '../../server/src/core/ide/fileSuppression.js';
import { ruleDocsHref, validCommandName } from '../../server/src/lsp/ruleActions.js';

const RULE = 'yaml/duplicate-key';

function disabled(path: string, text: string, rule = RULE): string | undefined {
  const edit = fileSuppressionEdit(parseFile(path, text), rule);
  return edit ? applyEdits(text, [edit]) : undefined;
}

describe('Disable RULE for the entire file', () => {
  test("a new comment as the first line, in the file's language and line breaks", () => {
    assert.equal(disabled('a.vmcp.yaml', 'name: x\n'), `# tool-lens-disable-file ${RULE} -- \nname: x\n`);
    assert.equal(
      disabled('a.vmcp.yaml', 'name: x\r\nb: 1\r\n'),
      `# tool-lens-disable-file ${RULE} -- \r\nname: x\r\nb: 1\r\n`,
    );
    assert.equal(
      disabled('servers.json', '{"mcpServers": {}}\n'),
      `// tool-lens-disable-file ${RULE} -- \n{"mcpServers": {}}\n`,
    );
    assert.equal(disabled('a.vmcp.yaml', '\uFEFFname: x\n'), `\uFEFF# tool-lens-disable-file ${RULE} -- \nname: x\n`);
  });

  test('the rule joins the first file-wide suppression; none when listed already, or in JSONL', () => {
    const text = '# header\n# tool-lens-disable-file template/not-upstream -- why\nname: x\n';
    assert.equal(
      disabled('a.vmcp.yaml', text),
      `# header\n# tool-lens-disable-file template/not-upstream, ${RULE} -- why\nname: x\n`,
    );
    assert.equal(disabled('a.vmcp.yaml', text, 'template/not-upstream'), undefined);
    assert.equal(disabled('log.calls.jsonl', '{"tool": "a.b", "arguments": {}}\n'), undefined);
    // A directive-looking string is no comment: a new comment is written.
    assert.equal(
      disabled('a.vmcp.yaml', 'note: "# tool-lens-disable-file x/y"\n'),
      `# tool-lens-disable-file ${RULE} -- \nnote: "# tool-lens-disable-file x/y"\n`,
    );
  });

  test('the link: the client command with the rule id, else the web page', () => {
    assert.equal(
      ruleDocsHref(RULE, { command: 'toolLens.openRuleDocs' }),
      `command:toolLens.openRuleDocs?${encodeURIComponent(`["${RULE}"]`)}`,
    );
    assert.equal(ruleDocsHref(RULE, { url: 'https://x.example/{rule}' }), `https://x.example/${RULE}`);
    assert.ok(validCommandName('toolLens.openRuleDocs'));
    for (const bad of ['', 'a b', 'x?y', 'javascript:alert(1)', 42]) assert.ok(!validCommandName(bad), String(bad));
  });
});

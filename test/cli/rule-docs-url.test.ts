// Where the CLI's reports link a rule's page: the project's pages by default, `ruleDocsUrl` of
// .toollens.yaml, `--rule-docs-url` over both (SARIF helpUri, rdjson code.url, `rules --format
// json` docs); the JSON report keeps its shape (it holds no link).
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DOCS_BASE_URL } from '../../server/src/core/rules/rule.js';
import { copyScenarios, runCli } from './harness.js';

interface Sarif {
  runs: { tool: { driver: { rules: { id: string; helpUri: string }[] } } }[];
}

const helpUri = (stdout: string, rule: string) =>
  (JSON.parse(stdout) as Sarif).runs[0]!.tool.driver.rules.find((r) => r.id === rule)!.helpUri;

describe('rule page links in the reports', () => {
  const dir = copyScenarios('one-error');
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('by default, the project pages', () => {
    const run = runCli(['check', 'one-error', '--format', 'sarif'], { cwd: dir });
    assert.equal(helpUri(run.stdout, 'yaml/duplicate-key'), `${DOCS_BASE_URL}yaml/duplicate-key.md`);
  });

  test('--rule-docs-url: {rule} is replaced, or the id and .md appended; rdjson and rules --format json too', () => {
    const sarif = runCli(
      ['check', 'one-error', '--format', 'sarif', '--rule-docs-url', 'https://lint.example/rules/{rule}?v=1'],
      { cwd: dir },
    );
    assert.equal(helpUri(sarif.stdout, 'yaml/duplicate-key'), 'https://lint.example/rules/yaml/duplicate-key?v=1');
    const rdjson = runCli(
      ['check', 'one-error', '--format', 'rdjson', '--rule-docs-url', 'https://lint.example/docs'],
      { cwd: dir },
    );
    const urls = (
      JSON.parse(rdjson.stdout) as { diagnostics: { code: { value: string; url: string } }[] }
    ).diagnostics.map((d) => d.code);
    assert.ok(urls.length > 0);
    for (const code of urls) assert.equal(code.url, `https://lint.example/docs/${code.value}.md`);
    const rules = runCli(['rules', '--format', 'json', '--rule-docs-url', 'https://lint.example/docs/'], { cwd: dir });
    const listed = (JSON.parse(rules.stdout) as { rules: { id: string; docs: string }[] }).rules;
    assert.ok(listed.every((r) => r.docs === `https://lint.example/docs/${r.id}.md`));
  });

  test('a --rule-docs-url that is no http(s) URL is a usage error', () => {
    const run = runCli(['check', 'one-error', '--rule-docs-url', 'javascript:alert(1)//{rule}'], { cwd: dir });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /--rule-docs-url must be an http or https URL, and "javascript:alert\(1\)\/\/\{rule\}" is a javascript URL/,
    );
    const gateway = runCli(['gateway', 'tools', 'one-error', '--rule-docs-url', 'https://x.example/'], { cwd: dir });
    assert.equal(gateway.code, 2);
    assert.match(gateway.stderr, /--rule-docs-url does not apply to `tool-lens gateway tools`/);
  });

  test('ruleDocsUrl of .toollens.yaml, which --rule-docs-url overrides; the JSON report is unchanged', () => {
    const before = runCli(['check', 'one-error', '--format', 'json'], { cwd: dir });
    appendFileSync(join(dir, '.toollens.yaml'), '\nruleDocsUrl: https://wiki.example/tool-lens/{rule}\n');
    const configured = runCli(['check', 'one-error', '--format', 'sarif'], { cwd: dir });
    assert.equal(helpUri(configured.stdout, 'yaml/duplicate-key'), 'https://wiki.example/tool-lens/yaml/duplicate-key');
    const flagged = runCli(
      ['check', 'one-error', '--format', 'sarif', '--rule-docs-url', 'https://other.example/{rule}'],
      { cwd: dir },
    );
    assert.equal(helpUri(flagged.stdout, 'yaml/duplicate-key'), 'https://other.example/yaml/duplicate-key');
    assert.equal(runCli(['check', 'one-error', '--format', 'json'], { cwd: dir }).stdout, before.stdout);
  });

  test('a ruleDocsUrl that is no http(s) URL is a problem of the configuration', () => {
    const config = join(dir, '.toollens.yaml');
    const text = readFileSync(config, 'utf8').replace(/ruleDocsUrl: .*/, 'ruleDocsUrl: file:///etc/{rule}');
    const bad = copyScenarios('one-error');
    try {
      appendFileSync(join(bad, '.toollens.yaml'), `\n${text.split('\n').find((l) => l.startsWith('ruleDocsUrl'))!}\n`);
      const run = runCli(['check', 'one-error'], { cwd: bad });
      assert.equal(run.code, 2);
      assert.match(
        run.stderr,
        /`ruleDocsUrl` must be an http or https URL, and "file:\/\/\/etc\/\{rule\}" is a file URL; .* \(schema\/invalid-value\)/,
      );
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});

// What the VS Code extension hands to the language server (client/src/documents.ts): every YAML and
// JSON file, and of TOML only Codex's `.codex/config.toml`, the file the CLI's folder walk checks.
// The language client's selector, the language status items and the activation events agree.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CODEX_CONFIG_GLOB, DOCUMENT_SELECTOR, SERVED_LANGUAGES, servedToServer } from '../../client/src/documents.js';
import { CHECKED_TOML_GLOB, isCheckedPath } from '../../server/src/node/discovery.js';

const ROOT = join(__dirname, '..', '..');
const doc = (path: string, languageId: string, scheme = 'file') => ({ uri: { scheme, path }, languageId });

test("Codex's configuration goes to the server whatever its language, and no other TOML file", () => {
  for (const languageId of ['toml', 'plaintext'])
    for (const path of ['/repo/.codex/config.toml', '/repo/tools/.codex/config.toml'])
      assert.ok(servedToServer(doc(path, languageId)), `${path} as ${languageId}`);
  for (const path of ['/repo/Cargo.toml', '/repo/pyproject.toml', '/repo/config.toml', '/repo/.codex/other.toml'])
    assert.ok(!servedToServer(doc(path, 'toml')), path);
  assert.ok(!servedToServer(doc('/repo/.codex/config.toml', 'toml', 'untitled')), 'not a file on disk');
  for (const languageId of SERVED_LANGUAGES) assert.ok(servedToServer(doc('/repo/a.x', languageId)), languageId);
});

test('the selector, the folder walk and the activation events name the same TOML file', () => {
  assert.equal(CODEX_CONFIG_GLOB, CHECKED_TOML_GLOB);
  assert.deepEqual(
    DOCUMENT_SELECTOR.filter((f) => 'pattern' in f),
    [{ scheme: 'file', pattern: CODEX_CONFIG_GLOB }],
  );
  assert.ok(!DOCUMENT_SELECTOR.some((f) => 'language' in f && f.language === 'toml'), 'no language-wide TOML filter');
  assert.ok(isCheckedPath('tools/.codex/config.toml') && !isCheckedPath('Cargo.toml'));
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { activationEvents: string[] };
  assert.ok(manifest.activationEvents.includes(`workspaceContains:${CODEX_CONFIG_GLOB}`));
  for (const language of SERVED_LANGUAGES) assert.ok(manifest.activationEvents.includes(`onLanguage:${language}`));
  assert.ok(!manifest.activationEvents.includes('onLanguage:toml'), 'TOML files in general do not activate it');
});

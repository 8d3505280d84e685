// Text as editors count it (docs/behaviour.md#text-as-editors-count-it): a file's line breaks
// (`\n`, `\r\n` or a lone `\r`) and a UTF-8 BOM change nothing but the offsets. Every fixture,
// clean-corpus and example file is checked as written (with `\n`) and again with `\r\n`, with lone
// CRs, and with a BOM before each: the findings are the same, at the same lines and columns, with
// the same messages and fixes, and applying every safe fix gives the same file, in the file's own
// line breaks and with its BOM kept. TOML (Codex's config) has no lone-CR line break.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { applyEdits, chooseCompatibleFixes } from '../../server/src/core/text/edits.js';
import { SourceText } from '../../server/src/core/text/source.js';
import type { Finding, Fix } from '../../server/src/core/types.js';
import { fixtureFolders, loadRecording } from '../helpers/fixtures.js';

const ROOT = join(__dirname, '..', '..');

interface Variant {
  name: string;
  eol: string;
  bom: boolean;
}

const VARIANTS: Variant[] = [
  { name: 'CRLF', eol: '\r\n', bom: false },
  { name: 'lone CR', eol: '\r', bom: false },
  { name: 'BOM', eol: '\n', bom: true },
  { name: 'BOM and CRLF', eol: '\r\n', bom: true },
  { name: 'BOM and lone CR', eol: '\r', bom: true },
];

const render = (text: string, variant: Variant) => (variant.bom ? '\uFEFF' : '') + text.replace(/\n/g, variant.eol);

/** A finding as a user sees it: lines and columns (never offsets), words, and fixes with their edits' places. */
function seen(source: SourceText, finding: Finding, eol: string): unknown {
  const at = (offset: number) => {
    const p = source.positionAt(offset);
    return `${p.line + 1}:${p.character + 1}`;
  };
  const place = (span: { start: number; end: number }) => `${at(span.start)}-${at(span.end)}`;
  // The variant's own line break in a fix's text reads as `\n`, so the fixes compare across variants.
  const lf = (text: string) => text.split(eol).join('\n');
  return {
    rule: finding.rule,
    severity: finding.severity,
    message: finding.message,
    at: place(finding.span),
    related: (finding.related ?? []).map((r) => ({
      file: r.file,
      message: r.message,
      at: r.file === undefined ? place(r.span) : undefined,
    })),
    fixes: (finding.fixes ?? []).map((fix: Fix) => ({
      title: fix.title,
      safe: fix.safe,
      edits: fix.edits.map((e) => ({ at: place(e.span), newText: lf(e.newText) })),
    })),
  };
}

function safeFixed(text: string, findings: readonly Finding[]): string {
  const fixes = findings.map((f) => f.fixes?.find((fix) => fix.safe)).filter((fix): fix is Fix => fix !== undefined);
  return applyEdits(
    text,
    chooseCompatibleFixes(fixes).chosen.flatMap((fix) => fix.edits),
  );
}

const folders = [
  ...fixtureFolders().map(({ ruleId, dir }) => ({ name: `fixtures ${ruleId}`, dir })),
  { name: 'corpus/clean', dir: join(ROOT, 'test', 'corpus', 'clean') },
  { name: 'examples', dir: join(ROOT, 'examples') },
].filter(({ dir }) => existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).length > 0);

describe('a file reads the same with any line break and with a BOM', () => {
  for (const { name, dir } of folders) {
    test(name, () => {
      const logged: string[] = [];
      const { workspace, files } = loadRecording({ paths: ['.'], cwd: dir }, logged);
      let compared = 0;
      for (const file of files) {
        const text = file.source.text;
        // Written with `\n` only and no BOM: the one the variants are made from.
        if (text.includes('\r') || text.startsWith('\uFEFF')) continue;
        const base = checkFile(file, workspace).findings;
        const baseSeen = base.map((f) => seen(file.source, f, '\n'));
        const baseFixed = safeFixed(text, base);
        for (const variant of VARIANTS) {
          // TOML's line break is LF or CRLF only (toml.io, 1.0.0): with lone CRs a TOML file is no
          // TOML, and the parser's refusal is the finding Codex would give as well.
          if (file.language === 'toml' && variant.eol === '\r') continue;
          const variantText = render(text, variant);
          const parsed = workspace.parse(file.path, variantText);
          assert.equal(parsed.kind, file.kind, `${file.path} with ${variant.name}: the kind`);
          const findings = checkFile(parsed, workspace).findings;
          assert.deepEqual(
            findings.map((f) => seen(parsed.source, f, variant.eol)),
            baseSeen,
            `${file.path} with ${variant.name}: the findings`,
          );
          const fixed = safeFixed(variantText, findings);
          assert.equal(
            fixed,
            render(baseFixed, variant),
            `${file.path} with ${variant.name}: the safe fixes, in the file's line breaks and with its BOM`,
          );
          compared++;
        }
      }
      assert.ok(compared > 0 || files.length === 0, `${name}: no file written with \\n only`);
      assert.deepEqual(logged, []);
    });
  }
});

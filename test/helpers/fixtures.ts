// Marker fixtures: `test/fixtures/<rule-id>/` is a small workspace. Every file in it is checked;
// a line that should get a finding carries `# want <rule-id> ["message substring"]` (`// want` in
// JSON). JSONL files, which cannot hold comments, list their wants in `<case>.wants` as
// `LINE RULE ["substring"]`. A `<case>.fixed.<ext>` beside a case is the text after applying the
// first fix of each finding of the folder's rule.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkFile, type FileReport } from '../../server/src/core/engine.js';
import { loadWorkspace } from '../../server/src/node/loader.js';

export const FIXTURES_ROOT = join(__dirname, '..', 'fixtures');

export interface Want {
  line: number; // 1-based
  rule: string;
  substring?: string;
}

export interface FixtureCase {
  ruleId: string;
  dir: string;
  file: string; // absolute
  fixed?: string; // absolute path of the expected fixed text
}

/** Rule folders: those holding files directly (rule ids are `family/name`). */
export function fixtureFolders(root = FIXTURES_ROOT): { ruleId: string; dir: string }[] {
  const out: { ruleId: string; dir: string }[] = [];
  if (!existsSync(root)) return out;
  for (const family of readdirSync(root).sort()) {
    const familyDir = join(root, family);
    if (!statSync(familyDir).isDirectory()) continue;
    for (const name of readdirSync(familyDir).sort()) {
      const dir = join(familyDir, name);
      if (statSync(dir).isDirectory()) out.push({ ruleId: `${family}/${name}`, dir });
    }
  }
  return out;
}

const WANT = /(?:#|\/\/)\s*want\s+([a-z]+\/[a-z-]+)(?:\s+"([^"]*)")?/g;

export function parseWants(text: string): Want[] {
  const wants: Want[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    for (const match of line.matchAll(WANT)) wants.push({ line: index + 1, rule: match[1]!, substring: match[2] });
  });
  return wants;
}

export function parseWantsFile(text: string): Want[] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const match = /^(\d+)\s+(\S+)(?:\s+"([^"]*)")?/.exec(l.trim());
      if (!match) throw new Error(`bad .wants line: ${l}`);
      return { line: Number(match[1]), rule: match[2]!, substring: match[3] };
    });
}

/** Checks every file of a fixture folder as one workspace. */
export function checkFolder(dir: string): FileReport[] {
  const loaded = loadWorkspace({ paths: ['.'], cwd: dir });
  return loaded.files.filter((f) => !/\.fixed\.[a-z]+$/.test(f.path)).map((file) => checkFile(file, loaded.workspace));
}

export function wantsFor(dir: string, path: string, text: string): Want[] {
  const sidecar = join(dir, path.replace(/\.[a-z]+$/, '.wants'));
  return existsSync(sidecar) ? parseWantsFile(readFileSync(sidecar, 'utf8')) : parseWants(text);
}

export function describeFindings(report: FileReport): string {
  return report.findings
    .map((f) => {
      const pos = report.file.source.positionAt(f.span.start);
      return `  ${pos.line + 1}:${pos.character + 1} ${f.rule} ${f.severity} ${f.message}`;
    })
    .join('\n');
}

export function relativeToFixtures(path: string): string {
  return relative(FIXTURES_ROOT, path);
}

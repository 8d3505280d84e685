// Runs the BUILT command (dist/cli.js) as a child process, the way users and CI run it. The bundle
// is rebuilt first when it is missing or older than a source file (`npm test` builds anyway).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
export const SCENARIOS = join(__dirname, 'scenarios');

function newestSource(): number {
  let newest = 0;
  const visit = (path: string): void => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of ['server/src', 'client/src', 'scripts/build.mjs', 'package.json']) visit(join(ROOT, path));
  return newest;
}

let built = false;

export function ensureBuilt(): void {
  if (built) return;
  if (!existsSync(CLI) || statSync(CLI).mtimeMs < newestSource()) {
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(result.status, 0, `build failed:\n${result.stdout}${result.stderr}`);
  }
  built = true;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli.js ARGS` in `cwd` (default: the scenarios folder), `input` on its stdin. */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): CliRun {
  ensureBuilt();
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? SCENARIOS,
    env,
    encoding: 'utf8',
    input: options.input ?? '',
  });
  assert.equal(result.error, undefined, String(result.error));
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A temporary copy of scenario folders (and the scenarios' own .toollens.yaml). */
export function copyScenarios(...names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-cli-'));
  cpSync(join(SCENARIOS, '.toollens.yaml'), join(dir, '.toollens.yaml'));
  for (const name of names) cpSync(join(SCENARIOS, name), join(dir, name), { recursive: true });
  return dir;
}

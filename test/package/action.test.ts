// The GitHub Action (action.yml) run as the runner runs a composite action: the file is parsed with
// the yaml library, each step's `${{ }}` expressions are replaced the way GitHub evaluates them for
// the given inputs (inputs with their defaults, github.action_path, earlier steps' outputs), and
// each `run:` is executed with `bash --noprofile --norc -eo pipefail` (GitHub's `shell: bash`) in
// $GITHUB_WORKSPACE, with the variables the runner sets (GITHUB_WORKSPACE, GITHUB_ACTION_PATH,
// GITHUB_STEP_SUMMARY, GITHUB_OUTPUT per step, RUNNER_TEMP...). Composite actions get no INPUT_*
// variables, so none are set. The test checks the log's annotations, the step summary, the SARIF
// file and the exit code; the logic under test is only the action's own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { ensureBuilt, ROOT } from '../cli/harness.js';

interface Step {
  name: string;
  id?: string;
  shell?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

interface Run {
  /** The exit code of the first failing step, or 0. */
  status: number;
  log: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
}

let tmp = '';
before(() => {
  ensureBuilt();
  tmp = mkdtempSync(join(tmpdir(), 'tool-lens-action-'));
});
after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The lines `name=value` (and `name<<DELIMITER` blocks) a step appended to its $GITHUB_OUTPUT. */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  if (!existsSync(file)) return outputs;
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const body: string[] = [];
      while (++i < lines.length && lines[i] !== heredoc[2]) body.push(lines[i]!);
      outputs[heredoc[1]!] = body.join('\n');
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

/** Runs the action's steps in `workspace` with `inputs`, as the runner would. */
function runAction(workspace: string, inputs: Record<string, string>, name: string): Run {
  assert.equal(ACTION.runs.using, 'composite');
  for (const key of Object.keys(inputs)) assert.ok(key in ACTION.inputs, `action.yml has no input ${key}`);
  const home = join(tmp, name);
  mkdirSync(home, { recursive: true });
  const summaryFile = join(home, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const steps: Record<string, Record<string, string>> = {};
  const value = (expression: string): string => {
    const inputMatch = /^inputs\.([A-Za-z0-9_-]+)$/.exec(expression);
    if (inputMatch) {
      const input = ACTION.inputs[inputMatch[1]!];
      assert.ok(input, `action.yml uses undeclared input ${inputMatch[1]}`);
      return inputs[inputMatch[1]!] ?? input.default ?? '';
    }
    if (expression === 'github.action_path') return ROOT;
    if (expression === 'github.workspace') return workspace;
    const stepMatch = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(expression);
    if (stepMatch) return steps[stepMatch[1]!]?.[stepMatch[2]!] ?? '';
    throw new Error(
      `the test does not evaluate the expression \${{ ${expression} }}; add it here if the action needs it`,
    );
  };
  const substitute = (text: string): string =>
    text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => value(expression));

  let log = '';
  let stderr = '';
  let status = 0;
  for (const [index, step] of ACTION.runs.steps.entries()) {
    assert.equal(step.uses, undefined, `step ${step.name}: only run steps are supported here`);
    assert.equal(step.if, undefined, `step ${step.name}: conditions are not evaluated here`);
    assert.equal(step.shell, 'bash', `step ${step.name} runs in bash`);
    assert.ok(step.run, `step ${step.name} has a run script`);
    const outputFile = join(home, `output-${index}`);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ENV: join(home, `env-${index}`),
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/agents',
      GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
      RUNNER_TEMP: home,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v))])),
    };
    const script = join(home, `step-${index}.sh`);
    writeFileSync(script, substitute(step.run));
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: step['working-directory'] ? join(workspace, substitute(step['working-directory'])) : workspace,
      env,
      encoding: 'utf8',
    });
    log += result.stdout;
    stderr += result.stderr;
    if (step.id) steps[step.id] = readOutputs(outputFile);
    if (result.status !== 0) {
      status = result.status ?? 1;
      break;
    }
  }
  const outputs = Object.fromEntries(
    Object.entries(ACTION.outputs).map(([key, output]) => [key, substitute(output.value)]),
  );
  return { status, log, stderr, summary: readFileSync(summaryFile, 'utf8'), outputs };
}

function workspaceWith(name: string, source: string): string {
  const workspace = join(tmp, `${name}-repo`);
  cpSync(source, workspace, { recursive: true });
  return workspace;
}

test('by default the action annotates every finding, writes the summary table and fails on errors', () => {
  const workspace = workspaceWith('defaults', join(ROOT, 'examples'));
  const run = runAction(workspace, {}, 'defaults');
  assert.equal(run.status, 1, run.stderr);
  assert.equal(run.outputs['exit-code'], '1');
  const annotations = run.log.split('\n').filter((l) => l.startsWith('::error ') || l.startsWith('::warning '));
  assert.equal(annotations.length, 8, run.log);
  assert.ok(
    annotations.some(
      (l) =>
        l.startsWith('::error file=gateways/docs-bot.vmcp.yaml,line=95,col=7,') &&
        l.includes('title=annotations/contradiction::'),
    ),
    run.log,
  );
  assert.equal(annotations.filter((l) => l.startsWith('::warning ')).length, 3);

  const lines = run.summary.split('\n');
  assert.equal(lines[0], '## Tool Lens');
  assert.ok(lines.includes('5 errors, 3 warnings (10 files checked).'), run.summary);
  const header = lines.indexOf('| Severity | Location | Rule | Finding |');
  assert.ok(header > 0, run.summary);
  assert.equal(lines[header + 1], '| --- | --- | --- | --- |');
  const rows = lines.slice(header + 2).filter((l) => l.startsWith('| '));
  assert.equal(rows.length, 8);
  assert.equal(rows.filter((r) => r.startsWith('| error |')).length, 5);
  const contradiction = rows.find((r) => r.includes('annotations/contradiction'))!;
  assert.ok(
    contradiction.startsWith(
      '| error | [`gateways/docs-bot.vmcp.yaml:95:7`](https://github.com/acme/agents/blob/0123456789abcdef0123456789abcdef01234567/gateways/docs-bot.vmcp.yaml#L95) | [`annotations/contradiction`](https://github.com/tool-lens/tool-lens/blob/main/docs/rules/annotations/contradiction.md) | readOnlyHint: true is safer than the steps: remove the hint or set it to false. |',
    ),
    contradiction,
  );
  // A row holds the finding's one sentence (its why is in the annotation); every row has exactly its
  // four cells: a `|` inside a message would have been escaped.
  for (const row of rows) assert.equal(row.split(/(?<!\\)\|/).length, 6, row);
});

test('paths, fail-on and a SARIF file for code scanning', () => {
  const workspace = workspaceWith('sarif', join(ROOT, 'examples'));
  // Two paths on two lines; warnings fail the step; the SARIF file in a folder that does not exist yet.
  const run = runAction(
    workspace,
    { paths: 'gateways/docs-bot.vmcp.yaml\ncatalogs', 'fail-on': 'warning', 'sarif-file': 'results/tool-lens.sarif' },
    'sarif',
  );
  assert.equal(run.status, 1, run.stderr);
  const annotations = run.log.split('\n').filter((l) => l.startsWith('::'));
  assert.deepEqual(
    annotations.map((l) => /title=([^:]+)::/.exec(l)?.[1]),
    ['annotations/contradiction', 'template/not-upstream', 'args/unknown'],
  );
  assert.ok(run.summary.includes('1 error, 2 warnings'), run.summary);
  const sarif = JSON.parse(readFileSync(join(workspace, 'results', 'tool-lens.sarif'), 'utf8')) as {
    version: string;
    runs: { results: { ruleId: string }[] }[];
  };
  assert.equal(sarif.version, '2.1.0');
  assert.deepEqual(sarif.runs[0]!.results.map((r) => r.ruleId).sort(), [
    'annotations/contradiction',
    'args/unknown',
    'template/not-upstream',
  ]);
});

test('a clean repository passes, and its summary says so', () => {
  const workspace = workspaceWith('clean', join(ROOT, 'test', 'corpus', 'clean'));
  const run = runAction(workspace, {}, 'clean');
  assert.equal(run.status, 0, `${run.log}\n${run.stderr}`);
  assert.equal(run.outputs['exit-code'], '0');
  assert.equal(run.log.split('\n').filter((l) => /^::(error|warning) /.test(l)).length, 0);
  assert.match(run.summary, /^## Tool Lens\n\nNo findings \(\d+ files checked\)\.\n$/);
});

test('a usage error fails the step with exit 2 and leaves no summary', () => {
  const workspace = workspaceWith('usage', join(ROOT, 'examples'));
  const run = runAction(workspace, { format: 'xml' }, 'usage');
  assert.equal(run.status, 2);
  assert.equal(run.outputs['exit-code'], '2');
  assert.match(run.stderr, /format/);
  assert.equal(run.summary, '');
});

// Issue 24, item 7: what a checked repository names (files, step ids) cannot take over the log or the summary.
test('the summary shows a hostile step id as text: no heading, image, link or code span of its own', () => {
  const workspace = workspaceWith('summary-injection', join(ROOT, 'examples'));
  const file = join(workspace, 'gateways', 'docs-bot.vmcp.yaml');
  const hostile = 'w`x`\r# Injected heading\r![img](https://evil.example/i.png) [link](https://evil.example/) <b>&amp;';
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('      - id: write\n', `      - id: ${JSON.stringify(hostile)}\n`),
  );
  const run = runAction(workspace, {}, 'summary-injection');
  assert.equal(run.status, 1, run.stderr);
  assert.ok(run.summary.includes('Injected heading'), run.summary);
  // Markdown ends a line at LF, CR or CRLF.
  const lines = run.summary.split(/\r\n|\r|\n/);
  assert.deepEqual(
    lines.filter((l) => l.startsWith('#')),
    ['## Tool Lens'],
  );
  assert.ok(!run.summary.includes('\r'));
  assert.doesNotMatch(run.summary, /!\[|\]\(https:\/\/evil|<b>|(?<!\\)&amp;/);
  const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| Severity') && !l.startsWith('| ---'));
  for (const row of rows) assert.equal(row.split(/(?<!\\)\|/).length, 6, row);
});

test('a changed file named --help is checked, not taken for the option', () => {
  const workspace = workspaceWith('dash-path', join(ROOT, 'test', 'corpus', 'clean'));
  cpSync(join(ROOT, 'test', 'cli', 'scenarios', 'one-error', 'gateway.vmcp.yaml'), join(workspace, '--help'));
  const run = runAction(workspace, { paths: '--help' }, 'dash-path');
  assert.doesNotMatch(run.log, /Usage:/);
  assert.equal(run.status, 1, `${run.log}\n${run.stderr}`);
  assert.ok(
    run.log.split('\n').some((l) => l.startsWith('::error file=--help,')),
    run.log,
  );
});

test('format stylish: a file named like a workflow command prints no line the runner would run', () => {
  const workspace = workspaceWith('stylish-commands', join(ROOT, 'test', 'corpus', 'clean'));
  const gateway = readFileSync(join(ROOT, 'test', 'cli', 'scenarios', 'one-error', 'gateway.vmcp.yaml'), 'utf8');
  for (const name of ['::stop-commands::tok.vmcp.yaml', '::group::g.vmcp.yaml', 'x##[add-mask]y.vmcp.yaml'])
    writeFileSync(join(workspace, name), gateway);
  const run = runAction(workspace, { format: 'stylish' }, 'stylish-commands');
  assert.equal(run.status, 1, run.stderr);
  for (const out of [run.log, run.stderr]) {
    const lines = out.split(/\r\n|\r|\n/).map((l) => l.replace(/^[\s\u0085\u180e]+/, ''));
    assert.deepEqual(
      lines.filter((l) => l.startsWith('::') && !l.startsWith('::group::Build') && l !== '::endgroup::'),
      [],
      out,
    );
    assert.ok(!lines.some((l) => l.includes('##[')), out);
  }
  assert.ok(run.log.includes('\\x3a:stop-commands::tok.vmcp.yaml:'), run.log);
});

test('issue 24: a workflow padded past fileBytes fails the default gate (it was not checked)', () => {
  const workspace = workspaceWith('declined-whole', join(ROOT, 'test', 'corpus', 'clean'));
  const gateway = readFileSync(join(ROOT, 'test', 'cli', 'scenarios', 'one-error', 'gateway.vmcp.yaml'), 'utf8');
  writeFileSync(join(workspace, 'padded.vmcp.yaml'), `${gateway}${`# ${'x'.repeat(98)}\n`.repeat(90_000)}`);
  const run = runAction(workspace, {}, 'declined-whole');
  assert.equal(run.status, 1, `${run.log}\n${run.stderr}`);
  assert.ok(
    run.log
      .split('\n')
      .some((l) => l.startsWith('::error file=padded.vmcp.yaml,') && l.includes('title=lens/declined::')),
    run.log,
  );
});

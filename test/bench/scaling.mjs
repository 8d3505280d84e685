// How `tool-lens check` scales with the size of one file, and what hostile files cost.
//
// Scaling: one gateway file of a given shape at two sizes, each checked and, in the same run, parsed
// bare (baseline.mjs). A checker whose cost grows no faster than the file keeps the check/parse
// ratio flat from the smaller size to the larger. Shapes: a long `dependsOn` chain whose steps
// read the step before through a template, the same chain closed into a cycle, a fan-in (one step
// that depends on every other), and a wide gateway (many small composite tools).
//
// Hostile: small files built to make a checker hang or blow up. Each runs once with a time limit;
// what it cost (time, peak memory) is the figure, and "did not finish" is a finding of its own.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { mb, median, ratio, table } from './stats.mjs';

const HEADER =
  'name: scaling\ngroupRef: bench\naggregation:\n  conflictResolution: prefix\nbackends:\n  - name: fs\n    url: http://fs:8080/mcp\n';

function step(i, dependsOn) {
  const deps = dependsOn.length ? `\n        dependsOn: [${dependsOn.map((d) => `s${d}`).join(', ')}]` : '';
  const read = i > 0 ? `"{{.steps.s${i - 1}.output.text}}"` : '"start"';
  return `      - id: s${i}\n        tool: fs.write_file${deps}\n        arguments:\n          path: out/${i}.txt\n          content: ${read}\n`;
}

/** A gateway of about `lines` lines in the given shape. */
function gateway(shape, lines) {
  const perStep = 6;
  if (shape === 'wide') {
    let text = `${HEADER}compositeTools:\n`;
    let i = 0;
    while (text.split('\n').length < lines) {
      text += `  - name: tool_${i}\n    description: Tool ${i}.\n    steps:\n${step(0, [])}${step(1, [0])}`;
      i++;
    }
    return text;
  }
  const steps = Math.max(3, Math.floor(lines / perStep));
  let body = '';
  for (let i = 0; i < steps; i++) {
    let deps = i > 0 ? [i - 1] : [];
    if (shape === 'cycle' && i === 0) deps = [steps - 1];
    if (shape === 'fan-in' && i === steps - 1) deps = Array.from({ length: steps - 1 }, (_, j) => j);
    body += step(i, deps);
  }
  return `${HEADER}compositeTools:\n  - name: long\n    description: A long workflow.\n    steps:\n${body}`;
}

/** Small files made to hang or exhaust a checker. */
const HOSTILE = {
  'alias bomb (9,000 aliases of a 5,000-item anchor)': () => ({
    'bomb.vmcp.yaml':
      `name: bomb\ngroupRef: b\naggregation: {conflictResolution: prefix}\nanchor: &a [${Array.from({ length: 5000 }, (_, i) => i).join(',')}]\n` +
      `refs: [${Array.from({ length: 9000 }, () => '*a').join(',')}]\ncompositeTools: []\n`,
  }),
  'JSON gateway with a 6,000-deep array': () => ({
    'deep.vmcp.json': `{"name": "deep", "groupRef": "d", "aggregation": {"conflictResolution": "prefix"}, "x": ${'['.repeat(6000)}${']'.repeat(6000)}, "compositeTools": []}\n`,
  }),
  'catalog pattern ^(a+)+$ against forty a and a !': () => ({
    'evil.catalog.yaml':
      'catalog: 1\nservers:\n  - name: evil\n    tools:\n      - name: match\n        inputSchema:\n          type: object\n          properties:\n            text: {type: string, pattern: "^(a+)+$"}\n',
    'calls.calls.yaml': `server: evil\ncalls:\n  - tool: match\n    input: {text: "${'a'.repeat(40)}!"}\n`,
  }),
  'config glob *a*a*a*a*a*a*a*a*a*a*a*a*a*a*b against a long name': () => ({
    '.toollens.yaml': 'overrides:\n  - files: ["*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"]\n    rules: {tool/unknown: off}\n',
    [`${'a'.repeat(60)}.calls.yaml`]: 'calls:\n  - tool: x\n',
  }),
  '20 misspelt tools against a 20,000-tool catalog': () => ({
    'big.catalog.yaml':
      'catalog: 1\nservers:\n  - name: big\n    tools:\n' +
      Array.from({ length: 20000 }, (_, i) => `      - {name: tool_number_${i}, inputSchema: {type: object}}\n`).join(
        '',
      ),
    'calls.calls.yaml': `server: big\ncalls:\n${Array.from({ length: 20 }, (_, i) => `  - tool: tool_nunber_${i * 997}\n`).join('')}`,
  }),
  'a gateway mapping of 20,000 unknown keys': () => ({
    'wide.vmcp.yaml': `compositeTools: []\n${Array.from({ length: 20000 }, (_, i) => `key_${i}: v\n`).join('')}`,
  }),
};

const SCALING_SHAPES = ['chain', 'cycle', 'fan-in', 'wide'];

function writeFiles(dir, files) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

export function scalingSection({ out, options, measure, cli, baseline }) {
  const sizes = options.scalingLines ?? [50_000, 200_000];
  const runs = options.scalingRuns ?? 3;
  console.log(
    `\n## Scaling with file size, and hostile files\none gateway file per shape at ${sizes.map((s) => s.toLocaleString('en')).join(' and ')} lines; ${runs} paired runs each after a warm-up\n`,
  );
  const rows = [['shape', 'lines', 'check median', 'parse median', 'check/parse', 'peak RSS']];
  const scaling = {};
  for (const shape of SCALING_SHAPES) {
    scaling[shape] = [];
    for (const lines of sizes) {
      const dir = join(out, 'scaling', `${shape}-${lines}`);
      writeFiles(dir, { 'gateway.vmcp.yaml': gateway(shape, lines) });
      const target = relative(out, dir);
      const checkArgs = [cli, 'check', target, '--format', 'json'];
      const parseArgs = [baseline, target];
      measure(checkArgs, { okCodes: [0, 1] });
      measure(parseArgs);
      const pairs = [];
      for (let run = 0; run < runs; run++) pairs.push([measure(checkArgs, { okCodes: [0, 1] }), measure(parseArgs)]);
      const check = median(pairs.map(([c]) => c.ms));
      const parse = median(pairs.map(([, p]) => p.ms));
      const pairRatio = ratio(median(pairs.map(([c, p]) => c.ms / p.ms)));
      const rss = Math.max(...pairs.map(([c]) => c.rssKb));
      scaling[shape].push({
        lines,
        checkMs: Math.round(check),
        parseMs: Math.round(parse),
        ratio: pairRatio,
        peakRssKb: rss,
      });
      rows.push([
        shape,
        lines.toLocaleString('en'),
        `${check.toFixed(0)} ms`,
        `${parse.toFixed(0)} ms`,
        `${pairRatio.toFixed(2)}x`,
        mb(rss),
      ]);
    }
  }
  console.log(table(rows));
  const growth = Object.fromEntries(
    Object.entries(scaling).map(([shape, [small, large]]) => [
      shape,
      large && small ? ratio(large.ratio / small.ratio) : undefined,
    ]),
  );
  console.log(
    `\ngrowth of check/parse from the smaller size to the larger (1.00 = flat): ${Object.entries(growth)
      .map(([s, g]) => `${s} ${g?.toFixed(2)}`)
      .join(', ')}`,
  );

  const limitMs = options.hostileLimitMs ?? 60_000;
  const hostileRows = [['hostile file', 'result', 'time', 'peak RSS']];
  const hostile = {};
  for (const [name, make] of Object.entries(HOSTILE)) {
    const dir = join(out, 'hostile', name.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
    writeFiles(dir, make());
    const target = relative(out, dir);
    let result;
    try {
      const run = measure([cli, 'check', target, '--format', 'json'], { okCodes: [0, 1, 2], timeoutMs: limitMs });
      result = run.timedOut
        ? { finished: false, ms: Math.round(run.ms), peakRssKb: run.rssKb }
        : { finished: true, exit: run.status, ms: Math.round(run.ms), peakRssKb: run.rssKb };
    } catch (error) {
      result = { finished: false, error: String(error).split('\n')[0] };
    }
    hostile[name] = result;
    hostileRows.push([
      name,
      result.finished
        ? `exit ${result.exit}`
        : result.error
          ? `failed: ${result.error.slice(0, 60)}`
          : `did not finish in ${limitMs / 1000} s`,
      result.ms === undefined ? '—' : `${result.ms} ms`,
      result.peakRssKb ? mb(result.peakRssKb) : '—',
    ]);
  }
  console.log(`\n${table(hostileRows)}`);
  return { date: new Date().toISOString(), runs, scaling, growth, hostile, hostileLimitMs: limitMs };
}

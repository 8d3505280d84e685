// Fuzzing the checker: the files of every fixture folder, of the clean corpus and of the examples,
// mutated by fast-check (test/fuzz/mutations.ts: damage an editor makes, and hostile values put
// into the files' own structure) and checked by the real engine in their folder's workspace. Every
// input keeps the invariants of harness.ts: nothing throws and no rule fails; every range is
// inside the text, on whole characters and line breaks; the same input gives the same findings
// (the same parse checked again, and a new parse in a fresh workspace); the safe fixes converge,
// change nothing outside their edits and add no syntax error to a file that had none. Damaged
// catalogs join their workspace and damaged configurations rule it, and the folder still checks.
// A failure that a known, unfixed bug explains (known.ts; its todo test is in found.test.ts) is
// counted and said, not thrown; an input that would meet a known hang is counted and not checked.
//
// That the incremental re-parse agrees with a full parse after random edits is
// test/unit/incremental.test.ts's; test/unit/bad-input.test.ts holds the hand-written hostile
// cases (truncations, alias bombs, nesting thousands deep).
//
// npm test runs a few thousand cases with a fixed seed; `npm run fuzz` (scripts/fuzz.mjs) runs a
// hundred thousand with a new seed, printed, and replays a failure with --seed, --only and --path.
// The corpus is part of the input: a seed gives the same cases only on the same files.
import { test } from 'node:test';
import fc from 'fast-check';
import { parseConfig } from '../../server/src/core/config/config.js';
import type { ParsedFile } from '../../server/src/core/parse/file.js';
import type { Workspace } from '../../server/src/core/workspace.js';
import { RULE_IDS } from '../../server/src/core/rules/registry.js';
import { SourceText } from '../../server/src/core/text/source.js';
import { rebaseConfig } from '../../server/src/node/loader.js';
import {
  assertCheckInvariants,
  assertSaneFindings,
  checkText,
  corpusFolders,
  freshWorkspace,
  FuzzFailure,
  languageOf,
  runProperty,
  SEED,
  selected,
  type Folder,
  type PropertyRun,
} from './harness.js';
import { knownHang, masked, unlessKnown } from './known.js';
import { anyMutation, mutateAll, structuralMutation, vocabularyOf, type Mutation } from './mutations.js';

const folders = corpusFolders();

/** Each distinct text once (the fixture folders share catalog files), with the folder it was found in. */
const samples = (() => {
  const seen = new Set<string>();
  const out: { folder: Folder; path: string; text: string }[] = [];
  for (const folder of folders) {
    for (const file of folder.files) {
      if (/\.fixed\.[a-z]+$/.test(file.path) || seen.has(file.text)) continue;
      seen.add(file.text);
      out.push({ folder, path: file.path, text: file.text });
    }
  }
  return out;
})();

const vocabulary = vocabularyOf(samples.map((s) => s.text));

/** The properties, by the names the fuzz script's --only takes. */
const PROPERTIES = ['any damage', 'hostile values', 'damaged catalog', 'damaged config'] as const;
const only = (name: (typeof PROPERTIES)[number]) => ({
  skip: selected(name, PROPERTIES) ? false : `not the --only property`,
});

/** Runs a property and says what it ran: the seed, the cases, those a known bug explained, the slowest (fuzzing only). */
function run(t: { diagnostic(message: string): void }, property: () => PropertyRun): void {
  const before = new Map(masked);
  const result = property();
  t.diagnostic(`seed ${SEED}, ${result.runs} cases`);
  for (const [name, count] of masked) {
    if (count > (before.get(name) ?? 0))
      t.diagnostic(`${count - (before.get(name) ?? 0)} case(s) met the known bug "${name}"`);
  }
  for (const slow of result.slowest) t.diagnostic(`slow: ${slow.ms.toFixed(0)} ms ${slow.where}`);
}

function mutatedSample(pick: { sample: number; mutations: Mutation[] }): string {
  const sample = samples[pick.sample]!;
  const text = mutateAll(sample.text, pick.mutations, languageOf(sample.path));
  if (!knownHang(text)) unlessKnown(() => assertCheckInvariants(sample.folder, sample.path, text));
  return `${sample.folder.name}/${sample.path} (${text.length} characters)`;
}

test('corpus files with any damage keep every invariant', only('any damage'), (t) => {
  const input = fc.record({
    sample: fc.nat({ max: samples.length - 1 }),
    mutations: fc.array(anyMutation(vocabulary), { minLength: 1, maxLength: 4 }),
  });
  run(t, () => runProperty('any damage', input, mutatedSample, 1000, 0.45));
});

test('corpus files with hostile values in their own structure keep every invariant', only('hostile values'), (t) => {
  const input = fc.record({
    sample: fc.nat({ max: samples.length - 1 }),
    mutations: fc.array(structuralMutation(vocabulary), { minLength: 1, maxLength: 3 }),
  });
  run(t, () => runProperty('hostile values', input, mutatedSample, 1000, 0.35));
});

/** Up to three other files of the folder to check beside a damaged one: indexes into its files. */
const othersOf = fc.array(fc.nat(), { minLength: 1, maxLength: 3 });

test("a damaged catalog joins its workspace, and the folder's files still check", only('damaged catalog'), (t) => {
  const catalogs = folders
    .flatMap((folder) =>
      folder.catalogFiles.map((path) => ({ folder, path, text: folder.files.find((f) => f.path === path)?.text })),
    )
    .filter((c): c is { folder: Folder; path: string; text: string } => c.text !== undefined);
  const input = fc.record({
    catalog: fc.nat({ max: catalogs.length - 1 }),
    mutations: fc.array(anyMutation(vocabulary), { minLength: 1, maxLength: 4 }),
    others: othersOf,
  });
  run(t, () =>
    runProperty(
      'damaged catalog',
      input,
      ({ catalog, mutations, others }) => {
        const { folder, path, text: original } = catalogs[catalog]!;
        const text = mutateAll(original, mutations, languageOf(path));
        const logs: string[] = [];
        if (!knownHang(text))
          unlessKnown(() => {
            const workspace = built(logs, `${folder.name}/${path} (the damaged catalog)`, text, () =>
              freshWorkspace(folder, logs, { path, text }),
            );
            // The damaged catalog itself, and a few files that may call its tools.
            const files = [
              { path, text },
              ...others.map((n) => folder.files[n % folder.files.length]!).filter((f) => f.path !== path),
            ];
            for (const file of files) {
              const where = `${folder.name}/${file.path}, with the damaged catalog ${path}`;
              assertSaneFindings(checkText(workspace, logs, where, file.path, file.text).report, where);
            }
          });
        return `${folder.name}/${path} (${text.length} characters)`;
      },
      250,
      0.15,
    ),
  );
});

test(
  "a damaged .toollens.yaml reads without a throw, and the folder's files still check under it",
  only('damaged config'),
  (t) => {
    const configured = folders.filter(
      (folder): folder is Folder & { config: { path: string; text: string } } => folder.config !== undefined,
    );
    const input = fc.record({
      folder: fc.nat({ max: configured.length - 1 }),
      mutations: fc.array(anyMutation(vocabulary), { minLength: 1, maxLength: 4 }),
      others: othersOf,
    });
    run(t, () =>
      runProperty(
        'damaged config',
        input,
        ({ folder: index, mutations, others }) => {
          const folder = configured[index]!;
          const text = mutateAll(folder.config.text, mutations, 'yaml');
          const where = `${folder.name}/${folder.config.path}`;
          let result: ReturnType<typeof parseConfig>;
          try {
            result = parseConfig(folder.config.path, text, RULE_IDS);
          } catch (error) {
            throw new FuzzFailure(
              `reading the configuration threw: ${error instanceof Error ? error.stack : String(error)}`,
              where,
              text,
            );
          }
          unlessKnown(() => {
            assertSaneFindings(
              { file: { source: new SourceText(text) } as ParsedFile, findings: result.problems },
              where,
            );
            const logs: string[] = [];
            const config = rebaseConfig(result.config, folder.cwd, folder.cwd);
            const workspace = built(logs, where, text, () => freshWorkspace(folder, logs, undefined, config));
            for (const file of others.map((n) => folder.files[n % folder.files.length]!)) {
              const fileWhere = `${folder.name}/${file.path}, under the damaged configuration`;
              assertSaneFindings(checkText(workspace, logs, fileWhere, file.path, file.text).report, fileWhere);
            }
          });
          return `${where} (${text.length} characters)`;
        },
        60,
        0.05,
      ),
    );
  },
);

/** A workspace built with a damaged file in it: building it may not throw or log either. */
function built(logs: string[], where: string, text: string, build: () => Workspace): Workspace {
  let workspace: Workspace;
  try {
    workspace = build();
  } catch (error) {
    throw new FuzzFailure(
      `building the workspace threw: ${error instanceof Error ? error.stack : String(error)}`,
      where,
      text,
    );
  }
  if (logs.length) throw new FuzzFailure(`building the workspace logged:\n${logs.join('\n')}`, where, text);
  return workspace;
}

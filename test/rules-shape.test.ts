// Adding a rule is: its module server/src/core/rules/<family>/<name>.ts (exporting `rule` with id
// `<family>/<name>`, listed in <family>/index.ts), a fixture folder test/fixtures/<family>/<name>/
// and a docs page docs/rules/<family>/<name>.md. This checks both ways round, and every failure
// says what to add or move where:
// - every rule of the registry has its module at the path of its id, a fixture folder with at least
//   one case that wants it, and a docs page;
// - every file in a rule family folder (but index.ts) is a registered rule module, each family's
//   index.ts lists every rule module of its folder, and every docs page and fixture folder belongs
//   to a registered rule.
// (docs/rules/README.md and the rules: keys of the config schema are generated from the registry
// by `npm run build`; test/rule-files.test.ts checks them.)
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ALL_RULES } from '../server/src/core/rules/registry.js';
import type { Rule } from '../server/src/core/rules/rule.js';
import { parseWants, parseWantsFile } from './helpers/fixtures.js';

/**
 * TEMPORARY: non-rule modules that still sit in rule family folders and are being moved out of
 * server/src/core/rules/ in a parallel change. Paths are relative to server/src/core/rules/. Empty
 * this list when that change lands (an entry that no longer exists fails the test below, as a
 * reminder); do not add to it: shared code belongs with the analysis that owns it (model/,
 * catalog/, jsonschema/, ...), not in a rule folder.
 */
const NOT_YET_MOVED: readonly string[] = [
  'schema/shared.ts',
];

const ROOT = join(__dirname, '..');
const RULES_DIR = join(ROOT, 'server/src/core/rules');
const FIXTURES_DIR = join(ROOT, 'test/fixtures');
const DOCS_DIR = join(ROOT, 'docs/rules');
/** What docs/rules/ holds besides the family folders of rule pages. */
const DOCS_EXTRAS = new Set(['README.md', '_catalogs']);
/** Rule ids are `family/name`, lower case with dashes: the fixtures' `# want` markers read only these. */
const RULE_ID = /^[a-z]+\/[a-z-]+$/;

const rel = (path: string) => path.slice(ROOT.length + 1);
const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();
const subdirs = (dir: string) => (isDir(dir) ? readdirSync(dir).filter((name) => isDir(join(dir, name))).sort() : []);
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const REGISTERED = new Map<string, Rule>(ALL_RULES.map((rule) => [rule.id, rule]));

/** A module's exports, loaded like the registry loads it (one module instance either way). */
function load(path: string): Record<string, unknown> {
  return createRequire(__filename)(path) as Record<string, unknown>;
}

function isRule(value: unknown): value is Rule {
  return typeof value === 'object' && value !== null && typeof (value as Rule).id === 'string' && typeof (value as Rule).summary === 'string';
}

/** The exported rule lists of a family's index.ts, by export name. */
function familyLists(family: string): Map<string, readonly Rule[]> {
  const lists = new Map<string, readonly Rule[]>();
  for (const [name, value] of Object.entries(load(join(RULES_DIR, family, 'index.ts')))) {
    if (Array.isArray(value) && value.every(isRule)) lists.set(name, value);
  }
  return lists;
}

/** The cases of a fixture folder that want its rule: a `# want <id>` marker, or a line of a `.wants` file. */
function casesWanting(dir: string, id: string): string[] {
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isFile() && !/\.fixed\.[a-z]+$/.test(name))
    .filter((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      const wants = name.endsWith('.wants') ? parseWantsFile(text) : parseWants(text);
      return wants.some((want) => want.rule === id);
    });
}

test('NOT_YET_MOVED lists only files that are still in the rule folders', () => {
  for (const entry of NOT_YET_MOVED) {
    assert.ok(existsSync(join(RULES_DIR, entry)), `server/src/core/rules/${entry} has moved: remove it from NOT_YET_MOVED in test/rules-shape.test.ts`);
  }
});

test('rule ids are unique and of the form family/name', () => {
  const seen = new Set<string>();
  for (const rule of ALL_RULES) {
    assert.ok(!seen.has(rule.id), `${rule.id} is registered twice`);
    seen.add(rule.id);
    assert.match(rule.id, RULE_ID, `rule id "${rule.id}" is not family/name in lower case with dashes (the fixtures' want markers read only those)`);
  }
});

describe('every registered rule has its module, fixtures and docs page', () => {
  for (const rule of ALL_RULES) {
    test(rule.id, () => {
      const modulePath = join(RULES_DIR, `${rule.id}.ts`);
      assert.ok(existsSync(modulePath), `rule ${rule.id} is not defined in ${rel(modulePath)}: a rule's module is at the path of its id`);
      const exported = load(modulePath).rule;
      assert.ok(isRule(exported), `${rel(modulePath)} does not export \`rule\``);
      assert.equal(exported.id, rule.id, `${rel(modulePath)} exports a rule with id ${exported.id}: its id must be ${rule.id}, the module's path`);
      assert.equal(exported, rule, `the registry's ${rule.id} is not the rule ${rel(modulePath)} exports`);

      const fixtures = join(FIXTURES_DIR, rule.id);
      assert.ok(isDir(fixtures), `rule ${rule.id} has no fixture folder: add ${rel(fixtures)}/ with a case whose offending line ends in \`# want ${rule.id}\``);
      assert.ok(
        casesWanting(fixtures, rule.id).length > 0,
        `${rel(fixtures)}/ has no case that wants ${rule.id}: add a file with a line ending in \`# want ${rule.id} "message"\` (or a .wants file beside a .jsonl case)`,
      );

      const page = join(DOCS_DIR, `${rule.id}.md`);
      assert.ok(existsSync(page), `rule ${rule.id} has no docs page: add ${rel(page)} (title \`# ${rule.id}\`, a "## Bad" and a "## Good" example)`);
    });
  }
});

describe('every file in a rule family folder is a registered rule', () => {
  for (const family of subdirs(RULES_DIR)) {
    test(`server/src/core/rules/${family}/`, () => {
      const hasIndex = existsSync(join(RULES_DIR, family, 'index.ts'));
      const lists = hasIndex ? familyLists(family) : new Map<string, readonly Rule[]>();
      const listed = new Set([...lists.values()].flat());
      const listName = [...lists.keys()][0] ?? `${camel(family)}Rules`;
      const modules: Rule[] = [];
      for (const name of readdirSync(join(RULES_DIR, family)).sort()) {
        const entry = `${family}/${name}`;
        const path = join(RULES_DIR, entry);
        if (name === 'index.ts' || NOT_YET_MOVED.includes(entry)) continue;
        const notARule =
          `server/src/core/rules/${entry} is not a rule module: a rule family folder holds only <name>.ts rule modules and index.ts; ` +
          'move shared code next to the analysis that owns it (model/, catalog/, jsonschema/, text/, ...)';
        assert.ok(!isDir(path) && name.endsWith('.ts'), notARule);
        const id = `${family}/${name.slice(0, -'.ts'.length)}`;
        const exported = load(path).rule;
        assert.ok(isRule(exported), `${notARule}; a rule module exports \`rule: Rule\` with id ${id}`);
        assert.equal(exported.id, id, `${rel(path)} exports a rule with id ${exported.id}: a rule's id is its module's path, ${id}`);
        modules.push(exported);
        const base = camel(name.slice(0, -'.ts'.length));
        if (hasIndex) {
          assert.ok(
            listed.has(exported),
            `${id} is not listed in server/src/core/rules/${family}/index.ts: add \`import { rule as ${base} } from './${name.slice(0, -3)}.js';\` and \`${base}\` to ${listName}`,
          );
        }
        assert.equal(
          REGISTERED.get(id),
          exported,
          hasIndex
            ? `${id} is not in the registry: add ${listName} from ./${family}/index.js to ALL_RULES in server/src/core/rules/registry.ts`
            : `${id} is not in the registry: add \`import { rule as ${base} } from './${family}/${name.slice(0, -3)}.js';\` and \`${base}\` to ALL_RULES in server/src/core/rules/registry.ts`,
        );
      }
      for (const rule of listed) {
        assert.ok(modules.includes(rule), `server/src/core/rules/${family}/index.ts lists ${rule.id}, which is not a module of its folder`);
      }
    });
  }
});

test('every docs page belongs to a registered rule', () => {
  for (const name of readdirSync(DOCS_DIR).sort()) {
    if (DOCS_EXTRAS.has(name)) continue;
    assert.ok(isDir(join(DOCS_DIR, name)), `docs/rules/${name} is neither a rule family folder nor README.md or _catalogs/`);
    for (const page of readdirSync(join(DOCS_DIR, name)).sort()) {
      const id = `${name}/${page.replace(/\.md$/, '')}`;
      assert.ok(page.endsWith('.md') && REGISTERED.has(id), `docs/rules/${name}/${page} is the page of no registered rule: rename it after a rule id or remove it`);
    }
  }
});

test('every fixture folder belongs to a registered rule', () => {
  for (const family of readdirSync(FIXTURES_DIR).sort()) {
    assert.ok(isDir(join(FIXTURES_DIR, family)), `test/fixtures/${family} is not a rule family folder`);
    for (const name of readdirSync(join(FIXTURES_DIR, family)).sort()) {
      const id = `${family}/${name}`;
      assert.ok(isDir(join(FIXTURES_DIR, id)), `test/fixtures/${id} is not a folder: fixtures live in test/fixtures/<family>/<name>/`);
      assert.ok(REGISTERED.has(id), `test/fixtures/${id}/ is the fixture folder of no registered rule: rename it after a rule id or remove it`);
    }
  }
});

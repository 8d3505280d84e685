// Writes the two committed files that list every rule, from the rule registry (ALL_RULES: id,
// defaultSeverity, summary), so that neither is kept by hand:
//
//   docs/rules/README.md                  the tables between the GENERATED markers (one section per
//                                         family, in registry order); the prose around them is kept
//   schemas/toollens-config.schema.json   definitions.RuleSeverities.properties (one severity key per
//                                         rule id, with its summary as hover text) and
//                                         properties.limits (one key per configurable limit, with
//                                         its bounds and default, from core/limits.ts); the rest is kept
//
// scripts/build.mjs runs it on every build (after the schema validators, which the registry
// imports), through tsx because the registry is TypeScript. test/rule-files.test.ts renders both in
// memory and fails when the committed files differ: run `npm run build`.
// By hand: `node --import tsx scripts/generate-rule-files.ts [--check]`.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_LIMITS, LIMIT_BOUNDS, type ConfigurableLimit } from '../server/src/core/limits.js';
import { ALL_RULES } from '../server/src/core/rules/registry.js';
import { PROJECT_URL, ruleDocsUrl, type Rule } from '../server/src/core/rules/rule.js';

const ROOT = join(__dirname, '..');

export const RULES_INDEX = join(ROOT, 'docs/rules/README.md');
export const CONFIG_SCHEMA = join(ROOT, 'schemas/toollens-config.schema.json');

/** The metadata the generated files are made of. */
export type RuleInfo = Pick<Rule, 'id' | 'defaultSeverity' | 'summary'>;

/**
 * The heading of each family's section in docs/rules/README.md. A new family needs its title here
 * (the generator says so); a new rule in a known family needs nothing.
 */
export const FAMILY_TITLES: Readonly<Record<string, string>> = {
  schema: 'Structure (from the JSON Schemas)',
  yaml: 'Syntax',
  workflow: 'Workflows',
  template: 'Templates',
  aggregation: 'Gateway settings',
  operational: 'Operational settings',
  tool: 'Tool references',
  args: 'Arguments',
  annotations: 'The safety floor',
  face: 'Tool faces',
  client: 'MCP client configurations',
  envelope: 'Dynamic tools and the call envelope',
  result: 'Recorded results',
  catalog: 'Catalogs',
  hints: "Catalog annotations (evidence about a server's hints)",
  lens: 'Tool Lens itself',
};

export const BEGIN_MARKER =
  "<!-- BEGIN GENERATED from the rule registry by scripts/generate-rule-files.ts: do not edit by hand; change a rule's id, defaultSeverity or summary in its module and run `npm run build` -->";
export const END_MARKER = '<!-- END GENERATED -->';

function familyOf(id: string): string {
  return id.slice(0, id.indexOf('/'));
}

/** The rules grouped by family, families in the order their first rule has in the registry. */
function byFamily(rules: readonly RuleInfo[]): Map<string, RuleInfo[]> {
  const families = new Map<string, RuleInfo[]>();
  for (const rule of rules) {
    const family = familyOf(rule.id);
    families.set(family, [...(families.get(family) ?? []), rule]);
  }
  return families;
}

/** The tables of the rules index: what goes between the markers. */
export function renderIndexTables(rules: readonly RuleInfo[]): string {
  const sections: string[] = [];
  for (const [family, members] of byFamily(rules)) {
    const title = FAMILY_TITLES[family];
    if (!title) {
      throw new Error(
        `rule family "${family}" has no section title: add \`${family}: '<Title>'\` to FAMILY_TITLES in scripts/generate-rule-files.ts`,
      );
    }
    const rows = members.map(
      (rule) => `| [${rule.id}](${rule.id}.md) | ${rule.defaultSeverity} | ${rule.summary.replace(/\|/g, '\\|')} |`,
    );
    sections.push([`## ${title}`, '', '| rule | default | what |', '|---|---|---|', ...rows].join('\n'));
  }
  return sections.join('\n\n');
}

/** docs/rules/README.md with its generated region rewritten from the rules. */
export function renderRulesIndex(current: string, rules: readonly RuleInfo[]): string {
  const begin = current.indexOf(BEGIN_MARKER);
  const end = current.indexOf(END_MARKER);
  if (begin < 0 || end < begin) {
    throw new Error(
      `${relative(ROOT, RULES_INDEX)} has lost its generated region: put back the lines\n${BEGIN_MARKER}\n${END_MARKER}`,
    );
  }
  return `${current.slice(0, begin)}${BEGIN_MARKER}\n\n${renderIndexTables(rules)}\n\n${current.slice(end)}`;
}

const SEVERITY_REF = 'toollens-config.schema.json#/definitions/Severity';

const LIMITS_DOCS_URL = `${PROJECT_URL}/blob/main/docs/limits.md`;

/** The `limits:` mapping of the configuration: each configurable limit, its bounds and default. */
function limitsSchema(): unknown {
  const number = (value: number) => value.toLocaleString('en-US');
  return {
    type: 'object',
    description:
      "Bounds on Tool Lens's own work, each settable within its range (docs/limits.md); the others are fixed.",
    markdownDescription: `Bounds on Tool Lens's own work, each settable within its range; the others are fixed. [Limits](${LIMITS_DOCS_URL})`,
    additionalProperties: false,
    properties: Object.fromEntries(
      (Object.keys(LIMIT_BOUNDS) as ConfigurableLimit[]).map((name) => {
        const bound = LIMIT_BOUNDS[name];
        const range = `Default: ${number(DEFAULT_LIMITS[name])}; from ${number(bound.min)} to ${number(bound.max)}.`;
        return [
          name,
          {
            type: 'integer',
            minimum: bound.min,
            maximum: bound.max,
            default: DEFAULT_LIMITS[name],
            description: `${bound.summary} ${range}`,
            markdownDescription: `${bound.summary}\n\n${range} [${name}](${LIMITS_DOCS_URL}#${name.toLowerCase()})`,
          },
        ];
      }),
    ),
  };
}

/** schemas/toollens-config.schema.json with one severity key per rule, and the configurable limits. */
export function renderConfigSchema(current: string, rules: readonly RuleInfo[]): string {
  const schema = JSON.parse(current) as {
    properties?: Record<string, unknown>;
    definitions?: { RuleSeverities?: { properties?: unknown } };
  };
  if (!schema.properties) throw new Error(`${relative(ROOT, CONFIG_SCHEMA)} has no properties`);
  schema.properties.limits = limitsSchema();
  const severities = schema.definitions?.RuleSeverities;
  if (!severities) throw new Error(`${relative(ROOT, CONFIG_SCHEMA)} has no definitions.RuleSeverities to fill`);
  severities.properties = Object.fromEntries(
    rules.map((rule) => [
      rule.id,
      {
        // Plain text for clients that show `description`; VS Code shows the markdown one.
        description: `${rule.summary.replace(/`/g, '')} Default: ${rule.defaultSeverity}.`,
        markdownDescription: `${rule.summary}\n\nDefault: \`${rule.defaultSeverity}\`. [Documentation](${ruleDocsUrl(rule.id)})`,
        $ref: SEVERITY_REF,
      },
    ]),
  );
  return `${JSON.stringify(schema, null, 2)}\n`;
}

export interface GeneratedFile {
  path: string;
  current: string | undefined;
  text: string;
}

/** Both files: their text on disk and the text the registry gives. */
export function ruleFiles(rules: readonly RuleInfo[] = ALL_RULES): GeneratedFile[] {
  const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
  const index = read(RULES_INDEX);
  const schema = read(CONFIG_SCHEMA);
  if (index === undefined || schema === undefined)
    throw new Error(`${relative(ROOT, index === undefined ? RULES_INDEX : CONFIG_SCHEMA)} is missing`);
  return [
    { path: RULES_INDEX, current: index, text: renderRulesIndex(index, rules) },
    { path: CONFIG_SCHEMA, current: schema, text: renderConfigSchema(schema, rules) },
  ];
}

/** Rewrites the files whose text changed; returns their paths relative to the checkout. */
export function writeRuleFiles(rules: readonly RuleInfo[] = ALL_RULES): string[] {
  const written: string[] = [];
  for (const file of ruleFiles(rules)) {
    if (file.current === file.text) continue;
    // Through a temporary name, like the bundles: a test reading it meanwhile never sees half a file.
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.text);
    renameSync(temporary, file.path);
    written.push(relative(ROOT, file.path));
  }
  return written;
}

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const stale = ruleFiles().filter((file) => file.current !== file.text);
    for (const file of stale)
      console.error(`${relative(ROOT, file.path)} is out of date with the rule registry: run npm run build`);
    process.exit(stale.length ? 1 : 0);
  } else {
    const written = writeRuleFiles();
    console.log(written.length ? `written: ${written.join(', ')}` : 'rule files up to date');
  }
}

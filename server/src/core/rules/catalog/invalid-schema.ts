// A tool schema must be valid for its dialect (MCP: `$schema` names it; absent means 2020-12).
// Compiling is left to jsonschema/validate.ts, which the argument and result checks share; this
// rule only decides the dialect strictly (no fallback to draft-07 for a schema without
// `$schema`) and says in plain words what does not compile.
import { getPair, isMap, toValue, type Pair } from '../../parse/nodes.js';
import { compileSchema, plainlyValid } from '../../jsonschema/validate.js';
import type { Rule, RuleContext } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DEFAULT_2020 = 'https://json-schema.org/draft/2020-12/schema';

type Dialect = { kind: 'draft-07' | '2020-12'; declared: boolean } | { kind: 'unsupported'; uri: string };

export const rule: Rule = {
  id: 'catalog/invalid-schema',
  defaultSeverity: 'error',
  summary: 'A tool schema that does not compile for its JSON Schema dialect.',
  kinds: ['tool-catalog'],
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        const pair = getPair(tool.node, key);
        if (pair && isMap(pair.value)) checkSchema(ctx, tool, key, pair);
      }
    }
  },
};

function checkSchema(ctx: RuleContext, tool: ToolDecl, key: string, pair: Pair): void {
  const schema = toValue(pair.value) as Record<string, unknown>;
  const dialect = dialectOf(schema.$schema);
  if (dialect.kind === 'unsupported') {
    const schemaPair = getPair(pair.value, '$schema');
    ctx.report({
      // We cannot know which clients support it, so this is a warning, not an error.
      severity: 'warning',
      message:
        `The ${key} of ${describeTool(tool)} declares the dialect ${JSON.stringify(dialect.uri)}. MCP clients must support ` +
        'JSON Schema 2020-12 and commonly support draft-07; one that does not support this dialect must refuse the schema, ' +
        'and Tool Lens cannot check it. Declare draft-07 or 2020-12 if the schema is valid in it.',
      span: schemaPair?.value?.span ?? pair.key.span,
    });
    return;
  }
  if (plainlyValid(schema)) return;
  const compiled = compileOnce(dialect.declared ? schema : { $schema: DEFAULT_2020, ...schema });
  if (compiled.ok) return;
  const which = dialect.kind === '2020-12' ? 'JSON Schema 2020-12' : 'JSON Schema draft-07';
  const why = dialect.declared ? '' : ' (it has no `$schema`, and MCP then reads it as 2020-12)';
  ctx.report({
    message:
      `The ${key} of ${describeTool(tool)} is not a valid ${which} schema${why}: ${plainWords(compiled.error, dialect)}. ` +
      `A client or gateway that validates ${key === 'inputSchema' ? 'arguments' : 'results'} against it fails on this tool, ` +
      'and Tool Lens skips its checks against it.',
    span: pair.key.span,
  });
}

// Compiling is the slow part (milliseconds per schema) and a catalog is re-checked on every edit,
// each time as new objects: remember the verdict per schema text, for a bounded number of schemas.
const verdicts = new Map<string, { ok: true } | { ok: false; error: string }>();
const MAX_VERDICTS = 2000;

function compileOnce(schema: Record<string, unknown>): { ok: true } | { ok: false; error: string } {
  const key = JSON.stringify(schema);
  const known = verdicts.get(key);
  if (known) return known;
  const compiled = compileSchema(schema);
  const verdict = compiled.ok ? ({ ok: true } as const) : { ok: false as const, error: compiled.error };
  if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(key, verdict);
  return verdict;
}

function dialectOf(uri: unknown): Dialect {
  if (uri === undefined) return { kind: '2020-12', declared: false };
  if (typeof uri === 'string' && DRAFT_07.test(uri)) return { kind: 'draft-07', declared: true };
  if (typeof uri === 'string' && DRAFT_2020.test(uri)) return { kind: '2020-12', declared: true };
  // A `$schema` that is not a string fails the meta-schema: let the compiler say so.
  if (typeof uri !== 'string') return { kind: '2020-12', declared: true };
  return { kind: 'unsupported', uri };
}

/** ajv's compile errors, rewritten: the first problem, its place as a dotted path. */
function plainWords(error: string, dialect: Dialect): string {
  const invalid = /^schema is invalid: (.*)$/s.exec(error);
  if (invalid) {
    const first = invalid[1]!.split(', data')[0]!;
    const match = /^data(\S*) (.*)$/.exec(first);
    const place = match?.[1] ? `\`${match[1].slice(1).replace(/\//g, '.')}\`` : 'the root';
    let what = match?.[2] ?? first;
    what = what
      .replace('must be equal to one of the allowed values', 'is not one of the values the dialect allows')
      .replace('must be object,boolean', 'must be a schema (an object or true/false)')
      .replace('must be array', 'must be a list');
    const tuple =
      dialect.kind === '2020-12' && /(^|\/)items$/.test(match?.[1] ?? '') ? ' (a list under `items` is draft-07 tuple syntax; 2020-12 calls it `prefixItems`)' : '';
    return `${place} ${what}${tuple}`;
  }
  const ref = /^can't resolve reference (\S+)/.exec(error);
  if (ref) {
    const target = ref[1]!;
    return /^[a-z][a-z0-9+.-]*:/i.test(target)
      ? `its \`$ref\` to ${JSON.stringify(target)} points outside the schema, and MCP clients must not fetch remote schemas`
      : `its \`$ref\` ${JSON.stringify(target)} points at nothing in the schema`;
  }
  const regex = /^Invalid regular expression: \/(.*)\/[a-z]*: (.*)$/s.exec(error);
  if (regex) return `the \`pattern\` ${JSON.stringify(regex[1])} is not a valid regular expression (${regex[2]!.toLowerCase()})`;
  return error.replace(/\s+/g, ' ').trim();
}

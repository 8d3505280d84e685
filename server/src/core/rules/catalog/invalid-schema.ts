// A tool schema must be valid for its dialect (MCP: `$schema` names it; absent means 2020-12).
// Compiling is left to jsonschema/validate.ts, which the argument and result checks share; this
// rule only decides the dialect strictly (no fallback to draft-07 for a schema without
// `$schema`) and says in plain words what does not compile.
import { decline } from '../../declined.js';
import { getPair, isMap, isScalar, keyText, toValue, walk, type Pair } from '../../parse/nodes.js';
import { compileSchema, IN_PLACE_LOOP, plainlyValid, type UnevaluatedPattern } from '../../jsonschema/validate.js';
import type { Span } from '../../types.js';
import { defineRule, type RuleContext } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';
import { headlineFits } from '../../wording/headlines.js';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DEFAULT_2020 = 'https://json-schema.org/draft/2020-12/schema';

type Dialect = { kind: 'draft-07' | '2020-12'; declared: boolean } | { kind: 'unsupported'; uri: string };

const messages = {
  /** `key`: inputSchema or outputSchema; `uri`: the dialect's `$schema`. */
  uncommonDialect: ({ key, tool, uri }: { key: string; tool: ToolDecl; uri: string }) =>
    `This ${key} declares an uncommon dialect: declare draft-07 or 2020-12 if it is valid in one. ` +
    `The ${key} of ${describeTool(tool)} declares the dialect ${JSON.stringify(uri)}. MCP clients must support ` +
    'JSON Schema 2020-12 and commonly support draft-07; one that does not support this dialect must refuse the schema, ' +
    'and Tool Lens cannot check it.',
  /**
   * `which`: the dialect it is read in; `declared`: it names its dialect (else MCP's default applies);
   * `problem`: the validator's objection in our words.
   */
  invalid: ({
    key,
    tool,
    which,
    declared,
    problem,
  }: {
    key: string;
    tool: ToolDecl;
    which: string;
    declared: boolean;
    problem: string;
  }) => {
    const why = declared ? '' : ' (it has no `$schema`, and MCP then reads it as 2020-12)';
    const short = `This ${key} is not valid ${which}: ${problem}.`;
    const fits = headlineFits(short);
    const headline = fits ? short : `This ${key} is not valid ${which}: fix the schema.`;
    return (
      `${headline} The ${key} of ${describeTool(tool)} is not a valid ${which} schema${why}${fits ? '' : `: ${problem}`}. ` +
      `A client or gateway that validates ${key === 'inputSchema' ? 'arguments' : 'results'} against it fails on this tool, ` +
      'and Tool Lens skips its checks against it.'
    );
  },
};

export const rule = defineRule({
  id: 'catalog/invalid-schema',
  defaultSeverity: 'error',
  summary: 'A tool schema that does not compile for its JSON Schema dialect.',
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        const pair = getPair(tool.node, key);
        if (pair && isMap(pair.value)) checkSchema(ctx, tool, key, pair);
      }
    }
  },
});

function checkSchema(ctx: RuleContext<typeof messages>, tool: ToolDecl, key: string, pair: Pair): void {
  const schema = toValue(pair.value) as Record<string, unknown>;
  const dialect = dialectOf(schema.$schema);
  if (dialect.kind === 'unsupported') {
    const schemaPair = getPair(pair.value, '$schema');
    ctx.report({
      // We cannot know which clients support it, so this is a warning, not an error.
      severity: 'warning',
      messageId: 'uncommonDialect',
      data: { key, tool, uri: dialect.uri },
      span: schemaPair?.value?.span ?? pair.key.span,
    });
    return;
  }
  if (plainlyValid(schema)) return;
  const compiled = compileOnce(dialect.declared ? schema : { $schema: DEFAULT_2020, ...schema });
  if (compiled.ok) {
    for (const pattern of compiled.unevaluated) declinePattern(ctx, tool, key, pair, pattern);
    return;
  }
  const which = dialect.kind === '2020-12' ? 'JSON Schema 2020-12' : 'JSON Schema draft-07';
  ctx.report({
    messageId: 'invalid',
    data: { key, tool, which, declared: dialect.declared, problem: plainWords(compiled.error, dialect) },
    span: pair.key.span,
  });
}

/**
 * A pattern Tool Lens never runs (jsonschema/patterns.ts), said once at the pattern itself: no
 * argument or result is held to it. The checks of arguments and results say it again at each value.
 */
function declinePattern(
  ctx: RuleContext<typeof messages>,
  tool: ToolDecl,
  key: string,
  pair: Pair,
  pattern: UnevaluatedPattern,
): void {
  const spans: Span[] = [];
  walk(pair.value, (node) => {
    if (!isMap(node)) return;
    const value = getPair(node, 'pattern')?.value;
    if (isScalar(value) && value.value === pattern.pattern) spans.push(value.span);
    const named = getPair(node, 'patternProperties')?.value;
    if (isMap(named)) for (const p of named.pairs) if (keyText(p) === pattern.pattern) spans.push(p.key.span);
  });
  const shown = pattern.pattern.length > 80 ? `${pattern.pattern.slice(0, 77)}...` : pattern.pattern;
  const what = `any value against the pattern ${JSON.stringify(shown)} of the ${key} of ${describeTool(tool)} (${pattern.reason})`;
  for (const span of spans.length ? spans : [pair.key.span]) decline(ctx, { limit: pattern.limit, span, what });
}

type Verdict = { ok: true; unevaluated: UnevaluatedPattern[] } | { ok: false; error: string };

// Compiling is the slow part (milliseconds per schema) and a catalog is re-checked on every edit,
// each time as new objects: remember the verdict per schema text, for a bounded number of schemas.
const verdicts = new Map<string, Verdict>();
const MAX_VERDICTS = 2000;

function compileOnce(schema: Record<string, unknown>): Verdict {
  const key = JSON.stringify(schema);
  const known = verdicts.get(key);
  if (known) return known;
  const compiled = compileSchema(schema);
  const verdict: Verdict = compiled.ok
    ? { ok: true, unevaluated: compiled.unevaluated }
    : { ok: false, error: compiled.error };
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
      dialect.kind === '2020-12' && /(^|\/)items$/.test(match?.[1] ?? '')
        ? ' (a list under `items` is draft-07 tuple syntax; 2020-12 calls it `prefixItems`)'
        : '';
    return `${place} ${what}${tuple}`;
  }
  const ref = /^can't resolve reference (\S+)/.exec(error);
  if (ref) {
    const target = ref[1]!;
    return /^[a-z][a-z0-9+.-]*:/i.test(target)
      ? `its \`$ref\` to ${JSON.stringify(target)} points outside the schema, and MCP clients must not fetch remote schemas`
      : `its \`$ref\` ${JSON.stringify(target)} points at nothing in the schema`;
  }
  if (error.startsWith(IN_PLACE_LOOP)) {
    const loop = error.slice(IN_PLACE_LOOP.length).split(' -> ');
    const through =
      loop.length > 2
        ? ` (through ${loop
            .slice(1, -1)
            .map((p) => `\`${p}\``)
            .join(', ')})`
        : '';
    return (
      `\`${loop[0]}\` applies itself to the same value again${through} before it looks at any part of it, ` +
      'so validating never ends (JSON Schema leaves such a schema undefined); a `$ref` inside `properties` or `items` recurses safely'
    );
  }
  if (/maximum call stack size exceeded/i.test(error)) return 'its references go deeper than a validator can follow';
  const regex = /^Invalid regular expression: \/(.*)\/[a-z]*: (.*)$/s.exec(error);
  if (regex)
    return `the \`pattern\` ${JSON.stringify(regex[1])} is not a valid regular expression (${regex[2]!.toLowerCase()})`;
  return error.replace(/\s+/g, ' ').trim();
}

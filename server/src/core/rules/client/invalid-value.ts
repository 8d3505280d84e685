// client/invalid-value: a value of a server entry that its client's schema refuses: another type
// than the one it reads (Roo Code's `alwaysAllow: "search"`, a number in Continue's `env`), a number
// out of its bounds (Roo Code's `timeout` from 1 to 3600, Continue's `connectionTimeout` above 0),
// an empty `command` (Roo Code). Only for the clients whose entry schema is read from source and
// refuses such a value (model/clients.ts `values`): Roo Code validates its project file as a whole
// (McpHub.ts BaseConfigSchema, McpSettingsSchema) and loads none of it, Continue skips the block
// (config-yaml mcpServerSchema, unroll.ts unrollBlocks). Where the client-neutral schema runs (Roo
// Code), the types it already checks (`command`, `args`, `cwd`, `url`, `headers`, a nested value in
// `env`) stay its findings; a `type` is client/invalid-transport's. A setting the client reads from
// a closed set (model/clients.ts `valueSets`): Codex reads `default_tools_approval_mode` and each
// `tools.<name>.approval_mode` as its AppToolApproval enum (codex-rs/config/src/mcp_types.rs, a serde
// enum with no fallback), so another value fails the whole configuration and `codex` stops with
// "Error loading config.toml" (codex-rs/exec/src/lib.rs run_main); a value some version of the
// client takes (Codex's newer `writes`) is never reported.
import { clientViewOf, entryFactsOf, type ClientView, type ValueForm } from '../../model/clients.js';
import { neutralSchemaFits } from '../../parse/clients.js';
import { getPair, isMap, isScalar, isSeq, keyText, type Node, type Pair, type ScalarNode } from '../../parse/nodes.js';
import { quotedAlternatives } from '../../text/words.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';

/** The keys whose type the client-neutral schema (schemas/mcp-servers.schema.json) checks itself. */
const NEUTRAL_TYPED: ReadonlySet<string> = new Set(['command', 'args', 'env', 'cwd', 'url', 'headers', 'envFile']);

const EXPECTED: Record<ValueForm['type'], string> = {
  string: 'a string',
  boolean: 'true or false',
  number: 'a number',
  strings: 'a list of strings',
  stringMap: 'a mapping of names to strings',
};

export const rule = defineRule({
  id: 'client/invalid-value',
  defaultSeverity: 'error',
  summary:
    'A server entry value its client refuses (another type, a number out of bounds, an empty `command`, a value outside its set): the client does not load it.',
  kinds: ['mcp-servers'],
  messages: {
    wrongType: (d: { client: string; key: string; expected: string }) =>
      `${d.client} cannot load this entry: "${d.key}" must be ${d.expected}.`,
    notString: (d: { client: string; key: string; name: string }) =>
      `${d.client} cannot load this entry: "${d.name}" in "${d.key}" must be a string; quote it.`,
    outOfRange: (d: { client: string; key: string; bounds: string }) =>
      `${d.client} cannot load this entry: "${d.key}" must be ${d.bounds}.`,
    fileType: (d: { client: string; key: string; expected: string }) =>
      `${d.client} cannot load this block: "${d.key}" must be ${d.expected}.`,
    notUrl: (d: { client: string; key: string }) =>
      `${d.client} cannot load this entry: "${d.key}" must parse as a URL, with no variable in its host.`,
    empty: (d: { client: string; key: string }) => `${d.client} cannot load this entry: "${d.key}" must not be empty.`,
    /** `key`: the setting's own name (`approval_mode`, the finding sits at its value). */
    refused: (d: { client: string; key: string; value: string; accepted: string }) =>
      `${d.client} refuses ${d.key} = "${d.value}": use ${d.accepted}.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    for (const finding of valueSetFindings(view)) ctx.report(finding);
    const values = entryFactsOf(view)?.values;
    if (!view.client || !values) return;
    const client = view.client.label;
    const neutral = neutralSchemaFits(view.client);
    const text = ctx.file.source.text;
    // The file's own keys (Continue's block `name`, `version`), reported at the value.
    const root = ctx.doc.root;
    for (const pair of isMap(root) ? root.pairs : []) {
      const key = keyText(pair);
      const form = values.fileForms && Object.hasOwn(values.fileForms, key) ? values.fileForms[key] : undefined;
      const value = pair.value;
      if (!form || !value || isNull(value) || fits(value, form)) continue;
      const fix = form.type === 'string' && isScalar(value) ? quoteFix(text, value) : undefined;
      ctx.report({
        messageId: 'fileType',
        data: { client, key, expected: EXPECTED[form.type] },
        span: value.span,
        severity: values.severity,
        related: [{ span: pair.key.span, message: `${values.effect}.` }],
        ...(fix ? { fixes: [fix] } : {}),
      });
    }
    for (const server of view.servers) {
      const related = [{ span: server.pair.key.span, message: `${values.effect}.` }];
      const place = { severity: values.severity, related };
      for (const pair of server.entry?.pairs ?? []) {
        const key = keyText(pair);
        const form = Object.hasOwn(values.forms, key) ? values.forms[key] : undefined;
        const value = pair.value;
        if (!form || !value || isNull(value)) continue;
        const typed = neutral && NEUTRAL_TYPED.has(key);
        if (!fits(value, form)) {
          if (typed) continue;
          const fix = form.type === 'string' && isScalar(value) ? quoteFix(text, value) : undefined;
          ctx.report({
            messageId: 'wrongType',
            data: { client, key, expected: EXPECTED[form.type] },
            span: value.span,
            ...place,
            ...(fix ? { fixes: [fix] } : {}),
          });
          continue;
        }
        if (form.type === 'stringMap' && isMap(value)) {
          for (const item of value.pairs) {
            const inner = item.value;
            // A nested mapping or list is the client-neutral schema's where it runs.
            if (!inner || (isScalar(inner) && typeof inner.value === 'string') || (typed && !isScalar(inner))) continue;
            const fix = isScalar(inner) ? quoteFix(text, inner) : undefined;
            ctx.report({
              messageId: 'notString',
              data: { client, key, name: keyText(item) },
              span: inner.span,
              ...place,
              ...(fix ? { fixes: [fix] } : {}),
            });
          }
          continue;
        }
        if (form.type === 'number' && isScalar(value) && typeof value.value === 'number') {
          const n = value.value;
          const low = form.min !== undefined && n < form.min;
          const high = form.max !== undefined && n > form.max;
          const notAbove = form.above !== undefined && n <= form.above;
          if (low || high || notAbove)
            ctx.report({
              messageId: 'outOfRange',
              data: { client, key, bounds: boundsOf(form) },
              span: value.span,
              ...place,
            });
          continue;
        }
        if (form.type === 'string' && form.url && isScalar(value) && typeof value.value === 'string') {
          // Beside a `command`, the `url` is client/invalid-transport's (an entry of two transports).
          if (!parsesAsUrl(value.value) && !server.entry?.pairs.some((p) => keyText(p) === 'command'))
            ctx.report({ messageId: 'notUrl', data: { client, key }, span: value.span, ...place });
          continue;
        }
        if (form.type === 'string' && form.nonEmpty && isScalar(value) && value.value === '')
          ctx.report({ messageId: 'empty', data: { client, key }, span: value.span, ...place });
      }
    }
  },
});

/** The settings read from a closed set of values (`valueSets`) set to another value. */
function valueSetFindings(view: ClientView) {
  const sets = entryFactsOf(view)?.valueSets;
  if (!view.client || !sets) return [];
  const client = view.client.label;
  return view.servers.flatMap((server) =>
    sets.flatMap((set) =>
      pairsAt(server.entry, set.path).flatMap(({ key, pair }) => {
        const node = pair.value;
        if (!isScalar(node) || node.value === null) return [];
        const value = String(node.value);
        if (typeof node.value === 'string' && set.values.includes(value)) return [];
        return [
          {
            messageId: 'refused' as const,
            data: { client, key: set.path.at(-1) ?? key, value, accepted: quotedAlternatives(set.values) },
            span: node.span,
            severity: set.severity,
            related: [{ span: server.pair.key.span, message: `${set.effect}.` }],
          },
        ];
      }),
    ),
  );
}

/** The pairs at a path under an entry (`*`: every key of that map), each with its dotted key. */
function pairsAt(entry: Node | null | undefined, path: readonly string[], prefix = ''): { key: string; pair: Pair }[] {
  const [head, ...rest] = path;
  if (head === undefined || !isMap(entry)) return [];
  const pairs = head === '*' ? entry.pairs : [getPair(entry, head)].filter((p): p is Pair => p !== undefined);
  return pairs.flatMap((pair) => {
    const key = `${prefix}${keyText(pair)}`;
    return rest.length === 0 ? [{ key, pair }] : pairsAt(pair.value, rest, `${key}.`);
  });
}

/** A null value (`key:` with nothing after it in YAML, `null` in JSON): left to the client-neutral checks. */
function isNull(node: Node): boolean {
  return isScalar(node) && node.value === null;
}

/** Whether the value has the form's type (its bounds are checked apart). */
function fits(node: Node, form: ValueForm): boolean {
  switch (form.type) {
    case 'string':
      return isScalar(node) && typeof node.value === 'string';
    case 'boolean':
      return isScalar(node) && typeof node.value === 'boolean';
    case 'number':
      return isScalar(node) && typeof node.value === 'number';
    case 'strings':
      return isSeq(node) && node.items.every((item) => isScalar(item) && typeof item.value === 'string');
    case 'stringMap':
      return isMap(node);
  }
}

/**
 * Whether a URL parses as zod's `.url()` parses it (zod v3 ZodString: `new URL(value)`, the WHATWG
 * parser that VS Code's Node runs too). A variable in the host or port (`https://${env:HOST}/mcp`)
 * does not: Roo Code validates the file before it expands variables.
 */
function parsesAsUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** The bounds in words: `from 1 to 3600`, `greater than 0`. */
function boundsOf(form: Extract<ValueForm, { type: 'number' }>): string {
  if (form.above !== undefined) return `greater than ${form.above}`;
  if (form.min !== undefined && form.max !== undefined) return `from ${form.min} to ${form.max}`;
  if (form.min !== undefined) return `at least ${form.min}`;
  return `at most ${form.max}`;
}

/** Quotes a bare number or boolean (`3000` -> `"3000"`): the same text, read as a string. */
function quoteFix(text: string, scalar: ScalarNode): Fix | undefined {
  if (scalar.style !== 'plain' || scalar.shared) return undefined;
  const raw = text.slice(scalar.span.start, scalar.span.end);
  if (!/^[\w.+-]+$/.test(raw)) return undefined;
  return { title: `Quote it: "${raw}"`, safe: true, edits: [{ span: scalar.span, newText: `"${raw}"` }] };
}

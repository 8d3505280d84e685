// envelope/arguments-not-object: arguments that are not an object. Models often send the arguments
// as JSON text (`"arguments": "{\"value\": \"x\"}"`); the runtime wants the object itself and
// refuses the call. Checked: the envelope's inner `arguments`, and the input of any recorded call
// (an MCP tools/call's `arguments` is an object too). When the string parses to an object the fix
// writes that object in the document's own style (JSON text in JSON and JSONL, a flow mapping in
// YAML); that is safe, since the value cannot have meant anything else, where the object then fits
// the tool's schema (it is checked against it only once it is an object).
import { isTemplateString } from '../../jsonschema/arguments.js';
import { describeValue } from '../../text/jsonWords.js';
import { isObject } from '../../jsonschema/properties.js';
import { CALL_KINDS, callsOf, type CallSite } from '../../calls/calls.js';
import { isMap, isNullScalar, isScalar, type MapNode, type Node, type Pair } from '../../parse/nodes.js';
import { editContextOf, flowSeparators, renderString, type EditContext } from '../../edit/mappingEdits.js';
import type { Fix } from '../../types.js';
import { defineRule, type RuleContext } from '../rule.js';
import { argumentsFit } from '../../calls/arguments.js';
import { parseFile } from '../../parse/file.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

const messages = {
  /** `what`: which arguments, in words (`"arguments"`, `the input "input"`). */
  jsonString: ({ subject, what }: { subject: CallSubject; what: string }) =>
    `${subjectWords(subject)}: ${what} is a JSON string: write the object itself. It is JSON text in a string, not an object, and the runtime wants the object itself and refuses the call.`,
  /** `kind`: what the value is instead, in words (`a number`, `empty`). */
  notObject: ({ subject, what, kind }: { subject: CallSubject; what: string; kind: string }) =>
    `${subjectWords(subject)}: ${what} is ${kind}: write a mapping instead. It is not an object, so the runtime refuses the call. The tool's input is a mapping of argument names to values.`,
};

export const rule = defineRule({
  id: 'envelope/arguments-not-object',
  defaultSeverity: 'error',
  summary: 'Arguments that are not an object, such as a JSON string (fix: write the object).',
  kinds: CALL_KINDS,
  messages,
  check(ctx) {
    for (const site of callsOf(ctx).calls) {
      // A recorded call's own input (a step's is the schema rules' business).
      if (site.origin === 'calls' && site.nameText !== undefined && site.argsPair && site.args) {
        const envelope = site.target.kind === 'envelope';
        // A plain call with null arguments sent none; call_dynamic_tool's input must be an object.
        if (!isMap(site.args) && (envelope || !isNullScalar(site.args))) {
          report(
            ctx,
            site,
            site.container,
            site.argsPair,
            site.args,
            envelope ? `the input "${site.argsKey}"` : `"${site.argsKey}"`,
          );
        }
      }
      const field = site.envelope?.fields.arguments;
      if (field?.value && !isMap(field.value)) {
        if (site.templated && isScalar(field.value) && isTemplateString(field.value.value)) continue;
        report(ctx, site, site.envelope!.map, field.pair, field.value, `"${field.key}"`);
      }
    }
  },
});

function report(
  ctx: RuleContext<typeof messages>,
  site: CallSite,
  holder: MapNode,
  pair: Pair,
  value: Node,
  what: string,
): void {
  const edit = editContextOf(ctx.file);
  const parsed = isScalar(value) && typeof value.value === 'string' ? parseObject(value.value) : undefined;
  let fixes: Fix[] = [];
  let kind: string | undefined;
  if (parsed !== undefined) {
    const { colon, comma } = flowSeparators(edit, holder, pair);
    const old = edit.text.slice(value.span.start, value.span.end);
    // A block scalar's span may end with its line break, which stays, and a comment after its
    // `|` header stays on that line.
    const trailing = /[\r\n]\s*$/.exec(old)?.[0] ?? '';
    const header =
      isScalar(value) && (value.style === 'literal' || value.style === 'folded')
        ? (/^[|>][0-9+-]*([^\r\n]*)/.exec(old)?.[1] ?? '')
        : '';
    const written = render(edit, parsed, colon, comma);
    fixes = [
      {
        title: 'Write the arguments as an object',
        safe: fitsOnceWritten(ctx, site, holder, written),
        edits: [{ span: value.span, newText: written + header + trailing }],
      },
    ];
  } else {
    kind =
      isScalar(value) && value.value === null && value.span.start === value.span.end
        ? 'empty'
        : describeValue(isScalar(value) ? value.value : isMap(value) ? {} : []);
  }
  const span = value.span.start < value.span.end ? value.span : pair.key.span;
  if (kind === undefined) ctx.report({ messageId: 'jsonString', data: { subject: site.subject, what }, span, fixes });
  else ctx.report({ messageId: 'notObject', data: { subject: site.subject, what, kind }, span, fixes });
}

/**
 * Whether the object, once written, has nothing new to answer for: the arguments are checked
 * against the tool's schema only once they are an object, so the fix is safe only where they fit
 * it (or no catalogued schema will judge them). call_dynamic_tool's own input becomes an envelope,
 * which the envelope rules then judge whole: a suggestion, always.
 */
function fitsOnceWritten(ctx: RuleContext<typeof messages>, site: CallSite, holder: MapNode, written: string): boolean {
  if (site.target.kind === 'envelope' && holder === site.container) return false;
  const tool = site.target.kind === 'envelope' ? site.tool : site.target.kind === 'tool' ? site.target.tool : undefined;
  if (!tool || tool.inputSchema === undefined) return true;
  const node = parseFile('arguments.yaml', written).documents[0]?.root ?? undefined;
  return node !== undefined && argumentsFit(ctx, site, tool, node);
}

/** The object a string holds as JSON text, or undefined (not JSON, not an object, or numbers JS would round). */
function parseObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    // Not JSON: the rule still reports the string, without a fix.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  if (!isObject(value)) return undefined;
  // Integers beyond 2^53 would change when parsed and written back.
  if (/(^|[^0-9.eE+-])[0-9]{16,}/.test(trimmed.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) return undefined;
  return value;
}

/** A JSON value as flow text: JSON in JSON files, YAML flow (plain strings where they read back the same) in YAML. */
function render(edit: EditContext, value: unknown, colon: string, comma: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => render(edit, v, colon, comma)).join(comma)}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${renderString(edit, k)}${colon}${render(edit, v, colon, comma)}`)
      .join(comma)}}`;
  if (typeof value === 'string') return renderString(edit, value);
  return JSON.stringify(value) ?? 'null';
}

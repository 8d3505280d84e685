// envelope/bare-dynamic-name: a dynamic tool called by its bare name. It lives only in a namespace,
// never in a tool list, so the runtime's dispatcher answers "Unknown tool". The fix rewrites the call
// into the call_dynamic_tool envelope as a minimal edit, from the parsed call and the shared edit
// helpers (edit/mappingEdits.ts, edit/nestEdits.ts): the name is replaced in its own quoting, the
// envelope keys are inserted around the original arguments, and those arguments keep their text,
// comments and layout (in YAML block style their lines only move right by one indentation step).
import type { DynamicNamespace } from '../../catalog/model.js';
import { CALL_KINDS, callsOf, MCP_DETAILS_PLACEHOLDER, type CallSite } from '../../calls/calls.js';
import { isMap, isScalar, type Node, type ScalarNode } from '../../parse/nodes.js';
import {
  editContextOf,
  flowSeparators,
  insertPairs,
  ownLineInsertion,
  renderStringAs,
  replaceScalarText,
  replaceValueText,
  type EditContext,
  type InsertEntry,
} from '../../edit/mappingEdits.js';
import { flowSafePlain, hasProperties, nestBlockMap, spansLines, wrapValue } from '../../edit/nestEdits.js';
import { byCount, quotedList } from '../../text/words.js';
import type { Fix, TextEdit } from '../../types.js';
import { defineRule } from '../rule.js';
import type { DocumentContext } from '../../context.js';
import { argumentsFit } from '../../calls/arguments.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

export const rule = defineRule({
  id: 'envelope/bare-dynamic-name',
  defaultSeverity: 'error',
  summary: 'A dynamic tool called by its bare name, which the runtime does not know (fix: rewrite into the envelope).',
  kinds: CALL_KINDS,
  messages: {
    /**
     * `envelope`: the envelope tool as the call should name it; `namespaces`: those that hold the
     * tool (each with whether it is external and its status).
     */
    bareName: ({
      subject,
      envelope,
      tool,
      server,
      namespaces,
    }: {
      subject: CallSubject;
      envelope: string;
      tool: string;
      server: string;
      namespaces: readonly DynamicNamespace[];
    }) => {
      const where =
        namespaces.length === 1
          ? `namespace "${namespaces[0]!.name}"`
          : `namespaces ${quotedList(namespaces.map((n) => n.name))}`;
      const notes: string[] = [];
      const external = namespaces.filter((n) => n.external);
      if (external.length) {
        notes.push(
          `${quotedList(external.map((n) => n.name))} ${byCount(external.length, 'is an external namespace', 'are external namespaces')}, so the envelope must also carry mcpDetails.description saying why the call is made.`,
        );
      }
      for (const ns of namespaces)
        if (ns.status !== 'ready')
          notes.push(
            `Namespace "${ns.name}" is "${ns.status}", so the runtime refuses calls into it until it is ready.`,
          );
      return (
        `${subjectWords(subject)} names a dynamic tool: call it through ${envelope}. ` +
        `"${tool}" is a dynamic tool of server "${server}", kept in ${where} and in no tool list, so the runtime ` +
        `answers "Unknown tool" to its bare name. Call it with the namespace, toolName "${tool}" and its own input under "arguments"` +
        `${namespaces.length > 1 ? ' (pick the namespace you mean)' : ''}.` +
        (notes.length ? ` ${notes.join(' ')}` : '')
      );
    },
  },
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const site of callsOf(ctx).calls) {
      const target = site.target;
      if (target.kind !== 'dynamic' || !site.name) continue;
      const namespaces = target.namespaces;
      const envelope = site.origin === 'step' ? `"${target.envelopeName ?? 'call_dynamic_tool'}"` : 'call_dynamic_tool';
      const fixes: Fix[] = [];
      if (target.envelopeName !== undefined) {
        for (const ns of namespaces) {
          const edits = wrapIntoEnvelope(edit, site, target.envelopeName, ns, target.toolName);
          if (!edits) continue;
          fixes.push({
            title: `Call through ${target.envelopeName} in namespace "${ns.name}"${ns.external ? ' (write why in mcpDetails.description)' : ''}`,
            // Safe only when there is nothing to choose and nothing to fill in, and nothing the call
            // holds meets the dynamic tool for the first time: the runtime refuses an envelope into
            // a namespace that is not ready, or with arguments the tool's schema refuses, and a
            // recorded result is checked against the tool's outputSchema only once the call names
            // it. Otherwise a suggestion, whose errors the user then sees.
            safe:
              namespaces.length === 1 &&
              !ns.external &&
              ns.status === 'ready' &&
              site.result === undefined &&
              argumentsFitTool(ctx, site, ns, target.toolName),
            edits,
          });
        }
      }
      ctx.report({
        messageId: 'bareName',
        data: { subject: site.subject, envelope, tool: target.toolName, server: target.server.name, namespaces },
        span: site.name.span,
        fixes,
      });
    }
  },
});

/** Whether the call's arguments fit the dynamic tool's schema as they are (no schema known: nothing to refuse them). */
function argumentsFitTool(ctx: DocumentContext, site: CallSite, ns: DynamicNamespace, toolName: string): boolean {
  const tool = ns.tools.find((t) => t.name === toolName);
  if (!tool || tool.inputSchema === undefined) return true;
  return argumentsFit(ctx, site, tool);
}

/** How inserted keys and strings are written, copied from the call as the user wrote it. */
interface Style {
  json: boolean;
  /** Between a key and its value in flow text: `: `, or `:` in compact JSON. */
  colon: string;
  /** Between entries in flow text: `, `, or `,` in compact JSON. */
  comma: string;
  key: (name: string) => string;
  str: (value: string) => string;
}

function styleOf(edit: EditContext, site: CallSite, name: ScalarNode): Style {
  const { colon, comma } = flowSeparators(edit, site.container, site.namePair);
  const keyStyle = site.namePair?.key.style;
  return {
    json: edit.json,
    colon,
    comma,
    key: (k) => renderStringAs(edit, k, keyStyle),
    str: (v) => renderStringAs(edit, v, name.style),
  };
}

/** `{namespace: x, toolName: y` (without its closing brace), and the mcpDetails entry when needed. */
function envelopeHead(style: Style, ns: DynamicNamespace, toolName: string): string {
  const { key, str, colon, comma } = style;
  return `{${key('namespace')}${colon}${str(ns.name)}${comma}${key('toolName')}${colon}${str(toolName)}`;
}

function mcpDetailsFlow(style: Style): string {
  const { key, colon } = style;
  return `${key('mcpDetails')}${colon}{${key('description')}${colon}${JSON.stringify(MCP_DETAILS_PLACEHOLDER)}}`;
}

/** The edits that turn the call into the envelope for one namespace; undefined when the layout is uncertain. */
function wrapIntoEnvelope(
  edit: EditContext,
  site: CallSite,
  envelopeName: string,
  ns: DynamicNamespace,
  toolName: string,
): TextEdit[] | undefined {
  const name = site.name;
  if (!name) return undefined;
  const rename = replaceScalarText(edit, name, envelopeName);
  if (!rename) return undefined;
  const style = styleOf(edit, site, name);
  const args = site.args;
  const rest = argumentEdits(edit, style, site, args, ns, toolName);
  return rest ? [rename, ...rest] : undefined;
}

function argumentEdits(
  edit: EditContext,
  style: Style,
  site: CallSite,
  args: Node | undefined,
  ns: DynamicNamespace,
  toolName: string,
): TextEdit[] | undefined {
  const head = envelopeHead(style, ns, toolName);
  const tail = ns.external ? `${style.comma}${mcpDetailsFlow(style)}}` : '}';

  // No arguments at all: add the arguments key holding the envelope, after the name.
  if (args === undefined) {
    if (site.argsPair) return undefined; // a key without a value node: nothing certain to edit
    return addArgumentsKey(edit, style, site, `${head}${tail}`, ns, toolName);
  }
  // `input: null` / `"arguments": null` / `input:` and nothing: the envelope takes the null's place.
  if (isScalar(args) && args.value === null) {
    const replacement = replaceValueText(edit, args, `${head}${tail}`);
    return replacement ? [replacement] : undefined;
  }
  // An anchor or tag on the arguments would move to the envelope and change what its aliases mean.
  if (site.argsPair && hasProperties(edit, site.argsPair, args)) return undefined;
  const blockMap = isMap(args) && !args.flow && !edit.json;
  if (!blockMap) {
    // Flow mappings, JSON, and one-line values: the wrapper goes around the text as written.
    if (isScalar(args) && (args.style === 'literal' || args.style === 'folded')) return undefined;
    if (!edit.json && !isMap(args) && spansLines(edit, args.span)) return undefined;
    // A YAML plain scalar may hold commas or brackets that mean something else inside a flow mapping.
    if (!edit.json && isScalar(args) && !flowSafePlain(edit, args)) return undefined;
    if (!edit.json && !isMap(args) && !isScalar(args) && !args.flow) return undefined;
    return wrapValue(args, `${head}${style.comma}${style.key('arguments')}${style.colon}`, tail);
  }
  if (!site.argsPair) return undefined;
  const { key, str } = style;
  const after = ns.external
    ? [{ key: key('mcpDetails'), lines: [{ key: key('description'), value: JSON.stringify(MCP_DETAILS_PLACEHOLDER) }] }]
    : [];
  return nestBlockMap(
    edit,
    site.argsPair,
    args,
    [
      { key: key('namespace'), value: str(ns.name) },
      { key: key('toolName'), value: str(toolName) },
    ],
    key('arguments'),
    after,
  );
}

/** A call written without arguments: `arguments: {namespace: ..., toolName: ...}` after its name. */
function addArgumentsKey(
  edit: EditContext,
  style: Style,
  site: CallSite,
  flow: string,
  ns: DynamicNamespace,
  toolName: string,
): TextEdit[] | undefined {
  const container = site.container;
  const after = site.namePair;
  if (!after?.value) return undefined;
  const oneLine = !spansLines(edit, container.span);
  if ((container.flow || edit.json) && oneLine) {
    const at = Math.max(after.span.end, after.value.span.end);
    return [{ span: { start: at, end: at }, newText: `${style.comma}${style.key(site.argsKey)}${style.colon}${flow}` }];
  }
  if (container.flow || edit.json) {
    const own = ownLineInsertion(edit, container, after, `${style.key(site.argsKey)}${style.colon}${flow}`);
    if (own) return own;
  }
  const entries: InsertEntry[] = [
    { key: 'namespace', value: { inline: style.str(ns.name) } },
    { key: 'toolName', value: { inline: style.str(toolName) } },
  ];
  if (ns.external)
    entries.push({
      key: 'mcpDetails',
      value: { entries: [{ key: 'description', value: { inline: JSON.stringify(MCP_DETAILS_PLACEHOLDER) } }] },
    });
  const value = container.flow || edit.json ? { inline: flow } : { entries };
  const insertion = insertPairs(edit, container, [{ key: site.argsKey, value }], after);
  return insertion ? [insertion] : undefined;
}

// envelope/unknown-namespace: an envelope that reaches no dynamic tool: it names no namespace, a
// namespace the server does not have, or (in a known namespace) no tool or a tool the namespace
// does not hold. There is no separate id for the unknown tool in a known namespace; it is
// reported here, since both are the runtime's "not found" refusal of the envelope's address.
import { CALL_KINDS, callsOf, namespaceNames, namespaceToolNames } from '../../calls/calls.js';
import { homesOf } from '../../catalog/index.js';
import { isScalar, type Node } from '../../parse/nodes.js';
import { editContextOf, replaceScalarFixes } from '../../edit/mappingEdits.js';
import { byCount, quotedAlternatives, quotedList } from '../../text/words.js';
import type { Fix, Span } from '../../types.js';
import { defineRule } from '../rule.js';
import type { DynamicNamespace } from '../../catalog/model.js';
import { choiceHeadline } from '../../wording/headlines.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

/** How an envelope field is wrong: left out, empty, or not a string. */
type FieldProblem = 'missing' | 'empty' | 'notAName';

function fieldProblem(field: unknown, value: Node | null | undefined): FieldProblem {
  if (!field) return 'missing';
  return isScalar(value) && typeof value.value === 'string' ? 'empty' : 'notAName';
}

const NAMESPACE_PROBLEM: Record<FieldProblem, string> = {
  missing: 'names no namespace',
  empty: 'has an empty namespace',
  notAName: 'has a namespace that is not a name',
};

const TOOL_PROBLEM: Record<FieldProblem, string> = {
  missing: 'names no tool (toolName)',
  empty: 'has an empty toolName',
  notAName: 'has a toolName that is not a name (it must be a non-empty string)',
};

/** The tools a namespace holds, by name; undefined when it declares none. */
function toolsOf(namespace: DynamicNamespace): readonly string[] | undefined {
  return namespace.tools.length ? namespaceToolNames(namespace) : undefined;
}

function holds(tools: readonly string[] | undefined): string {
  return tools ? quotedList(tools) : 'no tools';
}

const messages = {
  /** `problem`: the namespace is left out, empty, or not a string; `known`: the namespaces there are. */
  noNamespace: ({
    subject,
    problem,
    known,
  }: {
    subject: CallSubject;
    problem: FieldProblem;
    known: readonly string[];
  }) =>
    `${subjectWords(subject)}: the envelope ${NAMESPACE_PROBLEM[problem]}: name the namespace. ${problem === 'notAName' ? 'It must be a non-empty string. ' : ''}The runtime refuses it before looking for the tool.` +
    (known.length ? ` The known namespaces are ${quotedList(known)}.` : ''),
  /**
   * `homes`: the namespaces that hold the tool the envelope names; `suggestions`: near spellings of
   * the namespace; `servers`: the servers looked in; `known`: their namespaces.
   */
  unknownNamespace: (d: {
    subject: CallSubject;
    namespace: string;
    tool: string | undefined;
    homes: readonly string[];
    suggestions: readonly string[];
    servers: readonly string[];
    known: readonly string[];
  }) => {
    const choices = [...new Set([...d.homes, ...d.suggestions])];
    const typos = d.suggestions.filter((n) => !d.homes.includes(n));
    const head = `${subjectWords(d.subject)}: no namespace "${d.namespace}":`;
    const several =
      d.homes.length !== 1 && choices.length > 1
        ? choiceHeadline(
            `${head} did you mean ${quotedAlternatives(choices)}?`,
            `${head} use a namespace of the server.`,
          )
        : undefined;
    const headline =
      d.homes.length === 1
        ? `${head} use "${d.homes[0]!}".`
        : choices.length === 1
          ? `${head} did you mean "${choices[0]!}"?`
          : (several?.headline ?? `${head} use a namespace of the server.`);
    const sentences = [
      headline,
      `${byCount(d.servers.length, 'Server', 'Servers')} ${quotedList(d.servers)} ${byCount(d.servers.length, 'has', 'have')} no namespace ` +
        `"${d.namespace}", so the runtime answers "namespace not found".`,
    ];
    if (d.homes.length)
      sentences.push(
        `Tool "${d.tool}" is in ${byCount(d.homes.length, 'namespace', 'namespaces')} ${quotedList([...new Set(d.homes)])}.`,
      );
    if (typos.length && !(d.homes.length === 0 && choices.length === 1) && !several?.listed)
      sentences.push(`Did you mean ${quotedAlternatives(typos)}?`);
    else if (!d.homes.length)
      sentences.push(d.known.length ? `The namespaces are ${quotedList(d.known)}.` : 'There are no namespaces.');
    return sentences.join(' ');
  },
  /** `problem`: toolName is left out, empty, or not a string; `tools`: what the namespace holds. */
  noTool: ({
    subject,
    problem,
    namespace,
    tools,
  }: {
    subject: CallSubject;
    problem: FieldProblem;
    namespace: string;
    tools: readonly string[] | undefined;
  }) =>
    `${subjectWords(subject)}: the envelope ${TOOL_PROBLEM[problem]}: name the tool in toolName. The runtime refuses it. Namespace "${namespace}" holds ` +
    `${holds(tools)}.`,
  /**
   * `elsewhere`: other namespaces that hold the tool; `listed`: it is a listed tool of `server`;
   * `suggestions`: near names in the namespace; `tools`: what the namespace holds.
   */
  unknownTool: (d: {
    subject: CallSubject;
    namespace: string;
    tool: string | undefined;
    elsewhere: readonly string[];
    listed: boolean;
    server: string;
    suggestions: readonly string[];
    tools: readonly string[] | undefined;
  }) => {
    const notes: string[] = [];
    if (d.elsewhere.length)
      notes.push(`It is in ${byCount(d.elsewhere.length, 'namespace', 'namespaces')} ${quotedList(d.elsewhere)}.`);
    if (d.listed)
      notes.push(
        `"${d.tool}" is a listed tool of server "${d.server}": call it directly, not through call_dynamic_tool.`,
      );
    if (d.suggestions.length) notes.push(`Did you mean ${quotedAlternatives(d.suggestions)}?`);
    else if (!d.elsewhere.length && !d.listed) notes.push(`The namespace holds ${holds(d.tools)}.`);
    return (
      `${subjectWords(d.subject)}: namespace "${d.namespace}" has no such tool: ${toolAdvice(d)} ` +
      `It has no tool "${d.tool}", so the runtime answers "tool not found". ${notes.join(' ')}`
    ).trimEnd();
  },
};

export const rule = defineRule({
  id: 'envelope/unknown-namespace',
  defaultSeverity: 'error',
  summary: 'An envelope whose namespace (or tool in the namespace) does not exist.',
  kinds: CALL_KINDS,
  messages,
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const site of callsOf(ctx).calls) {
      const envelope = site.envelope;
      if (!envelope) continue;
      const r = envelope.resolution;
      const nsField = envelope.fields.namespace;
      const toolField = envelope.fields.toolName;
      const envelopeSpan: Span | undefined = site.argsPair?.key.span ?? site.name?.span;
      const replace = (
        node: Node | null | undefined,
        values: readonly string[],
        title: (v: string) => string,
      ): Fix[] => (isScalar(node) ? replaceScalarFixes(edit, node, values.slice(0, 3), title) : []);
      switch (r.kind) {
        case 'no-namespace': {
          const value = nsField?.value;
          const span =
            value && value.span.start < value.span.end ? value.span : (nsField?.pair.key.span ?? envelopeSpan);
          if (!span) break;
          const servers = site.target.kind === 'envelope' ? site.target.servers : [];
          ctx.report({
            messageId: 'noNamespace',
            data: { subject: site.subject, problem: fieldProblem(nsField, value), known: namespaceNames(servers) },
            span,
          });
          break;
        }
        case 'unknown-namespace': {
          const value = nsField?.value;
          if (!value) break;
          // The namespace that holds the named tool is the likeliest meant, before near spellings.
          const toolName = envelope.toolNameText;
          const homes =
            toolName === undefined
              ? []
              : r.servers.flatMap((s) =>
                  homesOf(s, toolName)
                    .filter((n) => n.name.trim() !== '')
                    .map((n) => n.name),
                );
          const choices = [...new Set([...homes, ...r.suggestions])];
          ctx.report({
            messageId: 'unknownNamespace',
            data: {
              subject: site.subject,
              namespace: String(envelope.namespaceText),
              tool: envelope.toolNameText,
              homes,
              suggestions: r.suggestions,
              servers: r.servers.map((s) => s.name),
              known: namespaceNames(r.servers),
            },
            span: value.span,
            fixes: replace(value, choices, (v) => `Change the namespace to "${v}"`),
          });
          break;
        }
        case 'no-tool': {
          const value = toolField?.value;
          const span =
            value && value.span.start < value.span.end ? value.span : (toolField?.pair.key.span ?? envelopeSpan);
          if (!span) break;
          ctx.report({
            messageId: 'noTool',
            data: {
              subject: site.subject,
              problem: fieldProblem(toolField, value),
              namespace: r.namespace.name,
              tools: toolsOf(r.namespace),
            },
            span,
          });
          break;
        }
        case 'unknown-tool': {
          const value = toolField?.value;
          if (!value) break;
          ctx.report({
            messageId: 'unknownTool',
            data: {
              subject: site.subject,
              namespace: r.namespace.name,
              tool: envelope.toolNameText,
              elsewhere: r.elsewhere.map((n) => n.name),
              listed: r.listed,
              server: r.server.name,
              suggestions: r.suggestions,
              tools: toolsOf(r.namespace),
            },
            span: value.span,
            fixes: [
              ...replace(value, r.suggestions, (v) => `Change the tool to "${v}"`),
              ...replace(
                nsField?.value,
                r.elsewhere.map((n) => n.name),
                (v) => `Change the namespace to "${v}"`,
              ),
            ],
          });
          break;
        }
        default:
          break;
      }
    }
  },
});

/** What the headline of an unknown dynamic tool advises; the notes after it say where it is. */
function toolAdvice(r: { elsewhere: readonly unknown[]; listed: boolean; suggestions: readonly string[] }): string {
  if (r.listed) return 'call it directly.';
  if (r.elsewhere.length) return 'change the namespace.';
  if (r.suggestions.length === 1) return `did you mean "${r.suggestions[0]!}"?`;
  return 'use a tool the namespace holds.';
}

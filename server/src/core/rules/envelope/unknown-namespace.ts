// envelope/unknown-namespace: an envelope that reaches no dynamic tool: it names no namespace, a
// namespace the server does not have, or (in a known namespace) no tool or a tool the namespace
// does not hold. There is no separate id for the unknown tool in a known namespace; it is
// reported here, since both are the runtime's "not found" refusal of the envelope's address.
import { CALL_KINDS, callsOf, namespaceNames, namespaceToolNames } from '../../calls/calls.js';
import { homesOf } from '../../catalog/index.js';
import { isScalar, type Node } from '../../parse/nodes.js';
import { editContextOf, replaceScalarFixes } from '../../edit/mappingEdits.js';
import { quotedAlternatives, quotedList } from '../../text/words.js';
import type { Fix, Span } from '../../types.js';
import type { Rule } from '../rule.js';
import { subjectWords } from '../../wording/callSubjects.js';

export const rule: Rule = {
  id: 'envelope/unknown-namespace',
  defaultSeverity: 'error',
  summary: 'An envelope whose namespace (or tool in the namespace) does not exist.',
  kinds: CALL_KINDS,
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const site of callsOf(ctx).calls) {
      const envelope = site.envelope;
      if (!envelope) continue;
      const r = envelope.resolution;
      const nsField = envelope.fields.namespace;
      const toolField = envelope.fields.toolName;
      const envelopeSpan: Span | undefined = site.argsPair?.key.span ?? site.name?.span;
      const replace = (node: Node | null | undefined, values: readonly string[], title: (v: string) => string): Fix[] =>
        isScalar(node) ? replaceScalarFixes(edit, node, values.slice(0, 3), title) : [];
      switch (r.kind) {
        case 'no-namespace': {
          const value = nsField?.value;
          const span = value && value.span.start < value.span.end ? value.span : (nsField?.pair.key.span ?? envelopeSpan);
          if (!span) break;
          const what = !nsField
            ? 'names no namespace'
            : isScalar(value) && typeof value.value === 'string'
              ? 'has an empty namespace'
              : `has a namespace that is not a name`;
          const servers = site.target.kind === 'envelope' ? site.target.servers : [];
          const known = namespaceNames(servers);
          ctx.report({
            message:
              `${subjectWords(site.subject)}: the envelope ${what}: name the namespace. ${what === 'has a namespace that is not a name' ? 'It must be a non-empty string. ' : ''}The runtime refuses it before looking for the tool.` +
              (known.length ? ` The known namespaces are ${quotedList(known)}.` : ''),
            span,
          });
          break;
        }
        case 'unknown-namespace': {
          const value = nsField?.value;
          if (!value) break;
          const known = namespaceNames(r.servers);
          // The namespace that holds the named tool is the likeliest meant, before near spellings.
          const toolName = envelope.toolNameText;
          const homes = toolName === undefined ? [] : r.servers.flatMap((s) => homesOf(s, toolName).filter((n) => n.name.trim() !== '').map((n) => n.name));
          const choices = [...new Set([...homes, ...r.suggestions])];
          const servers = quotedList(r.servers.map((s) => s.name));
          const typos = r.suggestions.filter((n) => !homes.includes(n));
          const advice = homes.length === 1 ? `use "${homes[0]!}".` : choices.length === 1 ? `did you mean "${choices[0]!}"?` : choices.length ? 'use one of those below.' : 'use one of those below.';
          const sentences = [
            `${subjectWords(site.subject)}: no namespace "${envelope.namespaceText}": ${advice}`,
            `${r.servers.length === 1 ? 'Server' : 'Servers'} ${servers} ${r.servers.length === 1 ? 'has' : 'have'} no namespace ` +
              `"${envelope.namespaceText}", so the runtime answers "namespace not found".`,
          ];
          if (homes.length) sentences.push(`Tool "${envelope.toolNameText}" is in ${homes.length === 1 ? 'namespace' : 'namespaces'} ${quotedList([...new Set(homes)])}.`);
          if (typos.length && !(homes.length === 0 && choices.length === 1)) sentences.push(`Did you mean ${quotedAlternatives(typos)}?`);
          else if (!homes.length) sentences.push(known.length ? `The namespaces are ${quotedList(known)}.` : 'There are no namespaces.');
          ctx.report({
            message: sentences.join(' '),
            span: value.span,
            fixes: replace(value, choices, (v) => `Change the namespace to "${v}"`),
          });
          break;
        }
        case 'no-tool': {
          const value = toolField?.value;
          const span = value && value.span.start < value.span.end ? value.span : (toolField?.pair.key.span ?? envelopeSpan);
          if (!span) break;
          const what = !toolField ? 'names no tool (toolName)' : isScalar(value) && typeof value.value === 'string' ? 'has an empty toolName' : 'has a toolName that is not a name (it must be a non-empty string)';
          ctx.report({
            message:
              `${subjectWords(site.subject)}: the envelope ${what}: name the tool in toolName. The runtime refuses it. Namespace "${r.namespace.name}" holds ` +
              `${r.namespace.tools.length ? quotedList(namespaceToolNames(r.namespace)) : 'no tools'}.`,
            span,
          });
          break;
        }
        case 'unknown-tool': {
          const value = toolField?.value;
          if (!value) break;
          const notes: string[] = [];
          if (r.elsewhere.length) notes.push(`It is in ${r.elsewhere.length === 1 ? 'namespace' : 'namespaces'} ${quotedList(r.elsewhere.map((n) => n.name))}.`);
          if (r.listed) notes.push(`"${envelope.toolNameText}" is a listed tool of server "${r.server.name}": call it directly, not through call_dynamic_tool.`);
          if (r.suggestions.length) notes.push(`Did you mean ${quotedAlternatives(r.suggestions)}?`);
          else if (!r.elsewhere.length && !r.listed) notes.push(`The namespace holds ${r.namespace.tools.length ? quotedList(namespaceToolNames(r.namespace)) : 'no tools'}.`);
          ctx.report({
            message:
              `${subjectWords(site.subject)}: namespace "${r.namespace.name}" has no such tool: ${toolAdvice(r)} ` +
              `It has no tool "${envelope.toolNameText}", so the runtime answers "tool not found". ${notes.join(' ')}`.trimEnd(),
            span: value.span,
            fixes: [
              ...replace(value, r.suggestions, (v) => `Change the tool to "${v}"`),
              ...replace(nsField?.value, r.elsewhere.map((n) => n.name), (v) => `Change the namespace to "${v}"`),
            ],
          });
          break;
        }
        default:
          break;
      }
    }
  },
};

/** What the headline of an unknown dynamic tool advises; the notes after it say where it is. */
function toolAdvice(r: { elsewhere: readonly unknown[]; listed: boolean; suggestions: readonly string[] }): string {
  if (r.listed) return 'call it directly.';
  if (r.elsewhere.length) return 'change the namespace.';
  if (r.suggestions.length === 1) return `did you mean "${r.suggestions[0]!}"?`;
  return r.suggestions.length ? 'use one of the names below.' : 'use a tool the namespace holds.';
}

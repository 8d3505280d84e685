// tool/unknown: a tool the gateway or the catalog cannot route. In a workflow, a step's `tool`:
// ToolHive says nothing at load time; when a session lists tools it silently leaves the whole
// composite tool out. A reference to a workload without a catalog is unknown, not wrong: reported at
// info with how to add the catalog. In a calls document: a called name the catalog does not have
// (resolved in calls/calls.ts; said once, on `server:`, when the named server has no catalog).
import { CALL_KINDS, callsOf } from '../../calls/calls.js';
import type { DocumentContext } from '../../context.js';
import { editContextOf, replaceScalarFixes, type EditContext } from '../../edit/mappingEdits.js';
import type { ToolRefResolution } from '../../gateway/gateway.js';
import { serverNote, unresolvedWords } from '../../gateway/words.js';
import { toolStepsOf } from '../../gateway/steps.js';
import type { ScalarNode } from '../../parse/nodes.js';
import { listWords, quotedAlternatives, quotedList } from '../../text/words.js';
import type { Fix } from '../../types.js';
import { addCatalogAdvice, addCatalogAdviceFor } from '../../wording/catalogAdvice.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';
import { defineRule, type Report } from '../rule.js';

const messages = {
  /** A step's tool reference resolves to no tool, or to several (`workflow`: the composite tool's name). */
  unresolved: ({
    stepId,
    resolution,
    workflow,
  }: {
    stepId: string;
    resolution: Extract<ToolRefResolution, { kind: 'unresolved' }>;
    workflow: string | undefined;
  }) => unresolvedMessage(stepId, resolution, workflow),
  /** A step's tool may belong to a workload without a catalog: not known to be wrong. */
  noCatalog: ({
    stepId,
    resolution,
  }: {
    stepId: string;
    resolution: Extract<ToolRefResolution, { kind: 'no-catalog' }>;
  }) => noCatalogMessage(stepId, resolution),
  /** The calls document's `server:` has no catalog: said once, there. */
  serverWithoutCatalog: ({ server }: { server: string }) =>
    `Server "${server}" has no catalog: add one to check these calls. ` +
    'Without it Tool Lens cannot check the tool names, arguments or results of these calls. ' +
    addCatalogAdvice(server),
  /** `servers`: the catalogued servers that all have the called name. */
  ambiguousCall: ({ subject, name, servers }: { subject: CallSubject; name: string; servers: readonly string[] }) =>
    `${subjectWords(subject)}: several servers have this tool: name one with a top-level "server:" key. ` +
    `${quotedList(servers)} all answer to "${name}", and this document does not say which ` +
    `server it calls, so Tool Lens checks the call against none of them.`,
  /** The named server's catalog has no such tool. */
  notOnServer: ({
    subject,
    name,
    server,
    suggestions,
  }: {
    subject: CallSubject;
    name: string;
    server: string;
    suggestions: readonly string[];
  }) =>
    `${subjectWords(subject)}: server "${server}" has no such tool: ${fixWords(suggestions, 'fix the name')} ` +
    `Its catalog lists no tool "${name}", listed or dynamic, so the call fails ` +
    `with "Unknown tool".${alternativesSentence(suggestions)}`,
  /** No catalogued server has the called name: it may be a server's without a catalog. */
  inNoCatalog: ({
    subject,
    name,
    suggestions,
  }: {
    subject: CallSubject;
    name: string;
    suggestions: readonly string[];
  }) =>
    `${subjectWords(subject)}: no catalog has this tool: add its server's catalog, or name it in "server:". ` +
    `No catalogued server has a tool "${name}"; it may belong to a server Tool Lens has no catalog for, ` +
    `so the call is not checked.${suggestions.length ? ` Did you mean ${quotedAlternatives(suggestions.slice(0, 3))}?` : ''}`,
  /** The workspace has no catalog at all: said once, on the first call. */
  noCatalogs: ({ subject }: { subject: CallSubject }) =>
    `${subjectWords(subject)}: the workspace has no catalog: add one to check these calls. ` +
    'Without one Tool Lens cannot check the tool names, arguments or results of these calls. ' +
    'Add a "catalog: 1" snapshot or a saved tools/list result.',
};

export const rule = defineRule({
  id: 'tool/unknown',
  defaultSeverity: 'warning',
  summary: 'A step or call names a tool the gateway or catalog cannot route (info when its server has no catalog).',
  kinds: CALL_KINDS,
  messages,
  check(ctx) {
    if (ctx.doc.kind === 'tool-calls') {
      for (const report of callsDocumentReports(ctx)) ctx.report(report);
      return;
    }
    const edit = editContextOf(ctx.file);
    for (const { workflow, step: resolved } of toolStepsOf(ctx)) {
      const { resolution, step, stepId } = resolved;
      const scalar = step.tool;
      if (!resolution || !scalar) continue;
      if (resolution.kind === 'unresolved') {
        ctx.report({
          messageId: 'unresolved',
          data: { stepId, resolution, workflow: workflow.nameText },
          span: scalar.span,
          fixes: didYouMean(edit, scalar, resolution.suggestions),
          // The composite's fate: left out before its annotations are read (annotations/contradiction
          // then says nothing a fixed step could mend).
          ...(resolution.problem !== 'conflict' && workflow.name
            ? {
                related: [
                  {
                    span: workflow.name.span,
                    message: `composite tool "${workflow.nameText ?? ''}" is left out of every session's tool list while this step does not resolve`,
                  },
                ],
              }
            : {}),
        });
      } else if (resolution.kind === 'no-catalog') {
        ctx.report({
          messageId: 'noCatalog',
          data: { stepId, resolution },
          span: scalar.span,
          severity: 'info',
          fixes: didYouMean(edit, scalar, resolution.suggestions),
        });
      }
      // `dynamic` belongs to the envelope rules; `resolved` is fine.
    }
  },
});

function unresolvedMessage(
  stepId: string,
  resolution: Extract<ToolRefResolution, { kind: 'unresolved' }>,
  workflowName: string | undefined,
): string {
  const what = resolution.problem === 'conflict' ? `"${resolution.ref}" is ambiguous:` : `no tool "${resolution.ref}";`;
  const subject = `Step "${stepId}": ${what} ${fixWords(resolution.suggestions, 'fix the reference')} Tool "${resolution.ref}" does not resolve: `;
  const consequence =
    resolution.problem === 'conflict'
      ? ''
      : ` ToolHive cannot route this step, so it leaves the composite tool${workflowName ? ` "${workflowName}"` : ''} out of every session's tool list, and only its log says why.`;
  return `${subject}${unresolvedWords(resolution)}.${consequence}${alternativesSentence(resolution.suggestions)}`;
}

/** The headline's advice: the one likely name as a question, else `otherwise`. */
function fixWords(suggestions: readonly string[], otherwise: string): string {
  if (suggestions.length === 1) return `did you mean "${suggestions[0]!}"?`;
  if (suggestions.length > 1) return 'use one of the close names below.';
  return `${otherwise}.`;
}

/** Several close names, after the why (one is asked in the headline). */
function alternativesSentence(suggestions: readonly string[]): string {
  return suggestions.length > 1 ? ` Did you mean ${quotedAlternatives(suggestions.slice(0, 3))}?` : '';
}

function noCatalogMessage(stepId: string, resolution: Extract<ToolRefResolution, { kind: 'no-catalog' }>): string {
  const ref = `Tool "${resolution.ref}"`;
  const opaque = resolution.workloads.filter((w) => w.reason === 'opaque');
  const missing = resolution.workloads.filter((w) => w.reason === 'no-catalog');
  if (missing.length === 0 && opaque.length > 0) {
    return (
      `Step "${stepId}": Tool Lens cannot check tool "${resolution.ref}" (an MCPToolConfig may name it). ` +
      `It matches no tool Tool Lens knows, but it may be the name that a Kubernetes MCPToolConfig gives a tool of ` +
      `${listWords(opaque.map((w) => `"${w.name}"`))}; Tool Lens cannot read that resource, so it cannot check this reference.` +
      suggestionSentence(resolution.suggestions)
    );
  }
  let who: string;
  if (missing.length === 0) who = 'is in no catalog; it may belong to a backend that Tool Lens has no catalog for';
  else if (missing.length === 1)
    who = `belongs to workload "${missing[0]!.name}"${serverNote(missing[0]!)}, which has no catalog`;
  else who = `may belong to ${listWords(missing.map((w) => `"${w.name}"`))}, which have no catalog`;
  const headline =
    missing.length === 1
      ? `Step "${stepId}": workload "${missing[0]!.name}" has no catalog: add one to check this step.`
      : `Step "${stepId}": tool "${resolution.ref}" is in no catalog: add its server's to check it.`;
  return (
    `${headline} ${ref} ${who}, so Tool Lens cannot check the name, its arguments or its annotations. ` +
    addCatalogAdviceFor(missing) +
    suggestionSentence(resolution.suggestions)
  );
}

function suggestionSentence(suggestions: readonly string[]): string {
  return suggestions.length ? ` Did you mean ${quotedAlternatives(suggestions.slice(0, 3))}?` : '';
}

function didYouMean(edit: EditContext, scalar: ScalarNode, suggestions: readonly string[]): Fix[] {
  return replaceScalarFixes(edit, scalar, suggestions.slice(0, 4), (s) => `Change the tool to "${s}"`);
}

// ---------------------------------------------------------------------------------------------
// Called names that resolve to nothing certain, in calls documents (for workflow steps the rule
// reads the gateway's resolution instead).

function callsDocumentReports(ctx: DocumentContext): Report<typeof messages>[] {
  const out: Report<typeof messages>[] = [];
  let saidNoCatalog = false;
  const edit = editContextOf(ctx.file);
  const { calls, serverName, serverNode } = callsOf(ctx);
  if (serverName !== undefined && serverNode && !ctx.workspace.catalog.server(serverName)) {
    // The named server has no catalog: say so once, on `server:`, rather than on every call.
    if (calls.length > 0) {
      out.push({
        messageId: 'serverWithoutCatalog',
        data: { server: serverName },
        span: serverNode.span,
        severity: 'info',
      });
    }
    return out;
  }
  for (const site of calls) {
    if (site.origin !== 'calls' || !site.name || site.nameText === undefined) continue;
    const target = site.target;
    const rename = (suggestions: readonly string[]): Fix[] =>
      replaceScalarFixes(edit, site.name!, suggestions.slice(0, 3), (s) => `Call "${s}" instead`);
    switch (target.kind) {
      case 'ambiguous':
        out.push({
          messageId: 'ambiguousCall',
          data: { subject: site.subject, name: site.nameText, servers: target.servers.map((s) => s.name) },
          span: site.name.span,
          severity: 'info',
        });
        break;
      case 'unknown':
        if (target.server) {
          out.push({
            messageId: 'notOnServer',
            data: {
              subject: site.subject,
              name: site.nameText,
              server: target.server.name,
              suggestions: target.suggestions,
            },
            span: site.name.span,
            fixes: rename(target.suggestions),
          });
        } else {
          out.push({
            messageId: 'inNoCatalog',
            data: { subject: site.subject, name: site.nameText, suggestions: target.suggestions },
            span: site.name.span,
            severity: 'info',
            fixes: rename(target.suggestions),
          });
        }
        break;
      case 'no-catalog':
        // Without any catalog every name is unknown, not wrong: one info on the first call is enough.
        if (target.serverName === undefined && !saidNoCatalog) {
          saidNoCatalog = true;
          out.push({
            messageId: 'noCatalogs',
            data: { subject: site.subject },
            span: site.name.span,
            severity: 'info',
          });
        }
        break;
      default:
        break;
    }
  }
  return out;
}

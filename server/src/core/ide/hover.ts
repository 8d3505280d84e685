// Hover: the derived safety floor on a composite tool's `name` and `annotations` (core
// `floorOf` + `floorMarkdown`), a step's tool (title, description, annotations, arguments), and a
// face (core `faceHoverOf`: the tool's properties and the name it is mounted under), and a call or
// `call_dynamic_tool` envelope (core `callsOf`: the namespace and the dynamic tool it reaches).
// The editor shows the message of a diagnostic under the cursor beside the hover, so a hover never
// says again what such a diagnostic says: `said(rule)` is true when a finding of that rule covers
// the cursor, and each part below that a rule also says is left out then (one mistake, one message).
import { floorMarkdown, floorOf } from '../floor/workflowFloor.js';
import { callsOf, type CallSite } from '../calls/calls.js';
import { facesOf, faceHoverOf } from '../model/faces.js';
import { serverStartHover } from './clientHover.js';
import type { ParsedFile } from '../parse/file.js';
import { WORKFLOW_KINDS } from '../types.js';
import type { Finding, Span } from '../types.js';
import type { Workspace } from '../workspace.js';
import { contextOf, locate, relativePath, samePath, workflowAt } from './cursor.js';
import { code, envelopeMarkdown, resolveStepTool, toolDetailsMarkdown, toolRefMarkdown } from './tools.js';

/** What a hover shows: Markdown, over the key or value under the cursor. */
export interface HoverText {
  markdown: string;
  span: Span;
}

/** The hover at `offset` of a file; `findings`: the file's current findings (the diagnostics the editor shows), when the caller has them. */
export function hoverAt(
  file: ParsedFile,
  workspace: Workspace,
  offset: number,
  findings: readonly Finding[] = [],
): HoverText | undefined {
  if (!file.kind) return undefined;
  const said = (rule: string): boolean =>
    findings.some((f) => f.rule === rule && f.span.start <= offset && offset <= f.span.end);
  const located = locate(file, offset);
  if (!located?.doc.kind) return undefined;
  const target = located.target;
  if (target.kind !== 'key' && target.kind !== 'value') return undefined;
  const ctx = contextOf(file, located.doc, workspace);
  const span: Span = target.kind === 'key' ? target.pair.key.span : target.node.span;
  const result = (markdown: string): HoverText => ({ markdown, span });

  if (WORKFLOW_KINDS.includes(located.doc.kind)) {
    const { workflow, step } = workflowAt(ctx, located.path);
    if (!workflow) return undefined;
    if (step) {
      const rel = relativePath(located.path, step.path);
      const envelope = envelopeAt(callsOf(ctx).calls, target.kind === 'key' ? target.pair.key : target.node, said);
      if (envelope !== undefined) return envelope ? result(envelope) : undefined;
      if (samePath(rel, ['tool'])) {
        const resolution = resolveStepTool(ctx, step);
        // Why a reference does not resolve, or that its server has no catalog, is tool/unknown's message.
        if (
          !resolution ||
          ((resolution.kind === 'unresolved' || resolution.kind === 'no-catalog') && said('tool/unknown'))
        )
          return undefined;
        return result(toolRefMarkdown(resolution));
      }
      return undefined;
    }
    const rel = relativePath(located.path, workflow.path);
    const onName = samePath(rel, ['name']);
    const onAnnotations = target.kind === 'key' && rel[0] === 'annotations' && rel.length <= 2;
    if (onName || onAnnotations)
      return result(floorMarkdown(floorOf(ctx, workflow), { contradictionSaid: said('annotations/contradiction') }));
    return undefined;
  }

  if (located.doc.kind === 'tool-calls') {
    const node = target.kind === 'key' ? target.pair.key : target.node;
    const markdown = envelopeAt(callsOf(ctx).calls, node, said) ?? callNameAt(callsOf(ctx).calls, node);
    return markdown ? result(markdown) : undefined;
  }

  if (located.doc.kind === 'face-overlay' || located.doc.kind === 'mcp-servers') {
    if (target.kind !== 'key') return undefined;
    for (const server of facesOf(ctx).servers) {
      const face = server.faces.find((f) => f.pair === target.pair);
      if (!face) continue;
      const faceHover = faceHoverOf(ctx, face);
      // That the server does not list the tool is face/undeclared's message; the rest is the name again.
      if (faceHover.state === 'undeclared' && said('face/undeclared')) return undefined;
      return result(faceHover.markdown);
    }
    if (located.doc.kind === 'mcp-servers') {
      const start = serverStartHover(ctx, target.pair.key);
      if (start) return result(start);
    }
  }
  return undefined;
}

type AnyNode = { span: Span };

function within(node: AnyNode, outer: AnyNode): boolean {
  return node.span.start >= outer.span.start && node.span.end <= outer.span.end;
}

/**
 * The envelope hover when the cursor is on a call's name or on one of its envelope's fields;
 * '' when it is on one but the diagnostic there already says everything the hover would.
 */
function envelopeAt(calls: readonly CallSite[], node: AnyNode, said: (rule: string) => boolean): string | undefined {
  for (const site of calls) {
    if (!site.envelope) continue;
    const onName = site.name !== undefined && within(node, site.name);
    const onField = Object.values(site.envelope.fields).some(
      (f) => f && (within(node, f.pair.key) || (f.value !== null && node === f.value)),
    );
    if (onName || onField) return envelopeMarkdown(site.envelope, said);
  }
  return undefined;
}

/** A plain call's name: the tool it calls. */
function callNameAt(calls: readonly CallSite[], node: AnyNode): string | undefined {
  const site = calls.find((s) => s.name !== undefined && within(node, s.name));
  if (!site?.tool || site.nameText === undefined) return undefined;
  return [`**${code(site.nameText)}** (server ${code(site.tool.server)})`, '', ...toolDetailsMarkdown(site.tool)].join(
    '\n',
  );
}

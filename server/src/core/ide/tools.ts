// Tool references as the editor features see them: a step's `tool` as core resolved it for the rules
// (gateway/steps.ts, memoised per document), the catalog tool behind it, and its description in
// Markdown for hovers and completion items.
import type { ToolRefResolution } from '../gateway/gateway.js';
import { resolvedStepOf } from '../gateway/steps.js';
import { unresolvedWords } from '../gateway/words.js';
import { CALL_DYNAMIC_TOOL, type CatalogTool, type DynamicNamespace } from '../catalog/model.js';
import { topLevelProperties } from '../jsonschema/properties.js';
import type { Envelope } from '../calls/calls.js';
import type { StepModel } from '../model/workflow.js';
import type { DocumentContext } from '../context.js';
import { HINT_NAMES, type ToolAnnotations } from '../types.js';
import { escapeMarkdown } from '../text/markdown.js';

export function resolveStepTool(ctx: DocumentContext, step: StepModel): ToolRefResolution | undefined {
  return resolvedStepOf(ctx, step)?.resolution;
}

/** The catalog declaration a resolution points at (a dynamic tool: its first namespace's). */
export function catalogToolOf(resolution: ToolRefResolution | undefined): CatalogTool | undefined {
  if (!resolution) return undefined;
  if (resolution.kind === 'resolved') return resolution.tool.tool;
  if (resolution.kind === 'dynamic') {
    for (const namespace of resolution.namespaces) {
      const tool = namespace.tools.find((t) => t.name === resolution.toolName);
      if (tool) return tool;
    }
  }
  return undefined;
}

/** Two references to one declaration: the same catalog file and place. */
export function sameDeclaration(a: CatalogTool, b: CatalogTool): boolean {
  return a.origin.file === b.origin.file && a.origin.span.start === b.origin.span.start;
}

export function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function annotationsLine(annotations: ToolAnnotations | undefined): string {
  if (!annotations) return 'declares no annotations, so the safety floor counts a step calling it as unknown';
  const parts = HINT_NAMES.filter((h) => annotations[h] !== undefined).map((h) => `${h}: \`${annotations[h]}\``);
  return parts.length ? parts.join(', ') : 'declares an empty annotations object (no hints)';
}

/** Title, description, annotations and the argument table of a catalog tool. */
export function toolDetailsMarkdown(tool: CatalogTool): string[] {
  const lines: string[] = [];
  if (tool.title) lines.push(`*${escapeMarkdown(tool.title)}*`, '');
  if (tool.description) lines.push(tool.description, '');
  lines.push(`**Annotations**: ${annotationsLine(tool.annotations)}`, '');
  const { properties, closed, open } = topLevelProperties(tool.inputSchema);
  if (properties.size === 0) lines.push('**Arguments**: none declared.');
  else {
    lines.push('**Arguments**', '', '| argument | type | required | description |', '|---|---|---|---|');
    const sorted = [...properties.values()].sort((a, b) => Number(b.required) - Number(a.required));
    for (const p of sorted)
      lines.push(
        `| ${code(p.name)} | ${cell(p.typeText)} | ${p.required ? 'yes' : 'no'} | ${cell(p.description ?? '')} |`,
      );
  }
  if (closed) lines.push('', 'Other arguments are refused (`additionalProperties: false`).');
  if (open) lines.push('', 'The schema may accept arguments not listed here (anyOf, oneOf or a remote $ref).');
  return lines;
}

/** The hover of a step's tool reference. */
export function toolRefMarkdown(resolution: ToolRefResolution): string {
  const lines: string[] = [];
  switch (resolution.kind) {
    case 'resolved': {
      const gt = resolution.tool;
      const names = [...new Set([gt.resolvedName, `${gt.workload}.${gt.originalName}`])].map(code).join(' / ');
      lines.push(`**${names}**`, '');
      const server = gt.tool.server !== gt.workload ? ` (catalog server ${code(gt.tool.server)})` : '';
      lines.push(`Backend tool ${code(gt.originalName)} of workload ${code(gt.workload)}${server}.`);
      if (gt.override)
        lines.push(
          `An aggregation override changes it${gt.override.name ? ` (renamed to ${code(gt.override.name)})` : ''}.`,
        );
      if (!gt.advertised)
        lines.push(
          'It is hidden from clients by the aggregation filter; steps can still call it, but its annotations do not count for the floor.',
        );
      lines.push('', ...toolDetailsMarkdown(gt.tool));
      break;
    }
    case 'dynamic': {
      const tool = catalogToolOf(resolution);
      lines.push(`**${code(resolution.ref)}**`, '');
      lines.push(
        `A dynamic tool of ${code(resolution.workload)} in namespace ${resolution.namespaces.map((n) => code(n.name)).join(', ')}: ` +
          'it is in no tool list, so it must be called through `call_dynamic_tool`.',
      );
      if (tool) lines.push('', ...toolDetailsMarkdown(tool));
      break;
    }
    case 'no-catalog': {
      lines.push(`**${code(resolution.ref)}**`, '');
      const servers = resolution.workloads.map((w) => code(w.serverName));
      lines.push(
        servers.length
          ? `No catalog describes server ${servers.join(', ')}, so this tool is unknown (not wrong).`
          : 'No catalog describes the server of this tool, so it is unknown (not wrong).',
        '',
        'Add a snapshot (`catalog: 1` or a saved `tools/list` result, e.g. `<server>.tools.json`) to the workspace to check it.',
      );
      break;
    }
    case 'unresolved': {
      lines.push(
        `**${code(resolution.ref)}**`,
        '',
        `Does not resolve: ${escapeMarkdown(unresolvedWords(resolution))}.`,
      );
      if (resolution.suggestions.length) lines.push('', `Did you mean ${resolution.suggestions.map(code).join(', ')}?`);
      break;
    }
  }
  return lines.join('\n');
}

/**
 * The hover of a `call_dynamic_tool` envelope: the namespace (external or not, ready or not) and
 * the dynamic tool it reaches with its argument table; or why it reaches none. `said(rule)`: a
 * diagnostic of that rule is under the cursor, so what it says is left out ('' when that is all).
 */
export function envelopeMarkdown(envelope: Envelope, said: (rule: string) => boolean = () => false): string {
  const lines: string[] = [];
  const resolution = envelope.resolution;
  const namespaceLine = (ns: DynamicNamespace): string => {
    const external = ns.external
      ? 'external: every call must carry `mcpDetails.description`, one sentence saying why, or the runtime refuses it'
      : 'not external: `mcpDetails` is not needed';
    const refused = said('envelope/namespace-not-ready') ? '' : ': the runtime refuses every call into it';
    const status = ns.status === 'ready' ? 'ready' : `**${escapeMarkdown(ns.status)}**${refused}`;
    return `Namespace ${code(ns.name)} of server ${code(ns.server)}: ${external}; status ${status}.`;
  };
  switch (resolution.kind) {
    case 'ok':
      lines.push(
        `**${code(CALL_DYNAMIC_TOOL)} → ${code(`${resolution.namespace.name}/${resolution.tool.name}`)}**`,
        '',
      );
      lines.push(namespaceLine(resolution.namespace), '');
      lines.push(...toolDetailsMarkdown(resolution.tool));
      if (resolution.tool.outputSchema !== undefined)
        lines.push(
          '',
          'It declares an `outputSchema`: a successful recorded result must carry matching `structuredContent`.',
        );
      break;
    case 'no-tool':
    case 'unknown-tool':
      lines.push(`**${code(CALL_DYNAMIC_TOOL)}**`, '', namespaceLine(resolution.namespace), '');
      lines.push(`Its tools: ${resolution.namespace.tools.map((t) => code(t.name)).join(', ') || 'none'}.`);
      break;
    case 'unknown-namespace':
      if (said('envelope/unknown-namespace')) return '';
      lines.push(
        `**${code(CALL_DYNAMIC_TOOL)}**`,
        '',
        `No catalogued server has a namespace ${code(envelope.namespaceText ?? '')}.`,
      );
      break;
    case 'ambiguous':
      lines.push(
        `**${code(CALL_DYNAMIC_TOOL)}**`,
        '',
        `Several servers have this namespace: ${resolution.servers.map((s) => code(s.name)).join(', ')}; name the server to check the call.`,
      );
      break;
    default:
      lines.push(
        `**${code(CALL_DYNAMIC_TOOL)}**`,
        '',
        'The namespace is not given or only known at run time, so the dynamic tool cannot be looked up.',
      );
  }
  return lines.join('\n');
}

// aggregation/advertised-rename: since the catalog the language server started from (its
// baseline), a catalog change gives a backend tool another advertised name, or takes the name away
// (a new backend that clashes under the priority or manual strategy, a tool the server renamed, a
// clash that went away). Clients, and the workflow steps and recorded calls that write the old
// name, stop reaching the tool, or reach another one. One finding per changed name, at the setting
// that decides it, with the steps and calls that write the old name as related places (their own
// rules, tool/unknown first, say what happens to each of them). The CLI has no baseline, so the
// rule is silent there; `tool-lens catalog diff` reports the same renames in CI.
import { dotForm, type GatewayTool } from '../../gateway/gateway.js';
import { advertisedRenamesOf, type AdvertisedRename, type NameUse } from '../../listing/renames.js';
import { DEFAULT_PREFIX_FORMAT } from '../../model/aggregation.js';
import { byCount, counted, firstItems, quotedList } from '../../text/words.js';
import type { RelatedInfo } from '../../types.js';
import { defineRule } from '../rule.js';

export const ADVERTISED_RENAME = 'aggregation/advertised-rename';

/** How many steps and calls a finding lists as related places. */
const USES_SHOWN = 20;

export const rule = defineRule({
  id: ADVERTISED_RENAME,
  defaultSeverity: 'warning',
  summary:
    'A catalog change since the editor session began renames an advertised tool (a new clash, a backend rename), breaking callers of the old name.',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages: {
    /** The analysis's rename is the data: the names before and after, why, and who calls the old name. */
    renamed: (rename: AdvertisedRename) => messageOf(rename),
  },
  check(ctx) {
    for (const rename of advertisedRenamesOf(ctx)) {
      ctx.report({ messageId: 'renamed', data: rename, span: rename.span, related: relatedOf(rename) });
    }
  },
});

function messageOf(r: AdvertisedRename): string {
  const renamed = `The catalog change renames the advertised tool "${r.before}" (${r.from}) to "${r.after}"`;
  const callers = callersWords(r);
  const accept = 'Once the change is meant, accept the catalog as the new baseline (the quick fix).';
  const others = (tools: readonly GatewayTool[]) => quotedList([...new Set(tools.map((t) => t.workload))]);
  const c = r.cause;
  switch (c.kind) {
    case 'clash':
      return (
        `${renamed}: ${callers} ` +
        `List one of the workloads in priorityOrder to keep the bare name for it, or update the callers. ` +
        `Workload ${others(c.others)} now serves a tool named "${r.before}" too and neither is in priorityOrder, so ToolHive gives each the default prefix "${DEFAULT_PREFIX_FORMAT}" (whatever prefixFormat says). ${accept}`
      );
    case 'clash-gone':
      return (
        `${renamed}: ${callers} Update the callers to the new name. ` +
        `Its default prefix came from a clash with workload ${others(c.others)}, which the catalog no longer has. ${accept}`
      );
    case 'backend-renamed':
      return (
        `${renamed}: ${callers} Update the callers, or give the tool its old name with an override in aggregation.tools. ` +
        `The server renamed the tool to "${c.to}". ${accept}`
      );
    case 'conflicted':
      return (
        `The catalog change takes the advertised tool "${r.before}" (${r.from}) away: ${callers} Give one of the tools another name with an override in aggregation.tools. ` +
        `Workload ${others(c.others)} now serves a tool named "${r.before}" too and under the manual strategy no override tells them apart, so ToolHive fails to list the gateway's tools (its manual resolver reports the unresolved clash). ${accept}`
      );
    case 'lost': {
      const winner = c.winner ? dotForm(c.winner) : 'another tool';
      const why =
        c.strategy === 'priority'
          ? `Workload "${c.winner?.workload ?? '?'}" now serves a tool of that name too and comes first in priorityOrder, so ToolHive drops ${r.from}.`
          : `${winner} now has the same prefixed name and ToolHive keeps the first of the two, so ${r.from} is dropped.`;
      return (
        `The catalog change gives the advertised name "${r.before}" to ${winner} instead of ${r.from}: ${callersWords(r, 'reach another tool')} ` +
        `Check that they mean the new tool, or rename one of the two with an override in aggregation.tools. ${why} ${accept}`
      );
    }
    default:
      return `${renamed}: ${callers} Update the callers to the new name. ${accept}`;
  }
}

/** What happens to those who use the old name, counting the workspace's steps and calls. */
function callersWords(r: AdvertisedRename, what = 'no longer reach it'): string {
  const steps = r.uses.filter((u) => u.kind === 'step').length;
  const calls = r.uses.length - steps;
  const uses = [steps ? counted(steps, 'step') : '', calls ? counted(calls, 'recorded call') : '']
    .filter(Boolean)
    .join(' and ');
  return uses
    ? `clients and ${uses} of the workspace that use the old name ${what}.`
    : `clients that use "${r.before}" ${what} (no step or call of the workspace writes it).`;
}

function relatedOf(r: AdvertisedRename): RelatedInfo[] {
  const related: RelatedInfo[] = [];
  const { shown, more } = firstItems(r.uses, USES_SHOWN);
  for (const use of shown) related.push({ file: use.file, span: use.span, message: useWords(use, r.before) });
  if (more > 0 && shown.length > 0) {
    const last = shown[shown.length - 1]!;
    related.push({
      file: last.file,
      span: last.span,
      message: `and ${more} more ${byCount(more, 'step or call', 'steps or calls')} that write "${r.before}"`,
    });
  }
  const c = r.cause;
  const tools =
    c.kind === 'clash' || c.kind === 'conflicted' ? c.others : c.kind === 'lost' && c.winner ? [c.winner] : [];
  for (const tool of tools) {
    related.push({
      file: tool.tool.origin.file,
      span: tool.tool.origin.span,
      message: `${dotForm(tool)}, which now serves "${tool.overriddenName}" too`,
    });
  }
  return related;
}

function useWords(use: NameUse, name: string): string {
  if (use.kind === 'call') return "a call recorded against the server by the tool's old name";
  const step = use.stepId !== undefined ? `step "${use.stepId}"` : 'a step';
  return `${step}${use.composite !== undefined ? ` of composite tool "${use.composite}"` : ''} calls "${name}"`;
}

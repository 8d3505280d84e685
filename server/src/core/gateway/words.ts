// How the gateway's decisions are said: why a tool is hidden, which strategy named a tool, why a
// reference reaches nothing. The gateway returns the data (gateway.ts); the rules, the floor's
// table and the hovers say it in these words, so each is said once.
import { listOf, listWords } from '../text/words.js';
import type { AggregationConfig } from '../model/aggregation.js';
import type { GatewayTool, ToolRefResolution } from './gateway.js';
import { LIMITS } from '../limits.js';

/** Why a tool is hidden, in words. */
export function hiddenByText(tool: GatewayTool): string {
  switch (tool.hiddenBy) {
    case 'excludeAllTools':
      return 'aggregation.excludeAllTools hides every backend tool';
    case 'excludeAll':
      return `excludeAll hides every tool of workload "${tool.workload}"`;
    case 'filter':
      return `the filter of workload "${tool.workload}" does not list "${tool.overriddenName}"`;
    case 'defaultToolVisibility':
      return `defaultToolVisibility: deny hides workloads without a tools entry, like "${tool.workload}"`;
    default:
      return 'it is advertised';
  }
}

/** ` (server "x")` when a workload's catalogued server has another name. */
export function serverNote(workload: { name: string; serverName: string }): string {
  return workload.serverName !== workload.name ? ` (server "${workload.serverName}")` : '';
}

/** "the prefix strategy (prefixFormat "{workload}_")". */
function strategyLabel(aggregation: AggregationConfig): string {
  if (aggregation.strategy === 'prefix') return `the prefix strategy (prefixFormat "${aggregation.prefixFormat}")`;
  return `the ${aggregation.strategy} strategy`;
}

/** Why an unresolved reference reaches no tool: the clause after "does not resolve:". */
export function unresolvedWords(resolution: Extract<ToolRefResolution, { kind: 'unresolved' }>): string {
  switch (resolution.problem) {
    case 'conflict':
      return (
        `under the manual strategy "${resolution.ref}" is claimed by ${listWords(resolution.claimants.map((w) => `"${w}"`))} and no override ` +
        'renames all but one of them, so ToolHive fails every tool listing and call of the gateway'
      );
    case 'override-name-after-dot':
      return `after the dot ToolHive matches the backend's own name ("${resolution.tool.originalName}"), not the name an override gives it ("${resolution.givenName}")`;
    case 'no-such-tool':
      return `the catalog of workload "${resolution.workload.name}"${serverNote(resolution.workload)} lists no tool "${resolution.toolName}"`;
    case 'no-such-workload':
      return resolution.backends
        ? `the gateway has no backend "${resolution.workloadName}" (its backends: ${listOf(resolution.backends, LIMITS.messageItems) || 'none'})`
        : `the gateway has no backend "${resolution.workloadName}"`;
    case 'strategy':
      return resolution.respelt
        .slice(0, 3)
        .map(
          (t) =>
            `under ${strategyLabel(resolution.aggregation)} the gateway names ${t.workload}'s ${t.originalName} "${t.resolvedName}"`,
        )
        .join('; ');
    case 'dropped':
      return `${droppedWhy(resolution.lost, resolution.conflict)}: it is in no routing table, so no reference reaches it`;
    case 'not-found':
      return 'no backend tool has this name';
  }
}

function droppedWhy(
  lost: GatewayTool,
  conflict: Extract<ToolRefResolution, { problem: 'dropped' }>['conflict'],
): string {
  const winner = conflict?.winner;
  if (conflict?.outcome === 'priority' && winner) {
    const servedBy = listWords([...new Set(conflict.candidates.map((c) => `"${c.workload}"`))]);
    return `"${lost.overriddenName}" is served by ${servedBy}; under the priority strategy "${winner.workload}" comes first in priorityOrder, so ToolHive drops ${lost.workload}'s tool`;
  }
  return `${lost.workload}'s ${lost.originalName} gets the same name as ${winner ? `${winner.workload}'s ${winner.originalName}` : 'another tool'} ("${lost.resolvedName}") and ToolHive keeps only one of them`;
}

// What a catalog change does to one gateway's advertised tool list: the two reports of the same
// gateway document (report.ts), one under the old catalog and one under the new, compared. Backend
// tools are matched by their `workload.tool` reference, so a tool whose advertised name changes
// (a new clash under the priority or manual strategy, a rename on the backend) is one rename, not
// a removal and an addition. Typed data only.
import type { CatalogDiff } from '../catalog/diff.js';
import type { CatalogIndex } from '../catalog/index.js';
import type { ToolAnnotations } from '../types.js';
import type { AdvertisedEntry, ToolListReport, WithheldStatus } from './report.js';

export interface NameChange {
  /** The backend reference (`workload.tool`) in the old list. */
  from: string;
  /** Set when the backend itself renamed the tool: its reference in the new list. */
  to?: string;
  before: string;
  after: string;
}

export interface CompositeChange {
  name: string;
  before: 'advertised' | WithheldStatus | 'absent';
  after: 'advertised' | WithheldStatus | 'absent';
  annotationsBefore: ToolAnnotations | null;
  annotationsAfter: ToolAnnotations | null;
  /** Why it is withheld after the change, when it is. */
  reason?: string;
  /** It was advertised and is not any more. */
  broken: boolean;
}

export interface ListChange<P> {
  /** Backend tools advertised only after the change (under their new names). */
  added: AdvertisedEntry<P>[];
  /** Backend tools advertised only before it. */
  removed: AdvertisedEntry<P>[];
  renamed: NameChange[];
  composites: CompositeChange[];
}

/**
 * `renamedOnBackend` maps an old `workload.tool` reference to the new one when the backend renamed
 * the tool (the catalog diff knows), so the advertised name that follows is a rename too.
 */
export function compareToolLists<P>(
  before: ToolListReport<P>,
  after: ToolListReport<P>,
  renamedOnBackend: (from: string) => string | undefined = () => undefined,
): ListChange<P> {
  const backend = (report: ToolListReport<P>) =>
    new Map(report.advertised.filter((e) => e.kind === 'backend').map((e) => [e.from!, e]));
  const old = backend(before);
  const now = backend(after);
  const renamed: NameChange[] = [];
  const matched = new Set<string>();
  for (const [from, entry] of old) {
    const to = now.has(from) ? undefined : renamedOnBackend(from);
    const next = now.get(to ?? from);
    if (!next) continue;
    matched.add(from).add(to ?? from);
    if (next.name !== entry.name)
      renamed.push(
        to ? { from, to, before: entry.name, after: next.name } : { from, before: entry.name, after: next.name },
      );
  }
  return {
    added: [...now].filter(([from]) => !matched.has(from)).map(([, e]) => e),
    removed: [...old].filter(([from]) => !matched.has(from)).map(([, e]) => e),
    renamed,
    composites: compositeChanges(before, after),
  };
}

/**
 * `workload.old` → `workload.new` for every tool the diff says its server renamed, through the
 * catalog's workloads mapping: the `renamedOnBackend` of `compareToolLists`.
 */
export function backendRenamesOf(diff: CatalogDiff, catalog: CatalogIndex): (from: string) => string | undefined {
  const byServer = new Map<string, Map<string, string>>();
  for (const server of diff.servers) {
    for (const tool of server.tools) {
      if (tool.change !== 'renamed' || !tool.renamedTo) continue;
      if (!byServer.has(server.name)) byServer.set(server.name, new Map());
      byServer.get(server.name)!.set(tool.name, tool.renamedTo);
    }
  }
  return (from) => {
    const dot = from.indexOf('.');
    const workload = from.slice(0, dot);
    const to = byServer.get(catalog.serverName(workload))?.get(from.slice(dot + 1));
    return to === undefined ? undefined : `${workload}.${to}`;
  };
}

type CompositeState = { status: 'advertised' | WithheldStatus; annotations: ToolAnnotations | null; reason?: string };

function compositeStates<P>(report: ToolListReport<P>): Map<string, CompositeState> {
  const states = new Map<string, CompositeState>();
  for (const entry of report.advertised)
    if (entry.kind === 'composite') states.set(entry.name, { status: 'advertised', annotations: entry.annotations });
  for (const entry of report.withheld) {
    if (entry.kind === 'composite' && !states.has(entry.name))
      states.set(entry.name, { status: entry.status, annotations: null, reason: entry.reason });
  }
  return states;
}

function compositeChanges<P>(before: ToolListReport<P>, after: ToolListReport<P>): CompositeChange[] {
  const old = compositeStates(before);
  const now = compositeStates(after);
  const changes: CompositeChange[] = [];
  for (const name of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(name);
    const b = now.get(name);
    const sameStatus = a?.status === b?.status;
    const sameAnnotations = sameHints(a?.annotations ?? null, b?.annotations ?? null);
    if (sameStatus && sameAnnotations) continue;
    changes.push({
      name,
      before: a?.status ?? 'absent',
      after: b?.status ?? 'absent',
      annotationsBefore: a?.annotations ?? null,
      annotationsAfter: b?.annotations ?? null,
      reason: b?.reason,
      broken: a?.status === 'advertised' && b?.status !== 'advertised',
    });
  }
  return changes;
}

function sameHints(a: ToolAnnotations | null, b: ToolAnnotations | null): boolean {
  if (!a || !b) return a === b;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof ToolAnnotations>;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

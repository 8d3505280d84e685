// The "Advertised tools" view: the tool list each gateway document of a file will advertise
// (core/listing/report.ts), with every place converted to a URI and an LSP range so a click in the
// tree opens where the tool comes from (its catalog entry, or the composite's name).
import { documentContext } from '../core/context.js';
import {
  annotationWords,
  toolListReport,
  type AdvertisedEntry,
  type ToolListReport,
  type WithheldEntry,
} from '../core/listing/report.js';
import { annotationClassOf } from '../core/ide/graph.js';
import type { Span } from '../core/types.js';
import { toRange } from './convert.js';
import type { AdvertisedToolItem, AdvertisedToolsView, DocumentPositionArgs, ViewLocation } from './protocol.js';
import type { Session } from './session.js';

export function advertisedTools(session: Session, args: DocumentPositionArgs): AdvertisedToolsView[] {
  const file = session.fileOfUri(args.uri);
  if (!file) return [];
  const place = (path: string, span: Span): ViewLocation | undefined => {
    const entry = session.entries.get(path);
    const target = entry ? session.fileOf(entry) : undefined;
    return entry && target ? { uri: entry.uri, range: toRange(target.source, span) } : undefined;
  };
  const views: AdvertisedToolsView[] = [];
  for (const doc of file.documents) {
    if ((doc.kind !== 'vmcp-config' && doc.kind !== 'vmcp-server') || doc.partial) continue;
    views.push(viewOf(toolListReport(documentContext(file, doc, session.workspace), place)));
  }
  return views;
}

function viewOf(report: ToolListReport<ViewLocation | undefined>): AdvertisedToolsView {
  const notes: string[] = [];
  if (report.workloadsFrom === 'catalog')
    notes.push("No backends list: the catalogued servers stand in for the group's workloads.");
  for (const unknown of report.unknown) notes.push(`Workload "${unknown.workload}": ${unknown.reason}.`);
  for (const name of report.externalDefinitions)
    notes.push(`compositeToolRefs "${name}": not in this file; the operator reads it from the cluster.`);
  return {
    title: `${report.kind === 'vmcp-server' ? 'VirtualMCPServer' : 'gateway'}${report.name ? ` "${report.name}"` : ''}`,
    strategy: report.strategy,
    location: report.location,
    advertised: report.advertised.map(itemOf),
    withheld: report.withheld.map(itemOf),
    notes,
  };
}

function itemOf(
  entry: AdvertisedEntry<ViewLocation | undefined> | WithheldEntry<ViewLocation | undefined>,
): AdvertisedToolItem {
  const item: AdvertisedToolItem = { name: entry.name, kind: entry.kind, annotations: '', certain: entry.certain };
  if (entry.from !== undefined) item.from = entry.from;
  if (entry.location) item.location = entry.location;
  if ('status' in entry) {
    item.status = entry.status;
    item.reason = entry.reason;
  } else {
    item.annotations = annotationWords(entry.annotations);
    item.annotationClass = annotationClassOf(entry.annotations);
  }
  return item;
}

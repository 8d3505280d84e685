// The VirtualMCPCompositeToolDefinitions of the workspace, by metadata.name (the other index of
// files beside the catalog, kept in its layer so that the workspace can hold it): what a
// VirtualMCPServer's `compositeToolRefs` entry names when the definition is written in another
// file. Plain data only (no parse is kept): each definition's file, namespace, the composite tool
// it defines (`spec.name`) and where that name is written. The CLI (node/loader.ts) and the
// language server (lsp/session.ts) fill it from files whose text names the kind
// (`mayHoldDefinitions`), parsed under the workspace's limits like any other file.
import { getMap, getString, isScalar } from '../parse/nodes.js';
import { FileIndex } from './fileIndex.js';
import type { ParsedFile } from '../parse/file.js';
import type { Span } from '../types.js';

/** What a file's text must contain to hold a definition (the kind is written out in every one). */
export const DEFINITION_KIND = 'VirtualMCPCompositeToolDefinition';

export interface IndexedDefinition {
  /** The workspace path of the file that holds it (a finding's related `file`). */
  file: string;
  /** metadata.name: what `compositeToolRefs[].name` names. */
  name: string;
  /** metadata.namespace, when written. */
  namespace: string | undefined;
  /** spec.name: the composite tool it defines. */
  toolName: string;
  /** Where spec.name is written in `file`. */
  span: Span;
}

/** Whether a text may hold a definition (a file that cannot is neither parsed nor indexed for it). */
export function mayHoldDefinitions(text: string): boolean {
  return text.includes(DEFINITION_KIND);
}

/** The definitions a parsed file holds, in file order (assertions and patches in Chainsaw tests define nothing). */
export function definitionsOf(file: ParsedFile): IndexedDefinition[] {
  const out: IndexedDefinition[] = [];
  for (const doc of file.documents) {
    if (doc.kind !== 'vmcp-composite' || doc.partial) continue;
    const metadata = getMap(doc.root, 'metadata');
    const name = getString(metadata, 'name');
    if (name === undefined || name === '') continue;
    const toolNode = getMap(doc.root, 'spec')?.pairs.find((p) => p.key.value === 'name')?.value;
    if (!isScalar(toolNode) || typeof toolNode.value !== 'string' || toolNode.value === '') continue;
    out.push({
      file: file.path,
      name,
      namespace: getString(metadata, 'namespace'),
      toolName: toolNode.value,
      span: { start: toolNode.span.start, end: toolNode.span.end },
    });
  }
  return out;
}

export class DefinitionIndex extends FileIndex<IndexedDefinition> {
  /**
   * Sets what one file defines (none: the file is forgotten). True when that changed anything a
   * look-up can see (a definition added, removed, renamed or moved), which changes the revision.
   */
  setFile(path: string, definitions: readonly IndexedDefinition[]): boolean {
    if (JSON.stringify(this.entriesOf(path)) === JSON.stringify(definitions)) return false;
    this.store(path, definitions);
    this.bump();
    return true;
  }

  /**
   * The definitions the operator finds for a reference by `name` from a server in `namespace` (it
   * looks the name up in the server's own namespace): those that write the same namespace, or, for
   * a server that writes none, those that write none either (both go wherever they are applied; a
   * definition without namespace may or may not land beside a server with one, so it is not
   * matched). In path order, then file order.
   */
  lookup(name: string, namespace: string | undefined): IndexedDefinition[] {
    return this.named(name).filter((d) => d.namespace === namespace);
  }
}

/** A token for the index as it is: the same object until a look-up could give something else (Workspace.revision). */
export function definitionRevision(index: DefinitionIndex): object {
  return index.revision;
}

// What the face rules share: the sentence that says what the runtime does with a broken face,
// and a fix that rewrites one scalar keeping its quotes.
import type { ScalarNode } from '../parse/nodes.js';
import { replaceScalarFixes, type EditContext } from '../edit/mappingEdits.js';
import type { Fix } from '../types.js';

/** What the runtime does with a face it cannot accept. */
export function refusesToMount(toolName: string): string {
  return `the runtime refuses to mount "${toolName}" (mounting it bare would drop the protection the face declares) and the agent loses the tool`;
}

/** The same, as a sentence of its own: the why after a face finding's headline. */
export function refusedToMount(toolName: string): string {
  return `The runtime refuses to mount "${toolName}" (mounting it bare would drop the protection the face declares) and the agent loses the tool.`;
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

/** A "did you mean" fix that rewrites one scalar keeping its quotes: a suggestion, since only the user knows which value they meant. */
export function replaceScalarFix(ctx: EditContext, node: ScalarNode, newValue: string, title?: string): Fix[] {
  return replaceScalarFixes(ctx, node, [newValue], (value) => title ?? `Change to ${quote(value)}`);
}

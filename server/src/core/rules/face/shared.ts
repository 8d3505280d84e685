// What the face rules share: the kinds they read, the sentence that says what the runtime does
// with a broken face, the "no catalog" hint, and a fix that rewrites one scalar keeping its quotes.
import type { ScalarNode } from '../../parse/nodes.js';
import type { DocumentKind, Fix, TextEdit } from '../../types.js';

export const FACE_KINDS: readonly DocumentKind[] = ['mcp-servers', 'face-overlay'];

/** What the runtime does with a face it cannot accept. */
export function refusesToMount(toolName: string): string {
  return `the runtime refuses to mount "${toolName}" (mounting it bare would drop the protection the face declares) and the agent loses the tool`;
}

export function addCatalogHint(serverName: string): string {
  return (
    `add a catalog for "${serverName}": a snapshot file (\`catalog: 1\` with a server named "${serverName}"), ` +
    `or its tools/list result saved as \`${serverName}.tools.json\`, or fetch it with \`tool-lens catalog fetch ${serverName}\`; ` +
    `if a catalog names the server differently, map the name under \`workloads\` in .toollens.yaml`
  );
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

/** A readable list, cut after `max` entries so a big schema does not flood the message. */
export function listOf(values: readonly string[], max = 12): string {
  if (values.length <= max) return values.join(', ');
  return `${values.slice(0, max).join(', ')} and ${values.length - max} more`;
}

/**
 * An edit that replaces a scalar's value and keeps how it was written: inside its quotes when it
 * is quoted, the whole token when it is plain. Undefined when the source does not hold the scalar
 * as expected (an alias, a block scalar): no edit beats a wrong one.
 */
export function replaceScalarEdit(text: string, node: ScalarNode, newValue: string): TextEdit | undefined {
  const raw = text.slice(node.span.start, node.span.end);
  switch (node.style) {
    case 'json':
    case 'double':
      if (raw.length < 2 || !raw.startsWith('"') || !raw.endsWith('"')) return undefined;
      return { span: { start: node.span.start + 1, end: node.span.end - 1 }, newText: JSON.stringify(newValue).slice(1, -1) };
    case 'single':
      if (raw.length < 2 || !raw.startsWith("'") || !raw.endsWith("'")) return undefined;
      return { span: { start: node.span.start + 1, end: node.span.end - 1 }, newText: newValue.replace(/'/g, "''") };
    case 'plain':
      if (raw !== String(node.value)) return undefined;
      // A value that plain YAML would read differently (`a: b`, `#x`, `true`) goes in double quotes.
      return { span: node.span, newText: plainSafe(newValue) ? newValue : JSON.stringify(newValue) };
    default:
      return undefined;
  }
}

function plainSafe(value: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_.\/-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(value);
}

/** A "did you mean" fix: a suggestion, since only the user knows which value they meant. */
export function replaceScalarFix(text: string, node: ScalarNode, newValue: string, title?: string): Fix[] {
  const edit = replaceScalarEdit(text, node, newValue);
  return edit ? [{ title: title ?? `Change to ${quote(newValue)}`, safe: false, edits: [edit] }] : [];
}

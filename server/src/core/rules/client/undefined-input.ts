// client/undefined-input: a VS Code `${input:ID}` that no entry of the file's `inputs` defines.
// VS Code resolves the inputs a server uses when it starts it; an id with no definition cannot be
// asked for, and the server does not start (its configuration resolver fails on the unknown input).
// The fix adds a password input of that id, the form a credential should take.
import { appendItems, editContextOf, insertPairs } from '../../edit/mappingEdits.js';
import { clientViewOf } from '../../model/clients.js';
import { getNode, getPair, getString, isMap, isScalar, isSeq, type Node, type ScalarNode } from '../../parse/nodes.js';
import { valueSpanMapper } from '../../parse/scalarOffsets.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';

const FIELDS = ['command', 'args', 'env', 'url', 'headers', 'cwd', 'envFile'];

function stringsIn(node: Node | undefined): ScalarNode[] {
  if (isScalar(node)) return typeof node.value === 'string' ? [node] : [];
  if (isSeq(node)) return node.items.flatMap((i) => stringsIn(i));
  if (isMap(node)) return node.pairs.flatMap((p) => (isScalar(p.value) ? stringsIn(p.value) : []));
  return [];
}

export const rule = defineRule({
  id: 'client/undefined-input',
  defaultSeverity: 'error',
  summary: 'A VS Code `${input:ID}` that no entry of `inputs` defines: the server does not start.',
  kinds: ['mcp-servers'],
  messages: {
    undefinedInput: (d: { id: string }) =>
      `No entry of "inputs" defines the input "${d.id}": add one. VS Code cannot ask for it, and the server does not start.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    if (view.client?.id !== 'vscode' || !isMap(ctx.doc.root)) return;
    const inputsPair = getPair(ctx.doc.root, 'inputs');
    const inputs = inputsPair?.value;
    // An `inputs` that is not a list is the schema's to report; ids cannot be read from it.
    if (inputsPair && !isSeq(inputs)) return;
    const defined = new Set(
      isSeq(inputs) ? inputs.items.map((i) => getString(i, 'id')).filter((id) => id !== undefined) : [],
    );
    const text = ctx.file.source.text;
    const edit = editContextOf(ctx.file);
    const fixed = new Set<string>();
    for (const server of view.servers) {
      for (const field of FIELDS) {
        for (const scalar of stringsIn(getNode(server.entry, field))) {
          const value = scalar.value as string;
          for (const m of value.matchAll(/\$\{input:([^}]*)\}/g)) {
            const id = m[1] ?? '';
            if (defined.has(id)) continue;
            const span = valueSpanMapper(text, scalar)(m.index, m.index + m[0].length);
            let fixes: Fix[] | undefined;
            if (!fixed.has(id)) {
              fixed.add(id);
              const input = { type: 'promptString', id, description: id, password: true };
              const add = isSeq(inputs)
                ? appendItems(edit, inputs, [input])
                : insertPairs(edit, ctx.doc.root, [{ key: 'inputs', value: { inline: `[${inline(input)}]` } }]);
              if (add) fixes = [{ title: `Add a password input "${id}"`, safe: false, edits: [add] }];
            }
            ctx.report({ messageId: 'undefinedInput', data: { id }, span, ...(fixes ? { fixes } : {}) });
          }
        }
      }
    }
  },
});

function inline(value: Record<string, string | boolean>): string {
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(', ')}}`;
}

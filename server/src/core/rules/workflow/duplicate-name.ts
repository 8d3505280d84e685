import { getMap, getSeq, getString, isMap, isScalar, type ScalarNode } from '../../parse/nodes.js';
import { compositeDefinitionsIn, workflowsOf } from '../../model/workflow.js';
import type { IndexedDefinition } from '../../catalog/definitions.js';
import { defineRule } from '../rule.js';
import type { DocumentContext } from '../../context.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule = defineRule({
  id: 'workflow/duplicate-name',
  defaultSeverity: 'error',
  summary: 'Two composite tools with one name.',
  kinds: WORKFLOW_KINDS,
  messages: {
    duplicate: ({ name }: { name: string }) =>
      `Another composite tool is already named "${name}": rename one of them. ToolHive refuses the configuration: a client could not ` +
      'tell the two tools apart.',
    duplicateRef: ({ name }: { name: string }) =>
      `"${name}" is already listed in \`compositeToolRefs\`: remove this one. ToolHive refuses duplicate references.`,
    /** A referenced definition (`ref`) defines a composite tool named like one defined here (`tool`). */
    definedTwice: ({ tool, ref }: { tool: string; ref: string }) =>
      `Composite tool "${tool}" is defined here and by "${ref}": rename one of them. ` +
      `The referenced definition "${ref}" defines the composite tool "${tool}", and a composite tool ` +
      'of that name is already defined here. The operator refuses the VirtualMCPServer.',
    /** An inline composite tool (`tool`) is also defined by the definition `ref` written in another file (`file`). */
    definedElsewhere: ({ tool, ref, file }: { tool: string; ref: string; file: string }) =>
      `The referenced definition "${ref}" also defines composite tool "${tool}": rename one of them. ` +
      `That definition is written in ${file}. The operator adds the referenced definitions to the inline ` +
      'composite tools and refuses two tools of one name: ' +
      "it cannot build the VirtualMCPServer's configuration, and the server does not start.",
  },
  check(ctx) {
    const doc = workflowsOf(ctx);
    const seen = new Map<string, ScalarNode>();
    /** The inline composite tools by name (the first of each). */
    const inline = new Map<string, ScalarNode>();
    for (const workflow of doc.workflows) {
      const name = workflow.name;
      if (!name || workflow.nameText === undefined || workflow.nameText === '') continue;
      const first = seen.get(workflow.nameText);
      if (!first) {
        seen.set(workflow.nameText, name);
        inline.set(workflow.nameText, name);
        continue;
      }
      ctx.report({
        messageId: 'duplicate',
        data: { name: workflow.nameText },
        span: name.span,
        related: [{ span: first.span, message: `first composite tool named "${workflow.nameText}"` }],
      });
    }
    // compositeToolRefs name VirtualMCPCompositeToolDefinitions that the operator looks up by name
    // in the server's namespace when it reconciles the server: a definition in this file is
    // judged here; one in another file of the workspace through the workspace's index.
    const refs = getSeq(doc.config, 'compositeToolRefs');
    if (!refs) return;
    const namespace = getString(getMap(ctx.doc.root, 'metadata'), 'namespace');
    const elsewhere = new Set<string>();
    const refNames = new Map<string, ScalarNode>();
    for (const item of refs.items) {
      const nameNode = isMap(item) ? item.pairs.find((p) => p.key.value === 'name')?.value : undefined;
      if (!isScalar(nameNode) || typeof nameNode.value !== 'string' || nameNode.value === '') continue;
      const earlier = refNames.get(nameNode.value);
      if (earlier) {
        ctx.report({
          messageId: 'duplicateRef',
          data: { name: nameNode.value },
          span: nameNode.span,
          related: [{ span: earlier.span, message: 'first reference' }],
        });
        continue;
      }
      refNames.set(nameNode.value, nameNode);
      const definition = definitionInFile(
        ctx,
        nameNode.value,
        getString(getMap(ctx.doc.root, 'metadata'), 'namespace'),
      );
      if (!definition) {
        const clash =
          ctx.doc.kind === 'vmcp-server' && !ctx.doc.partial && inline.size > 0
            ? definedElsewhere(ctx, nameNode.value, namespace, inline, elsewhere)
            : undefined;
        if (clash) {
          const { tool, definition } = clash;
          ctx.report({
            messageId: 'definedElsewhere',
            data: { tool: definition.toolName, ref: nameNode.value, file: definition.file },
            span: tool.span,
            related: [
              {
                file: definition.file,
                span: definition.span,
                message: `"${definition.toolName}" defined by ${nameNode.value}`,
              },
            ],
          });
        }
        continue;
      }
      const first = seen.get(definition.toolName);
      if (first) {
        ctx.report({
          messageId: 'definedTwice',
          data: { tool: definition.toolName, ref: nameNode.value },
          span: nameNode.span,
          related: [
            { span: first.span, message: `composite tool named "${definition.toolName}"` },
            { span: definition.nameNode.span, message: `"${definition.toolName}" defined by ${nameNode.value}` },
          ],
        });
      } else seen.set(definition.toolName, nameNode);
    }
  },
});

/**
 * The inline composite tool that the definition `ref`, written in another file of the workspace,
 * also defines, once per tool (`done`). Several definitions of that name and namespace in other
 * files that define different tools leave the cluster's choice open: nothing then.
 */
function definedElsewhere(
  ctx: DocumentContext,
  ref: string,
  namespace: string | undefined,
  inline: ReadonlyMap<string, ScalarNode>,
  done: Set<string>,
): { tool: ScalarNode; definition: IndexedDefinition } | undefined {
  const found = ctx.workspace.definitions.lookup(ref, namespace).filter((d) => d.file !== ctx.file.path);
  const definition = found[0];
  if (!definition || found.some((d) => d.toolName !== definition.toolName)) return undefined;
  const tool = inline.get(definition.toolName);
  if (!tool || done.has(definition.toolName)) return undefined;
  done.add(definition.toolName);
  return { tool, definition };
}

/** The first VirtualMCPCompositeToolDefinition of this file with this metadata.name (and namespace) that names its tool. */
function definitionInFile(
  ctx: DocumentContext,
  name: string,
  namespace: string | undefined,
): { toolName: string; nameNode: ScalarNode } | undefined {
  for (const doc of compositeDefinitionsIn(ctx.file, name, namespace)) {
    const nameNode = getMap(doc.root, 'spec')?.pairs.find((p) => p.key.value === 'name')?.value;
    if (isScalar(nameNode) && typeof nameNode.value === 'string' && nameNode.value !== '')
      return { toolName: nameNode.value, nameNode };
  }
  return undefined;
}

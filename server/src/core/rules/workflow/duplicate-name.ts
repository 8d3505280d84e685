import { getMap, getSeq, getString, isMap, isScalar, type ScalarNode } from '../../parse/nodes.js';
import { compositeDefinitionsIn, workflowsOf } from '../../model/workflow.js';
import type { Rule } from '../rule.js';
import type { DocumentContext } from '../../context.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule: Rule = {
  id: 'workflow/duplicate-name',
  defaultSeverity: 'error',
  summary: 'Two composite tools with one name.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const doc = workflowsOf(ctx);
    const seen = new Map<string, ScalarNode>();
    for (const workflow of doc.workflows) {
      const name = workflow.name;
      if (!name || workflow.nameText === undefined || workflow.nameText === '') continue;
      const first = seen.get(workflow.nameText);
      if (!first) {
        seen.set(workflow.nameText, name);
        continue;
      }
      ctx.report({
        message:
          `Another composite tool is already named "${workflow.nameText}". ToolHive refuses the configuration: a client could not ` +
          'tell the two tools apart. Rename one of them.',
        span: name.span,
        related: [{ span: first.span, message: `first composite tool named "${workflow.nameText}"` }],
      });
    }
    // compositeToolRefs name VirtualMCPCompositeToolDefinitions that the operator looks up in the
    // cluster; only definitions in this same file can be seen here, the others are not judged.
    const refs = getSeq(doc.config, 'compositeToolRefs');
    if (!refs) return;
    const refNames = new Map<string, ScalarNode>();
    for (const item of refs.items) {
      const nameNode = isMap(item) ? item.pairs.find((p) => p.key.value === 'name')?.value : undefined;
      if (!isScalar(nameNode) || typeof nameNode.value !== 'string' || nameNode.value === '') continue;
      const earlier = refNames.get(nameNode.value);
      if (earlier) {
        ctx.report({
          message: `"${nameNode.value}" is already listed in \`compositeToolRefs\`. ToolHive refuses duplicate references; remove this one.`,
          span: nameNode.span,
          related: [{ span: earlier.span, message: 'first reference' }],
        });
        continue;
      }
      refNames.set(nameNode.value, nameNode);
      const definition = definitionInFile(ctx, nameNode.value, getString(getMap(ctx.doc.root, 'metadata'), 'namespace'));
      if (!definition) continue;
      const first = seen.get(definition.toolName);
      if (first) {
        ctx.report({
          message:
            `Composite tool "${definition.toolName}" is defined here and by "${nameNode.value}": rename one of them. ` +
            `The referenced definition "${nameNode.value}" defines the composite tool "${definition.toolName}", and a composite tool ` +
            'of that name is already defined here. The operator refuses the VirtualMCPServer.',
          span: nameNode.span,
          related: [
            { span: first.span, message: `composite tool named "${definition.toolName}"` },
            { span: definition.nameNode.span, message: `"${definition.toolName}" defined by ${nameNode.value}` },
          ],
        });
      } else seen.set(definition.toolName, nameNode);
    }
  },
};

/** The first VirtualMCPCompositeToolDefinition of this file with this metadata.name (and namespace) that names its tool. */
function definitionInFile(
  ctx: DocumentContext,
  name: string,
  namespace: string | undefined,
): { toolName: string; nameNode: ScalarNode } | undefined {
  for (const doc of compositeDefinitionsIn(ctx.file, name, namespace)) {
    const nameNode = getMap(doc.root, 'spec')?.pairs.find((p) => p.key.value === 'name')?.value;
    if (isScalar(nameNode) && typeof nameNode.value === 'string' && nameNode.value !== '') return { toolName: nameNode.value, nameNode };
  }
  return undefined;
}

import { workflowsOf, type StepModel } from '../../model/workflow.js';
import { LIMITS } from '../../limits.js';
import type { RelatedInfo } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

const WHITE = 0;
const GREY = 1;
const BLACK = 2;

export const rule = defineRule({
  id: 'workflow/dependency-cycle',
  defaultSeverity: 'error',
  summary: 'Steps depend on each other in a cycle.',
  kinds: WORKFLOW_KINDS,
  messages: {
    dependsOnItself: ({ id }: { id: string }) =>
      `Step "${id}" depends on itself, so it can never start: ToolHive refuses to load the workflow. Remove "${id}" from its own \`dependsOn\`.`,
    /** `chain`: the cycle in words (`"a" waits for "b", which waits for "a"`). */
    cycle: ({ chain }: { chain: string }) =>
      `This dependency closes a cycle: remove the one that is not real. ${chain}. ` +
      'None of these steps can ever start, so ToolHive refuses to load the workflow. A step that needs data from ' +
      'another should depend on it, not the other way round.',
  },
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      const colour = new Map<StepModel, number>();
      const reported = new Set<string>();
      // Iterative depth-first search: a 10,000-step chain must not exhaust the call stack.
      for (const root of workflow.steps) {
        if ((colour.get(root) ?? WHITE) !== WHITE) continue;
        const path: StepModel[] = [root];
        // Where each step of the path is on it: finding a cycle's start is then no walk along the path.
        const position = new Map<StepModel, number>([[root, 0]]);
        const next: number[] = [0];
        colour.set(root, GREY);
        while (path.length) {
          const step = path[path.length - 1]!;
          const i = next[next.length - 1]!;
          if (i >= step.dependsOn.length) {
            colour.set(step, BLACK);
            path.pop();
            position.delete(step);
            next.pop();
            continue;
          }
          next[next.length - 1] = i + 1;
          const entry = step.dependsOn[i]!;
          if (entry.value === null) continue;
          const target = workflow.byId.get(String(entry.value));
          if (!target) continue; // unknown-dependency reports it
          const state = colour.get(target) ?? WHITE;
          if (state === WHITE) {
            colour.set(target, GREY);
            position.set(target, path.length);
            path.push(target);
            next.push(0);
            continue;
          }
          if (state !== GREY) continue;
          // A back edge: the cycle is the path from the target to this step, closed by `entry`.
          const start = position.get(target)!;
          const key = `${step.index}>${target.index}`;
          if (reported.has(key)) continue;
          reported.add(key);
          // A cycle of thousands of steps is named by its first ones: the message and the related
          // places stay a few lines long, however many back edges a long path has.
          const length = path.length - start;
          const members = path.slice(start, start + Math.min(length, LIMITS.messageItems));
          const names = members.map((m) => m.idText ?? '?');
          const cut = length - members.length;
          const links = cut > 0 ? names : [...names, names[0]!];
          const chain =
            links
              .map((n, k) => (k === 0 ? `"${n}" waits for` : k === 1 ? ` "${n}"` : `, which waits for "${n}"`))
              .join('') +
            (cut > 0 ? `, and so on through ${cut.toLocaleString('en-US')} more steps back to "${names[0]}"` : '');
          const related: RelatedInfo[] = [];
          for (const [k, member] of members.entries()) {
            const waitsFor = path[start + ((k + 1) % length)]!;
            if (member.id)
              related.push({
                span: member.id.span,
                message: `"${member.idText}" is in the cycle: it waits for "${waitsFor.idText}"`,
              });
          }
          if (length === 1)
            ctx.report({ messageId: 'dependsOnItself', data: { id: names[0]! }, span: entry.span, related });
          else ctx.report({ messageId: 'cycle', data: { chain }, span: entry.span, related });
        }
      }
    }
  },
});

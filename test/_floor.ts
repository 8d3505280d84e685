import { documentContext } from '../server/src/core/engine.js';
import { loadWorkspace } from '../server/src/node/loader.js';
import { workflowsOf } from '../server/src/core/model/workflow.js';
import { floorOf, floorMarkdown } from '../server/src/core/floor/workflowFloor.js';
const loaded = loadWorkspace({ paths: ['.'], cwd: process.argv[2]! });
for (const file of loaded.files) for (const doc of file.documents) {
  if (!doc.kind || !doc.kind.startsWith('vmcp')) continue;
  const ctx = documentContext(file, doc, loaded.workspace);
  for (const wf of workflowsOf(ctx).workflows) { console.log('=== ' + file.path); console.log(floorMarkdown(floorOf(ctx, wf))); }
}

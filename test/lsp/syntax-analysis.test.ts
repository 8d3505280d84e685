// Syntax and analysis apart: a catalog edit re-runs every dependant's analysis over the parse it
// already has. The parses are counted while the catalog changes and the diagnostics are pulled
// again: only the edited catalog is parsed; and the findings are those of a server that starts
// with the edited catalog on disk.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { Workspace } from '../../server/src/core/workspace.js';
import { methodCallsOf } from '../helpers/counting.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const OTHER_PATH = 'gateways/other.vmcp.yaml';
const OTHER = WORKFLOW.replace('name: docs-gateway', 'name: other-gateway');
// write_file now says it is read-only: the composite's read-only claim stops contradicting its floor.
const WRITE_ANNOTATIONS = 'annotations: {readOnlyHint: false, destructiveHint: true, openWorldHint: false}';
const EDITED_CATALOG = CATALOG.replace(WRITE_ANNOTATIONS, 'annotations: {readOnlyHint: true, openWorldHint: false}');

const shown = (items: Diagnostic[]) =>
  items
    .map(
      (d) =>
        `${d.code} ${d.severity} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${typeof d.message === 'string' ? d.message : d.message.value}`,
    )
    .sort();

let edited: InProcess;
let fresh: InProcess;
const editedFolder = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW, [OTHER_PATH]: OTHER });
const freshFolder = makeWorkspace({ [CATALOG_PATH]: EDITED_CATALOG, [WORKFLOW_PATH]: WORKFLOW, [OTHER_PATH]: OTHER });

before(async () => {
  assert.notEqual(EDITED_CATALOG, CATALOG, 'the edit applies to the catalog');
  edited = startInProcess();
  fresh = startInProcess();
  await edited.client.initialize(editedFolder.root);
  await fresh.client.initialize(freshFolder.root);
});

after(async () => {
  for (const server of [edited, fresh]) {
    await server.client.shutdown();
    server.dispose();
  }
  editedFolder.dispose();
  freshFolder.dispose();
});

test('a catalog edit re-parses no other document, and its dependants get the findings of a fresh start', async () => {
  const client = edited.client;
  await client.open(editedFolder.uri(WORKFLOW_PATH), WORKFLOW);
  await client.open(editedFolder.uri(CATALOG_PATH), CATALOG);
  const before = {
    workflow: await client.pullItems(editedFolder.uri(WORKFLOW_PATH)),
    other: await client.pullItems(editedFolder.uri(OTHER_PATH)),
  };
  const workspace = edited.server.session.workspace;
  let after: typeof before | undefined;
  const parses = await methodCallsOf(Workspace.prototype, 'parse', async () => {
    await client.replaceAll(editedFolder.uri(CATALOG_PATH), EDITED_CATALOG);
    after = {
      workflow: await client.pullItems(editedFolder.uri(WORKFLOW_PATH)),
      other: await client.pullItems(editedFolder.uri(OTHER_PATH)),
    };
  });
  const parsed = parses.filter((call) => call.self === workspace).map((call) => call.args[0]);
  assert.deepEqual(parsed, [CATALOG_PATH], 'the session parsed only the edited catalog');
  assert.equal(edited.server.session.workspace, workspace, 'the same workspace throughout');

  // The analyses did run again: the findings changed with the catalog, to a fresh start's.
  assert.notDeepEqual(shown(after!.workflow), shown(before.workflow), "the edit changes the open workflow's findings");
  assert.notDeepEqual(
    shown(after!.other),
    shown(before.other),
    'the edit changes the findings of the workflow on disk',
  );
  const expected = {
    workflow: await fresh.client.pullItems(freshFolder.uri(WORKFLOW_PATH)),
    other: await fresh.client.pullItems(freshFolder.uri(OTHER_PATH)),
  };
  assert.deepEqual(shown(after!.workflow), shown(expected.workflow));
  assert.deepEqual(shown(after!.other), shown(expected.other));
});

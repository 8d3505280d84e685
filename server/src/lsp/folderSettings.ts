// The settings of each workspace folder. `toolLens.catalogs` is a per-folder setting: when the
// client answers `workspace/configuration`, each folder gets its own value (relative to that
// folder); otherwise every folder has the one the client sent.
import { pathToFileURL } from 'node:url';
import { errorText } from './listeners.js';
import type { ServerState } from './serverState.js';
import type { Session } from './session.js';

export async function readFolderSettings(state: ServerState, sessions: readonly Session[]): Promise<void> {
  if (!state.client?.scopedConfiguration) return;
  for (const session of sessions) {
    if (session.root === undefined || session.closed) continue;
    let value: unknown;
    try {
      value = await state.connection.workspace.getConfiguration({
        scopeUri: pathToFileURL(session.root).href,
        section: 'toolLens',
      });
    } catch (error) {
      state.log(`could not read the settings of ${session.root}: ${errorText(error)}`);
      continue;
    }
    const catalogs = (value as { catalogs?: unknown } | null | undefined)?.catalogs;
    if (session.closed || !Array.isArray(catalogs) || !catalogs.every((glob) => typeof glob === 'string')) continue;
    try {
      session.updateSettings({ ...session.settings, catalogs });
    } catch (error) {
      state.connection.console.error(`applying the settings of ${session.root} failed: ${errorText(error)}`);
    }
  }
}

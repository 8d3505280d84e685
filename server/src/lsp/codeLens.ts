// Code lens: the floor lens of each composite tool (core/ide/lens.ts) as a command lens; a click
// shows the floor.
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { floorLenses } from '../core/ide/lens.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

/** The client command a lens runs (registered by the VS Code extension). */
const SHOW_FLOOR_COMMAND = 'toolLens.showFloor';

export function codeLenses(session: Session, params: CodeLensParams): CodeLens[] {
  const file = session.fileOfUri(params.textDocument.uri);
  if (!file?.kind) return [];
  return floorLenses(file, session.workspace).map(({ title, span }) => {
    const range = toRange(file.source, span);
    return {
      range,
      command: { title, command: SHOW_FLOOR_COMMAND, arguments: [session.uriOf(file.path), range.start] },
    };
  });
}

// The globs whose files join a session's catalog whatever their content: the configuration's
// `catalogs` (checked when it was read; its problems are diagnostics), then the `toolLens.catalogs`
// setting, which may come from the workspace's own settings and so stays inside the folder too.
import type { LensConfig } from '../core/config/config.js';
import { compileGlob, leavesFolder } from '../core/config/glob.js';
import type { CatalogGlob } from '../node/discovery.js';

/**
 * `configRoot`: the configuration's folder (the workspace folder without one); `root`: the
 * workspace folder; `setting`: the `toolLens.catalogs` setting. A setting's glob that cannot be
 * read is logged and left out.
 */
export function catalogGlobsOf(
  config: LensConfig,
  configRoot: string | undefined,
  root: string | undefined,
  setting: readonly string[],
  log: (message: string) => void,
): CatalogGlob[] {
  const globs: CatalogGlob[] = [];
  if (configRoot) for (const glob of config.catalogs) globs.push({ glob, base: configRoot, confined: true });
  if (root) {
    for (const glob of setting) {
      const why = compileGlob(glob).problem ?? leavesFolder(glob, 'the workspace folder');
      if (why === undefined) globs.push({ glob, base: root, confined: true });
      else log(`The toolLens.catalogs glob "${glob}" is not read: ${why}`);
    }
  }
  return globs;
}

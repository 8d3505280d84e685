// `--output-file FILE`: where the report goes instead of stdout. A file inside the workspace is
// written through `confinedTarget`, so a committed link named like the report cannot send it (or
// truncate whatever it points at) outside; a path outside the workspace is the user's own choice
// and is written as given.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { confinedTarget, OutsideWorkspace } from '../node/confine.js';
import { UsageError } from '../node/loader.js';

export interface Output {
  isTTY: boolean;
  write(text: string): void;
}

/** An output that writes `file` (relative to `cwd`) once, at the end; `root` is the workspace. */
export function outputFile(file: string, cwd: string, root: string, describe: (error: unknown) => string): Output {
  const absolute = resolve(cwd, file);
  if (existsSync(absolute) && statSync(absolute).isDirectory())
    throw new UsageError(`--output-file expects a file, and ${file} is a folder`);
  const within = relative(root, absolute);
  const inside = within === '' || (!within.startsWith('..') && !isAbsolute(within));
  return {
    isTTY: false,
    write: (text) => {
      let target = absolute;
      try {
        if (inside) target = confinedTarget(root, absolute);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, text, 'utf8');
      } catch (error) {
        if (error instanceof OutsideWorkspace) throw new UsageError(`the report was not written: ${error.message}`);
        throw new UsageError(`cannot write the report to ${file}: ${describe(error)}`);
      }
    },
  };
}

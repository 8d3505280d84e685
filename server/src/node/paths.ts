// File paths as the core wants them, for the CLI and the language server alike: posix separators, whatever the platform.

/** A path with posix separators (the core's paths, globs and output all use them). */
export function toPosix(path: string): string {
  return path.replace(/\\/g, '/');
}

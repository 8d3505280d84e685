// ANSI colours for terminal output, or plain text when colour is off. Small on purpose: five
// styles do not justify a dependency.
import type { Severity } from '../core/types.js';

export interface Palette {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  severity(severity: Severity, text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const identity = (text: string) => text;

export function palette(enabled: boolean): Palette {
  if (!enabled) {
    return {
      enabled,
      bold: identity,
      dim: identity,
      red: identity,
      yellow: identity,
      cyan: identity,
      severity: (_s, text) => text,
    };
  }
  const red = wrap(31, 39);
  const yellow = wrap(33, 39);
  const cyan = wrap(36, 39);
  const dim = wrap(2, 22);
  const bySeverity: Record<Severity, (text: string) => string> = { error: red, warning: yellow, info: cyan, hint: dim };
  return {
    enabled,
    bold: wrap(1, 22),
    dim,
    red,
    yellow,
    cyan,
    severity: (severity, text) => bySeverity[severity](text),
  };
}

/**
 * Whether to colour a stream, first match wins: the flag (`--color` true, `--no-color` false, the
 * last one given), then `FORCE_COLOR` (`0` or `false` turn colour off, any other value on, as
 * Node and most tools read it), then `NO_COLOR` (any non-empty value turns it off, see
 * no-color.org), then `TERM=dumb` (off), then whether the stream is a terminal.
 */
export function colourWanted(stream: { isTTY?: boolean }, flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

// Go durations (time.ParseDuration), as ToolHive's config.Duration reads them.

const UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  '\u00b5s': 1e3, // micro sign
  '\u03bcs': 1e3, // Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/**
 * Go's time.ParseDuration: an optional sign, then one or more decimal numbers each with a unit
 * (`1h30m`, `1.5h`, `300ms`); `0` alone needs no unit. Nanoseconds, or undefined when invalid.
 */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  const part = /^(\d*)(?:\.(\d*))?([^\d.]+)/;
  while (rest) {
    const match = part.exec(rest);
    if (!match) return undefined;
    const [whole, intPart = '', fracPart] = match;
    if (intPart === '' && (fracPart === undefined || fracPart === '')) return undefined;
    const unit = match[3]!;
    if (!Object.hasOwn(UNIT_NS, unit)) return undefined;
    const value = Number(`${intPart || '0'}.${fracPart ?? '0'}`);
    total += value * UNIT_NS[unit]!;
    rest = rest.slice(whole.length);
  }
  return sign * total;
}

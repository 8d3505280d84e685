// Maps character indexes inside a scalar's decoded value back to source offsets, so a finding
// inside a template string (one character of `{{ .a == 1 }}`) lands on the exact character the
// user typed, through quotes, escapes and block indentation.
import type { Span } from '../types.js';
import type { ScalarNode } from './nodes.js';

export type ValueSpanMapper = (start: number, end: number) => Span;

/**
 * Returns a mapper from value indexes to a source span. When the decoding cannot be replayed
 * exactly (folded scalars, odd escapes), it falls back to the whole scalar: never a wrong place.
 */
export function valueSpanMapper(text: string, node: ScalarNode): ValueSpanMapper {
  const value = typeof node.value === 'string' ? node.value : String(node.value);
  const offsets = decodeOffsets(text, node, value);
  if (!offsets) return () => node.span;
  return (start, end) => {
    const s = offsets[Math.max(0, Math.min(start, value.length))]!;
    // The span ends where the next value character starts, so a last character written as an
    // escape (\n, '', \u00e9) is covered whole.
    const e = end > start ? offsets[Math.min(end, value.length)]! : s;
    return { start: s, end: Math.max(e, s) };
  };
}

/** offsets[i] = source offset of value[i]; offsets[value.length] = end of content. */
function decodeOffsets(text: string, node: ScalarNode, value: string): number[] | null {
  const { start, end } = node.span;
  const raw = text.slice(start, end);
  switch (node.style) {
    case 'plain':
      return raw === value ? range(start, value.length) : null;
    case 'single':
      return decodeSingle(raw, start, value);
    case 'double':
    case 'json':
      return decodeDouble(raw, start, value);
    case 'literal':
      return decodeLiteral(raw, start, value);
    default:
      return null;
  }
}

function range(start: number, length: number): number[] {
  const out = new Array<number>(length + 1);
  for (let i = 0; i <= length; i++) out[i] = start + i;
  return out;
}

function decodeSingle(raw: string, base: number, value: string): number[] | null {
  if (raw[0] !== "'") return null;
  const out: number[] = [];
  let decoded = '';
  for (let i = 1; i < raw.length - 1; i++) {
    if (raw[i] === "'" && raw[i + 1] === "'") {
      out.push(base + i);
      decoded += "'";
      i++;
    } else if (raw[i] === '\n' || raw[i] === '\r') return null; // folded lines: fall back
    else {
      out.push(base + i);
      decoded += raw[i];
    }
  }
  out.push(base + raw.length - 1);
  return decoded === value ? out : null;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', '0': '\0', a: '\x07', v: '\v', e: '\x1b', ' ': ' ',
};

function decodeDouble(raw: string, base: number, value: string): number[] | null {
  if (raw[0] !== '"') return null;
  const out: number[] = [];
  let decoded = '';
  for (let i = 1; i < raw.length - 1; i++) {
    const ch = raw[i]!;
    if (ch === '\n' || ch === '\r') return null; // multi-line quoted scalars fold: fall back
    if (ch !== '\\') {
      out.push(base + i);
      decoded += ch;
      continue;
    }
    const next = raw[i + 1] ?? '';
    if (next in SIMPLE_ESCAPES) {
      out.push(base + i);
      decoded += SIMPLE_ESCAPES[next];
      i++;
    } else if (next === 'u' || next === 'x' || next === 'U') {
      const width = next === 'u' ? 4 : next === 'x' ? 2 : 8;
      const hex = raw.slice(i + 2, i + 2 + width);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) return null;
      const chars = String.fromCodePoint(parseInt(hex, 16));
      for (let k = 0; k < chars.length; k++) out.push(base + i);
      decoded += chars;
      i += 1 + width;
    } else return null;
  }
  out.push(base + raw.length - 1);
  return decoded === value ? out : null;
}

function decodeLiteral(raw: string, base: number, value: string): number[] | null {
  // Header line (| with optional indicators), then lines with a common indentation.
  const headerEnd = raw.search(/\r?\n/);
  if (headerEnd < 0) return null;
  const lines: { start: number; text: string }[] = [];
  let position = raw.indexOf('\n', headerEnd) + 1;
  while (position <= raw.length && position > 0) {
    const next = raw.indexOf('\n', position);
    const lineEnd = next < 0 ? raw.length : next;
    lines.push({ start: position, text: raw.slice(position, lineEnd).replace(/\r$/, '') });
    if (next < 0) break;
    position = next + 1;
  }
  const indent = Math.min(...lines.filter((l) => l.text.trim()).map((l) => /^ */.exec(l.text)![0].length));
  if (!Number.isFinite(indent)) return null;
  const out: number[] = [];
  let decoded = '';
  for (const line of lines) {
    const content = line.text.slice(indent);
    for (let k = 0; k < content.length; k++) out.push(base + line.start + indent + k);
    decoded += content;
    out.push(base + line.start + indent + content.length);
    decoded += '\n';
  }
  // Chomping and trailing blank lines differ; accept when the value is a prefix we replayed.
  if (!decoded.startsWith(value)) return null;
  out.length = value.length;
  out.push(value.length ? out[value.length - 1]! + 1 : base + raw.length);
  return out;
}

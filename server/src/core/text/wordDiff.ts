// Two versions of a text as the runs of words they share, drop and add: what `catalog diff` shows
// of a changed description. Words, runs of white space and single punctuation marks are the units,
// so "the repo." → "the repository." marks one word, not the sentence.

export interface DiffPart {
  /** `=` in both, `-` only in the old text, `+` only in the new one. */
  op: '=' | '-' | '+';
  text: string;
}

/** Beyond this many unit pairs the texts are shown as one removal and one addition. */
const MAX_CELLS = 4_000_000;

function units(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

/** The parts of `before` and `after` in order, adjacent parts of one kind merged. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = units(before);
  const b = units(after);
  // Common head and tail first: most edits touch one place of a long text.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += text;
    else parts.push({ op, text });
  };
  push('=', a.slice(0, head).join(''));
  if (midA.length * midB.length > MAX_CELLS) {
    push('-', midA.join(''));
    push('+', midB.join(''));
  } else {
    for (const part of middle(midA, midB)) push(part.op, part.text);
  }
  push('=', a.slice(a.length - tail).join(''));
  return parts;
}

/** A longest common subsequence of units, walked into parts (removals before additions). */
function middle(a: readonly string[], b: readonly string[]): DiffPart[] {
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const out: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: '=', text: a[i]! });
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
      out.push({ op: '-', text: a[i]! });
      i++;
    } else {
      out.push({ op: '+', text: b[j]! });
      j++;
    }
  }
  return out;
}

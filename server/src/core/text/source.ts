// Source text with a lazily built line index. Offsets are UTF-16 indexes (what JS strings and
// LSP's default encoding use); lines and characters are 0-based here and converted at the edges.

export interface Position {
  line: number;
  character: number;
}

export class SourceText {
  private lineStartsCache: number[] | undefined;

  constructor(readonly text: string) {}

  get lineStarts(): number[] {
    if (!this.lineStartsCache) {
      const starts = [0];
      const text = this.text;
      for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        if (ch === 10 /* \n */) starts.push(i + 1);
        else if (ch === 13 /* \r */) {
          if (text.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        }
      }
      this.lineStartsCache = starts;
    }
    return this.lineStartsCache;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - starts[low]! };
  }

  offsetAt(position: Position): number {
    const starts = this.lineStarts;
    if (position.line < 0) return 0;
    if (position.line >= starts.length) return this.text.length;
    const lineStart = starts[position.line]!;
    const lineEnd = this.lineEnd(position.line);
    return Math.min(lineStart + Math.max(0, position.character), lineEnd);
  }

  /** Offset of the end of a line's content, before its line break. */
  lineEnd(line: number): number {
    const starts = this.lineStarts;
    if (line + 1 >= starts.length) return this.text.length;
    let end = starts[line + 1]!;
    if (end > 0 && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > 0 && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line] ?? this.text.length, this.lineEnd(line));
  }

  /** The line break this text uses most, so inserted lines match the user's style. */
  get eol(): string {
    const crlf = this.text.indexOf('\r\n');
    return crlf >= 0 ? '\r\n' : '\n';
  }

  /** Leading whitespace of the line that contains `offset`. */
  indentationAt(offset: number): string {
    const line = this.lineText(this.positionAt(offset).line);
    return /^[ \t]*/.exec(line)![0];
  }
}

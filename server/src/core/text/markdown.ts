// Text put into markdown (the floor report, the hovers): one escape for every place that does it.

/**
 * Backslash-escapes what Markdown reads inside a line (emphasis, code, links, html, table pipes,
 * backslashes), so that the text shows as written after the start of a line. Line-start syntax
 * (`#`, `-`, `1.`) is left alone: no caller puts such text first on a line.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/([|*_`\\[\]<>])/g, '\\$1');
}

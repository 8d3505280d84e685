// How a fix says that it also changes other places: those that use the anchored text it edits
// through an alias. Said in the fix's title (the one line an editor and `--fix` show), by the
// engine, which is where every fix is held to the anchors (edit/sharedEdits.ts).
import { byCount, listWords } from '../text/words.js';

/**
 * `Write the arguments as an object (this also changes line 9, which uses the same text through *env)`:
 * the fix's own title, then the lines of the aliases (1-based) and the anchors' names.
 */
export function sharedFixTitle(title: string, names: readonly string[], lines: readonly number[]): string {
  const unique = [...new Set(lines)].sort((a, b) => a - b);
  const where = `${byCount(unique.length, 'line', 'lines')} ${listWords(unique.map(String))}`;
  const through = listWords(names.map((name) => `*${name}`));
  return `${title} (this also changes ${where}, which ${byCount(unique.length, 'uses', 'use')} the same text through ${through})`;
}

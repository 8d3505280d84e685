// ToolHive's start-up count of the delimiters of an output value (validateTemplateSyntax in
// composer/output_validator.go): it reads the text character by character, so a run of three
// braces counts as two pairs, and it knows nothing of Go's template grammar.

/** Why the value's `{{` and `}}` do not pair up by that count, or undefined when they do. */
export function delimiterProblem(text: string): 'nested' | 'unopened' | 'unclosed' | undefined {
  let open = false;
  let previous = '';
  for (const char of text) {
    if (char === '{' && previous === '{') {
      if (open) return 'nested';
      open = true;
    } else if (char === '}' && previous === '}') {
      if (!open) return 'unopened';
      open = false;
    }
    previous = char;
  }
  return open ? 'unclosed' : undefined;
}

// The functions a ToolHive workflow template may call. ToolHive registers three of its own on
// top of Go's builtins; any other name fails when the template is parsed.

/** Functions ToolHive adds to the function map. */
export const toolhiveFunctions: readonly string[] = Object.freeze(['json', 'quote', 'fromJson']);

/** Go text/template's predefined functions. */
export const goBuiltinFunctions: readonly string[] = Object.freeze([
  'and',
  'or',
  'not',
  'len',
  'index',
  'slice',
  'print',
  'printf',
  'println',
  'html',
  'js',
  'urlquery',
  'call',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
]);

/** Every function name a template may use. */
export const knownFunctions: readonly string[] = Object.freeze([...toolhiveFunctions, ...goBuiltinFunctions]);

const KNOWN = new Set(knownFunctions);

export function isKnownFunction(name: string): boolean {
  return KNOWN.has(name);
}

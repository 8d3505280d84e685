// Words for JSON values and JSON Schema types in messages: `the string "abc"`, `the number 5`,
// `a mapping`, `a list`; `an integer`, `a string or null`. One vocabulary, so that schema/wrong-type
// (a document against its format) and the args/result checks (a value against a tool's schema)
// name a value or a type the same way.
import { joinWords } from './words.js';
import { LIMITS } from '../limits.js';

/** `the string "abc"`, `the number 5`, `the boolean true`, `a list`, `a mapping`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `the boolean ${value}`;
    case 'object':
      return 'a mapping';
    default:
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only undefined, a bigint, a symbol or a function is left here, each with its own string form; TypeScript calls that remainder {}
      return String(value);
  }
}

/** A JSON type (the `type` keyword's values) in words. */
const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  array: 'a list',
  object: 'a mapping',
  null: 'null',
};

/** `an integer`, `a string or null`: the `type` keyword (a type, a list of them, or ajv's `a,b`) in words. */
export function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : typeof type === 'string' ? type.split(',') : [];
  const words = (types as unknown[])
    .slice(0, LIMITS.messageItems)
    .map((t) => (Object.hasOwn(TYPE_WORDS, String(t)) ? TYPE_WORDS[String(t)]! : String(t)));
  return joinWords(words, 'or');
}

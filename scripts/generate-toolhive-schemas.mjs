// Writes schemas/toolhive-keys.schema.json: the keys ToolHive accepts in every block of a vMCP
// configuration, read from a ToolHive checkout, so that the next ToolHive release is a re-run of
// this script and not a re-read of its source.
//
//   node scripts/generate-toolhive-schemas.mjs <toolhive git dir or work tree> [commit]
//   node scripts/generate-toolhive-schemas.mjs --check <toolhive dir>   (fails when the file would change)
//
// Two sources, one per dialect:
// - A CLI file (`vmcp serve --config`) is decoded by yaml.v3 with KnownFields(true) into the Go type
//   config.Config (pkg/vmcp/config/yaml_loader.go:Load). Its keys are the Go structs' field keys as
//   yaml.v3 computes them: the `yaml` tag's name, or the field name in lower case when the tag has
//   none; `-` skips the field, `,inline` merges an embedded struct's keys (or, for a map, accepts any
//   key). KnownFields reaches every nested struct. A type with its own UnmarshalYAML decides its own
//   keys: one that takes a *yaml.Node decodes through node.Decode, a fresh decoder without
//   KnownFields, so it accepts any key (thvjson.Map); one that takes the old unmarshal function is a
//   scalar here (config.Duration). A type from outside the repository (metav1.Duration, ...) is left
//   open: nothing is claimed about it.
// - A VirtualMCPServer (or VirtualMCPCompositeToolDefinition) is checked by the API server against
//   the CRD's structural schema (deploy/charts/operator-crds/files/crds/): it prunes (or, under strict
//   field validation, refuses) a field an object does not declare, except where the schema says
//   x-kubernetes-preserve-unknown-fields. Every served version must have the same keys (checked).
//
// The output holds key structure: `properties` (each key, its subtree or `true`),
// `additionalProperties: false` for a closed object, `additionalProperties: <subtree>` for a map,
// `items` for a list. Types, required fields and value constraints are hand-written in
// vmcp-common/vmcp-config/vmcp-server.schema.json, which reference this file with one `$ref` each
// (docs/internals/toolhive-schemas.md describes the split), except in the CRD subtrees of
// VALUE_SUBTREES (`spec.authServerConfig`), where the CRD's types, `required`, enums, patterns and
// bounds are carried too.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = join(ROOT, 'schemas/toolhive-keys.schema.json');
const MODULE = 'github.com/stacklok/toolhive/';
const CRD_DIR = 'deploy/charts/operator-crds/files/crds/';

// ---- reading the checkout ------------------------------------------------------------------------

class Checkout {
  constructor(dir, commit) {
    this.dir = dir;
    this.commit = this.git('rev-parse', commit ?? 'HEAD').trim();
  }
  git(...args) {
    return execFileSync('git', ['-C', this.dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  }
  read(path) {
    return this.git('show', `${this.commit}:${path}`);
  }
  list(dir) {
    return this.git('ls-tree', '--name-only', `${this.commit}:${dir}`)
      .split('\n')
      .filter(Boolean)
      .map((name) => `${dir}/${name}`);
  }
}

// ---- Go: the few declarations that decide yaml.v3's keys ----------------------------------------

/** One Go package: its struct types, its other named types, the types with UnmarshalYAML, its imports. */
class GoPackage {
  constructor(checkout, dir) {
    this.dir = dir;
    this.structs = new Map(); // name → [{ names: string[], embedded: boolean, type: string, tag: string }]
    this.named = new Map(); // name → underlying type text (non-struct, or an alias)
    this.unmarshalers = new Map(); // name → 'node' | 'func'
    this.imports = new Map(); // local name → import path
    for (const file of checkout.list(dir)) {
      if (!file.endsWith('.go') || file.endsWith('_test.go')) continue;
      this.parse(stripComments(checkout.read(file)));
    }
  }

  parse(text) {
    for (const block of text.matchAll(/^import\s*\(([\s\S]*?)^\)/gm))
      for (const line of block[1].split('\n')) this.addImport(line);
    for (const single of text.matchAll(/^import\s+([^(\n].*)$/gm)) this.addImport(single[1]);
    // Methods: func (x *T) UnmarshalYAML(value *yaml.Node) / (unmarshal func(interface{}) error)
    for (const m of text.matchAll(/^func\s*\(\s*\w*\s*\*?(\w+)(?:\[[^\]]*\])?\s*\)\s*UnmarshalYAML\(([^)]*\)?)/gm))
      this.unmarshalers.set(m[1], /yaml\.Node/.test(m[2]) ? 'node' : 'func');
    const typeRe = /^type\s+(\w+)(\[[^\]]*\])?\s+(=\s*)?/gm;
    let m;
    while ((m = typeRe.exec(text))) {
      const name = m[1];
      const rest = text.slice(typeRe.lastIndex);
      if (rest.startsWith('struct')) {
        const open = rest.indexOf('{');
        const body = rest.slice(open + 1, matchingBrace(rest, open));
        this.structs.set(name, parseFields(body));
      } else {
        this.named.set(name, rest.split('\n')[0].trim());
      }
    }
    // Grouped declarations: type ( A string; B = C )
    for (const group of text.matchAll(/^type\s*\(([\s\S]*?)^\)/gm))
      for (const line of group[1].split('\n')) {
        const g = /^\s*(\w+)\s+(=\s*)?(.+)$/.exec(line);
        if (g && !g[3].startsWith('struct')) this.named.set(g[1], g[3].trim());
      }
  }

  addImport(line) {
    const m = /^\s*(\w+|\.|_)?\s*"([^"]+)"/.exec(line);
    if (!m) return;
    const path = m[2];
    this.imports.set(m[1] ?? path.split('/').pop(), path);
  }
}

function stripComments(text) {
  // Line comments only where they cannot be inside a string or a tag (struct tags use backquotes).
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^([^`"\n]*?)\/\/.*$/gm, '$1');
}

function matchingBrace(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error('unbalanced braces');
}

function parseFields(body) {
  const fields = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const tagMatch = /`([^`]*)`\s*(?:\/\/.*)?$/.exec(line);
    const tag = tagMatch ? tagMatch[1] : '';
    const decl = (tagMatch ? line.slice(0, tagMatch.index) : line).trim();
    if (decl.includes('struct {') || decl.endsWith('struct{')) throw new Error(`anonymous struct field: ${line}`);
    const named = /^(\w+(?:\s*,\s*\w+)*)\s+(\S.*)$/.exec(decl);
    if (named) fields.push({ names: named[1].split(/\s*,\s*/), embedded: false, type: named[2].trim(), tag });
    else fields.push({ names: [decl.replace(/^\*/, '').split('.').pop()], embedded: true, type: decl, tag });
  }
  return fields;
}

/** yaml.v3's reading of a struct tag: the key, and whether the field is skipped or inlined. */
function yamlKey(field, name) {
  const tags = field.tag;
  let tag = /(?:^|\s)yaml:"([^"]*)"/.exec(tags)?.[1];
  if (tag === undefined) tag = tags !== '' && !tags.includes(':') ? tags : '';
  if (tag === '-') return { skip: true };
  const [key, ...flags] = tag.split(',');
  for (const flag of flags)
    if (!['omitempty', 'flow', 'inline'].includes(flag)) throw new Error(`unknown yaml flag ${flag} on ${name}`);
  return { key: key || name.toLowerCase(), inline: flags.includes('inline') };
}

/** The key structure of config.Config and everything it reaches, as JSON Schema definitions. */
class GoKeys {
  constructor(checkout) {
    this.checkout = checkout;
    this.packages = new Map();
    this.definitions = {};
    this.open = new Set(); // types left open, for the report
  }

  pkg(dir) {
    let p = this.packages.get(dir);
    if (!p) this.packages.set(dir, (p = new GoPackage(this.checkout, dir)));
    return p;
  }

  /** A subschema for a Go type expression written in package `pkg`. */
  schemaOf(pkg, type) {
    type = type.trim();
    if (type.startsWith('*')) return this.schemaOf(pkg, type.slice(1));
    if (type.startsWith('[]')) {
      const items = this.schemaOf(pkg, type.slice(2));
      return items === true ? true : { description: `a list (${type})`, type: 'array', items };
    }
    if (type.startsWith('map[')) {
      const close = matchingBracket(type, 3);
      const values = this.schemaOf(pkg, type.slice(close + 1));
      return values === true
        ? true
        : { description: `a map, any key (${type})`, type: 'object', additionalProperties: values };
    }
    if (/^(any|interface\{\}|string|bool|byte|rune|u?int(8|16|32|64)?|float(32|64))$/.test(type)) return true;
    const generic = /^([\w.]+)\[(.*)\]$/.exec(type);
    const base = generic ? generic[1] : type;
    const dot = base.indexOf('.');
    if (dot >= 0) {
      const path = pkg.imports.get(base.slice(0, dot));
      if (!path) throw new Error(`${pkg.dir}: unknown import in ${type}`);
      if (!path.startsWith(MODULE)) {
        this.open.add(type);
        return true; // outside the repository: nothing claimed
      }
      return this.named(this.pkg(path.slice(MODULE.length)), base.slice(dot + 1));
    }
    return this.named(pkg, base);
  }

  named(pkg, name) {
    const id = `${pkg.dir.replace(/^pkg\//, '').replace(/\//g, '.')}.${name}`;
    const unmarshaler = pkg.unmarshalers.get(name);
    if (unmarshaler === 'node') {
      this.open.add(`${id} (UnmarshalYAML decodes without KnownFields)`);
      return true;
    }
    if (unmarshaler === 'func') return true; // a scalar of its own (config.Duration)
    if (pkg.structs.has(name)) {
      const ref = { $ref: `#/definitions/${DEF_PREFIX}${id}` };
      if (!(DEF_PREFIX + id in this.definitions)) {
        this.definitions[DEF_PREFIX + id] = {}; // placeholder against recursion
        this.definitions[DEF_PREFIX + id] = this.struct(pkg, name);
      }
      return ref;
    }
    if (pkg.named.has(name)) return this.schemaOf(pkg, pkg.named.get(name));
    throw new Error(`${pkg.dir}: no type ${name}`);
  }

  struct(pkg, name) {
    const properties = {};
    let anyKey = false;
    for (const field of pkg.structs.get(name)) {
      for (const fieldName of field.names) {
        if (!field.embedded && !/^[A-Z]/.test(fieldName)) continue; // unexported
        const { skip, key, inline } = yamlKey(field, fieldName);
        if (skip) continue;
        if (inline) {
          const inner = this.schemaOf(pkg, field.type);
          const resolved =
            inner === true ? undefined : inner.$ref ? this.definitions[inner.$ref.split('/').pop()] : inner;
          if (!resolved || resolved.additionalProperties !== false) anyKey = true;
          else Object.assign(properties, resolved.properties);
          continue;
        }
        properties[key] = this.schemaOf(pkg, field.type);
      }
    }
    const schema = { description: `${pkg.dir}:${name}`, type: 'object', properties };
    if (!anyKey) schema.additionalProperties = false;
    return schema;
  }
}

function matchingBracket(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  throw new Error(`unbalanced brackets in ${text}`);
}

const DEF_PREFIX = 'KeysGo:';

// ---- CRDs: the structural schema's keys ---------------------------------------------------------

/**
 * The subtrees whose value constraints are carried too, not only their keys: the embedded auth
 * server, which no hand-written schema models below its first level.
 */
const VALUE_SUBTREES = new Set(['spec.authServerConfig']);

/** The marker (`$comment`) of a node that carries the CRD's values; validate.ts keeps its errors. */
export const VALUES_MARK = 'CRD values';

/** The CRD's value keywords the API server enforces, copied as they are (patterns are translated). */
const VALUE_KEYWORDS = [
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'maxProperties',
];

/**
 * The key structure of an OpenAPI v3 schema of a CRD (`where`: its path, as the description). Inside
 * VALUE_SUBTREES, also its type and value constraints, as the API server checks them after it has
 * applied the defaults: a required field with a `default` is never missing, so it is not required
 * here. `format` is left out (the only one there, int32, bounds numbers nobody writes).
 */
function crdKeys(schema, where, inValues = false) {
  if (!schema || typeof schema !== 'object') return true;
  const values = inValues || VALUE_SUBTREES.has(where);
  const out = { description: `${where} (CRD keys)` };
  if (schema.properties) {
    out.properties = {};
    for (const [key, child] of Object.entries(schema.properties))
      out.properties[key] = crdKeys(child, `${where}.${key}`, values);
  }
  const preserved = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (schema.type === 'object' || schema.properties) {
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      const children = crdKeys(schema.additionalProperties, `${where}.*`, values);
      if (children !== true) out.additionalProperties = children;
    } else if (!preserved && schema.additionalProperties !== true && schema.properties) {
      out.additionalProperties = false;
    }
  }
  if (schema.items) {
    const items = crdKeys(schema.items, `${where}[]`, values);
    if (items !== true) out.items = items;
  }
  if (values) return withValues(out, schema, where);
  // A leaf, or an object that keeps whatever it is given: nothing to claim.
  if (Object.keys(out).length === 1) return true;
  // ajv's strict mode wants the type beside object and array keywords; validate.ts drops every
  // error of this file but unknown keys, so a wrong type is still reported once, by hand.
  out.type = out.items ? 'array' : 'object';
  if (
    out.properties &&
    Object.values(out.properties).every((v) => v === true) &&
    out.additionalProperties === undefined
  )
    return true;
  return out;
}

/** A node of a VALUE_SUBTREES subtree: its keys, plus the CRD's type and value constraints. */
function withValues(out, schema, where) {
  if (!schema.type) throw new Error(`${where}: no type in the CRD; model it`);
  out.type = schema.type;
  out.$comment = VALUES_MARK;
  for (const keyword of VALUE_KEYWORDS) if (schema[keyword] !== undefined) out[keyword] = schema[keyword];
  if (schema.pattern !== undefined) {
    out.pattern = ecmaPattern(schema.pattern, where);
    out.description = `text that matches the CRD's pattern \`${schema.pattern}\``;
  }
  const required = (schema.required ?? []).filter((key) => schema.properties?.[key]?.default === undefined);
  if (required.length > 0) out.required = required;
  return out;
}

/**
 * An OpenAPI pattern, which the API server runs with Go's regexp (RE2 syntax), as an ECMA-262
 * pattern (ajv compiles it with the `u` flag) that matches the same strings. Outside a class `.`
 * is any character but a newline and `\s` is ASCII space (`[\t\n\f\r ]`); inside one, `\s` and
 * `[:space:]` (which adds \v) are the same characters. Anything else with another meaning in the
 * two dialects stops the script.
 */
export function ecmaPattern(go, where) {
  let out = '';
  let inClass = false;
  for (let i = 0; i < go.length; i++) {
    const c = go[i];
    if (c === '\\') {
      const next = go[i + 1];
      if (next === 's') out += inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]';
      else if (next === 'x' && /^[0-9A-Fa-f]{2}$/.test(go.slice(i + 2, i + 4))) {
        out += go.slice(i, i + 4);
        i += 2;
      } else if (next !== undefined && /[.\\\-[\]^$?*+(){}|/#]/.test(next)) out += `\\${next}`;
      else throw new Error(`${where}: pattern ${go}: the escape \\${next} is not translated; model it`);
      i++;
    } else if (inClass && go.startsWith('[:space:]', i)) {
      out += '\\t\\n\\v\\f\\r ';
      i += '[:space:]'.length - 1;
    } else if (inClass && go.startsWith('[:', i)) {
      throw new Error(`${where}: pattern ${go}: a POSIX class other than [:space:]; model it`);
    } else if (c === '[' && !inClass) {
      inClass = true;
      out += c;
      if (go[i + 1] === '^') out += go[++i];
    } else if (c === ']' && inClass) {
      inClass = false;
      out += c;
    } else if (c === '.' && !inClass) out += '[^\\n]';
    else out += c;
  }
  new RegExp(out, 'u'); // throws on what ECMA-262 would not compile
  return out;
}

function crdSpec(checkout, file) {
  const doc = YAML.parse(checkout.read(CRD_DIR + file));
  const versions = doc.spec.versions.map((v) => ({
    name: v.name,
    keys: crdKeys(v.schema.openAPIV3Schema.properties.spec, 'spec'),
  }));
  const first = JSON.stringify(versions[0].keys);
  for (const v of versions.slice(1))
    if (JSON.stringify(v.keys) !== first)
      throw new Error(`${file}: versions ${versions[0].name} and ${v.name} differ in keys; model them apart`);
  return { keys: versions[0].keys, versions: versions.map((v) => v.name) };
}

// ---- the output ---------------------------------------------------------------------------------

export function generate(dir, commit) {
  const checkout = new Checkout(dir, commit);
  const go = new GoKeys(checkout);
  const cli = go.named(go.pkg('pkg/vmcp/config'), 'Config');
  const server = crdSpec(checkout, 'toolhive.stacklok.dev_virtualmcpservers.yaml');
  const definition = crdSpec(checkout, 'toolhive.stacklok.dev_virtualmcpcompositetooldefinitions.yaml');
  const sorted = Object.fromEntries(Object.entries(go.definitions).sort(([a], [b]) => a.localeCompare(b)));
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://tool-lens.dev/schemas/toolhive-keys.schema.json',
    title: 'The keys ToolHive accepts in a vMCP configuration (generated)',
    description:
      `Generated by scripts/generate-toolhive-schemas.mjs from ToolHive commit ${checkout.commit}: do not edit, re-run it. ` +
      'Key structure (which keys each block has); types and values are checked by the hand-written schemas that reference this one, ' +
      `except in the nodes marked with the $comment "${VALUES_MARK}" (spec.authServerConfig), which carry the CRD's types and value constraints too. ` +
      'KeysCliConfig: the Go type config.Config as yaml.v3 decodes it with KnownFields(true) (pkg/vmcp/config/yaml_loader.go:Load). ' +
      `KeysVirtualMCPServerSpec, KeysCompositeToolDefinitionSpec: the CRDs' structural schemas (${CRD_DIR}, versions ${server.versions.join(', ')}).`,
    $comment: `toolhive ${checkout.commit}; left open (decoded without KnownFields, or outside the repository): ${[...go.open].sort().join(', ')}`,
    definitions: {
      KeysCliConfig: cli,
      KeysVirtualMCPServerSpec: server.keys,
      KeysCompositeToolDefinitionSpec: definition.keys,
      ...sorted,
    },
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args[0] === '--check';
  const [dir, commit] = check ? args.slice(1) : args;
  if (!dir || !existsSync(dir)) {
    console.error('usage: node scripts/generate-toolhive-schemas.mjs [--check] <toolhive checkout> [commit]');
    process.exit(2);
  }
  const text = generate(dir, commit);
  const old = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '';
  if (check) {
    if (old !== text) {
      console.error(`${OUTPUT} is not what this ToolHive checkout gives: re-run without --check`);
      process.exit(1);
    }
  } else if (old !== text) {
    writeFileSync(OUTPUT, text);
    console.log(`wrote ${OUTPUT}`);
  } else console.log(`${OUTPUT} unchanged`);
}

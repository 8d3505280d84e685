// What the structural validation (validate.ts) finds, as data: one problem per ajv error worth a
// finding, tagged with the schema/* rule it belongs to, on its exact span, with what that rule's
// words need (the key, the field, the place, the expected types, the allowed values, the node, the
// edit a fix would make). No sentence here: each rule module under rules/schema/ writes its own
// message, hints and fix titles from these.
import type { Node } from '../parse/nodes.js';
import type { DocumentKind, Span, TextEdit } from '../types.js';

export type SchemaProblem = UnknownKeyProblem | MissingFieldProblem | WrongTypeProblem | InvalidValueProblem;

/** What every problem carries: where it is, and what decides its consequence at run time. */
interface ProblemBase {
  span: Span;
  /** The document's kind: what refuses or ignores the mistake (ToolHive, Kubernetes, the client...). */
  kind: DocumentKind;
  /** Inside a tool face (a face-overlay file, or `toolFaces` in an mcp-servers file). */
  inFace: boolean;
}

/** The object a problem is about, as the words name it. */
interface ObjectPlace {
  /**
   * The object's path with list items by their id or name where they have one
   * (`compositeTools[deploy].steps[fetch].onError`); undefined for the document itself.
   */
  place: string | undefined;
  /** The document is one call of a JSONL calls file (its root is "this call"). */
  callLine: boolean;
}

// ---- schema/unknown-key -----------------------------------------------------------------------

export type UnknownKeyProblem = ProblemBase &
  ObjectPlace & {
    rule: 'schema/unknown-key';
    /** The key the format does not have; the span is the key's. */
    key: string;
    /** The path of the object that holds it (decoded JSON pointer segments). */
    path: string[];
    /**
     * In a Kubernetes resource, the key sits where the CRD keeps unknown fields
     * (x-kubernetes-preserve-unknown-fields: `spec.config` itself, a forEach inner `step`, a nested
     * output property): the API server neither prunes nor refuses it, and the operator's Go
     * decoding drops it. Never set for a CLI configuration, whose loader refuses every unknown key.
     */
    preserved: boolean;
  } & (
    | {
        /** A VirtualMCPServer key written directly under `spec` that belongs under `spec.config`. */
        reason: 'misplaced';
        belongsUnder: string;
      }
    | {
        /** Not a misspelling but a feature ToolHive does not have (`failureMode`, shown by some of its docs). */
        reason: 'no-such-feature';
      }
    | {
        /** A misspelling or another format's spelling of a field not set here. */
        reason: 'misspelt';
        suggestion: string;
        /** ToolHive's own docs and examples use this spelling (docs/toolhive.md#mistakes-in-toolhives-own-docs). */
        docMistake: boolean;
        /** The suggested field is required here (and missing: its missing-field problem is dropped). */
        required: boolean;
        /** The key renamed to the suggestion, when the layout allows a minimal edit. */
        rename: TextEdit | undefined;
      }
    | {
        /** Another spelling of a field that is already set here. */
        reason: 'second-spelling';
        suggestion: string;
      }
    | {
        reason: 'unknown';
        /** The fields the object may have, in the schema's order (`$schema` left out). */
        known: string[];
      }
  );

// ---- schema/missing-field ---------------------------------------------------------------------

export type MissingFieldProblem = ProblemBase &
  ObjectPlace & {
    rule: 'schema/missing-field';
    /** The required field that is absent; the span is the object's key (or its first key). */
    field: string;
    /**
     * The readable name of the subschema that requires it (`CompositeTool`, `vmcp-config/allOf/1/then`,
     * `CallEntry/then/then`): what a missing field costs is known per `<schema name>.<field>`.
     */
    schemaName: string | undefined;
    /** The schema's description of the conditional branch (then, else, anyOf/n, oneOf/n) that requires it. */
    branchDescription: string | undefined;
    /** A key of this catalog tool that is another format's spelling of the field (`input_schema`). */
    misspeltAs: string | undefined;
    /** Only the CRD's schema requires it (crdOnlySchema): the API server refuses the resource at apply. */
    byCrd: boolean;
  };

// ---- schema/wrong-type ------------------------------------------------------------------------

/** A quoted number or boolean where one is expected, or a bare one where a string is expected. */
export type Retype =
  | {
      /** What the value becomes: a number or a boolean (quotes removed) or a string (quoted). */
      as: 'number' | 'boolean' | 'string';
      /** The value as the fix writes it about: the text inside the quotes, or the bare text. */
      written: string;
      edit: TextEdit;
    }
  /** A bare number where a duration is wanted: quoting it would not do, it needs a unit (which one is the author's to say). */
  | { as: 'duration'; written: string };

export type WrongTypeProblem = ProblemBase & {
  rule: 'schema/wrong-type';
  /** The JSON types the schema wants there. */
  expected: string[];
  /** The value as written (the root for `document`). */
  node: Node;
} & (
    | {
        /** The document itself has the wrong type; the span is its first line. */
        at: 'document';
      }
    | {
        /** `empty`: a key with no value at all (the span is the key); `value`: any other value. */
        at: 'empty' | 'value';
        /** The field the value sits under: `retryCount`, or `steps[2]` for a list item. */
        field: string;
        retype: Retype | undefined;
      }
  );

// ---- schema/invalid-value ---------------------------------------------------------------------

/** The JSON Schema keywords that bound a number, a length or a count. */
export type LimitKeyword =
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'minLength'
  | 'maxLength'
  | 'minItems'
  | 'maxItems'
  | 'minProperties'
  | 'maxProperties';

export type InvalidValueProblem = ProblemBase &
  ObjectPlace & {
    rule: 'schema/invalid-value';
    /** The field the value sits under (`retryCount`, `steps[2]`); undefined for the document itself. */
    field: string | undefined;
    /** The value as written. */
    node: Node;
    /** Only the CRD's schema refuses it (crdOnlySchema): the API server refuses the resource at apply. */
    byCrd: boolean;
  } & (
    | {
        keyword: 'enum';
        allowed: string[];
        /** The allowed value closest to a scalar's, and the edit that writes it. */
        suggestion: string | undefined;
        edit: TextEdit | undefined;
      }
    | {
        keyword: 'const';
        allowed: string;
        /** The edit that writes the one allowed value over a string. */
        edit: TextEdit | undefined;
      }
    | {
        keyword: 'pattern';
        /** The readable name of the subschema with the pattern (`WorkflowStep/properties/tool`). */
        schemaName: string | undefined;
        /** That subschema's description. */
        description: string | undefined;
      }
    | { keyword: 'format'; format: string }
    | { keyword: LimitKeyword; limit: number }
    | {
        /** An object of none (or more than one) of the accepted shapes, or of a refused one. */
        keyword: 'anyOf' | 'oneOf' | 'not';
        /** The description of the subschema with the alternatives, which says what is accepted. */
        description: string | undefined;
      }
    | {
        /** Any other keyword: ajv's own message is all there is to say. */
        keyword: 'other';
        schemaKeyword: string;
        detail: string | undefined;
      }
  );

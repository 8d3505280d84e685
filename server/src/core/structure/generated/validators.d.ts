// Types of validators.js, which scripts/build.mjs generates (generate-validators.mjs) and git ignores.
// This file is written by hand and kept in git, so type-checking needs no build.
import type { ErrorObject } from 'ajv';

/** A standalone ajv validator: same call and `errors` as an ajv ValidateFunction. */
export interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The schema files the validators read (the keys `createValidators` needs). */
export declare const SCHEMA_FILES: readonly string[];
/** The refs there is a validator for (`tool-calls.schema.json#/definitions/CallEntry`). */
export declare const REFS: readonly string[];
/** The validators by ref; their errors' `schema` and `parentSchema` are objects of `schemas`. */
export declare function createValidators(schemas: Record<string, object>): Record<string, StandaloneValidator>;

// Types of validators.js (the index of the kind modules), which scripts/build.mjs generates
// (generate-validators.mjs) and git ignores.
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
/**
 * The validator of one ref, from its kind's module, which only this loads (validators-<kind>.js;
 * for the bundles, dist/chunks/validators-<kind>.js), or undefined for a ref there is none for;
 * its errors' `schema` and `parentSchema` are objects of `schemas`.
 */
export declare function createValidator(
  ref: string,
  schemas: Record<string, object>,
): StandaloneValidator | undefined;
/** Every validator by ref, every kind module loaded; their errors point into `schemas` likewise. */
export declare function createValidators(schemas: Record<string, object>): Record<string, StandaloneValidator>;

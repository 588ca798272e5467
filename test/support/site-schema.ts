/**
 * schema/site.schema.json as an editor's validator reads it: ajv, draft-07, strict, with `uri` the
 * way src/site/json-check.ts reads it. The tests hold our own checker and what site init writes to
 * this independent reading.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';

export const SITE_SCHEMA_FILE = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'schema/site.schema.json');

let compiled: ReturnType<Ajv['compile']> | undefined;

/** What ajv finds wrong with `json` as a site.json (`/path message` each; empty: valid). */
export function ajvSiteJsonErrors(json: unknown): string[] {
  if (!compiled) {
    const ajv = new Ajv({ strict: true, allErrors: true });
    ajv.addFormat('uri', (s: string) => URL.canParse(s));
    compiled = ajv.compile(JSON.parse(readFileSync(SITE_SCHEMA_FILE, 'utf8')) as object);
  }
  return compiled(json) ? [] : (compiled.errors ?? []).map((e: ErrorObject) => `${e.instancePath} ${e.message}`);
}

/**
 * A JSON Schema (draft-07) checker for the keywords our configuration schemas use, and no more:
 * schema/site.schema.json is checked by it when a site is opened. Its answer is the first problem
 * in the order a person reads the file (unknown keys, missing keys, then each key as written), as a
 * JSON Pointer and a short message, so an error is one line that says where to look.
 *
 * Not ajv: ajv is an optional peer dependency that only the forms need, every site command would
 * load it (and compile the schema) at start, and its errors would still need this formatting.
 * The `JsonSchema` type lists the supported keywords, so a schema that uses another fails the
 * typecheck of its generated module instead of being silently ignored here; a test runs ajv (strict
 * draft-07) on the same schema and samples, so the two agree (D191).
 *
 * Values are never shown in a message: a token pasted where a secret's NAME belongs must not
 * reach a log.
 */

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';
type Scalar = string | number | boolean | null;

interface JsonSchema {
  readonly $schema?: string;
  /** A short name of what a value must be; an error of `pattern` says "must be <title>". */
  readonly title?: string;
  readonly description?: string;
  readonly type?: JsonType | readonly JsonType[];
  readonly enum?: readonly Scalar[];
  readonly const?: Scalar;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** `uri`: what `URL.canParse` takes. */
  readonly format?: 'uri';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  /** Only `false`: every object of our files is closed. */
  readonly additionalProperties?: false;
  readonly oneOf?: readonly JsonSchema[];
  /** `#/definitions/<name>` of the root schema only. */
  readonly $ref?: string;
  readonly definitions?: Readonly<Record<string, JsonSchema>>;
}

/** A schema that describes values of type T (its generated module ties the two). */
export type SchemaOf<T> = JsonSchema & { readonly __describes?: T };

export interface JsonProblem {
  /** JSON Pointer of the value at fault ('' for the whole document). */
  path: string;
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: JsonProblem };

/** `value` as a T when it conforms to `schema`, else its first problem. */
export function checkJson<T>(schema: SchemaOf<T>, value: unknown): Checked<T> {
  const problem = new Checker(schema).check(schema, value, '');
  // The one assertion: `schema` describes T (the generator wrote both from one file).
  return problem ? { ok: false, problem } : { ok: true, value: value as T };
}

/** `path: message`, or the message alone for the whole document. */
export function problemText(p: JsonProblem): string {
  return p.path === '' ? p.message : `${p.path}: ${p.message}`;
}

/** A JSON Pointer one step down (RFC 6901 escapes). */
export function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

const TYPE_NAMES: Record<JsonType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  array: 'an array',
  object: 'an object',
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasType(v: unknown, t: JsonType): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
  }
}

const scalarText = (v: Scalar) => (typeof v === 'string' ? v : JSON.stringify(v));
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Each pattern compiled once per process (a site.json is checked at every open and change). */
const PATTERNS = new Map<string, RegExp>();

class Checker {
  constructor(private readonly root: JsonSchema) {}

  check(schema: JsonSchema, v: unknown, path: string): JsonProblem | null {
    const at = (message: string): JsonProblem => ({ path, message });
    if (schema.$ref !== undefined) {
      const problem = this.check(this.resolve(schema.$ref), v, path);
      if (problem) return problem;
    }
    if (schema.type !== undefined) {
      const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
      if (!types.some((t) => hasType(v, t))) return at(`must be ${types.map((t) => TYPE_NAMES[t]).join(' or ')}`);
    }
    if (schema.const !== undefined && v !== schema.const) return at(`must be ${JSON.stringify(schema.const)}`);
    if (schema.enum !== undefined && !schema.enum.some((e) => e === v))
      return at(`must be one of ${schema.enum.map(scalarText).join(', ')}`);
    if (schema.oneOf !== undefined) {
      const problem = this.oneOf(schema.oneOf, v, path);
      if (problem) return problem;
    }
    if (typeof v === 'string') return this.string(schema, v, at);
    if (typeof v === 'number') {
      if (schema.minimum !== undefined && v < schema.minimum) return at(`must be at least ${schema.minimum}`);
      if (schema.maximum !== undefined && v > schema.maximum) return at(`must be at most ${schema.maximum}`);
    }
    if (Array.isArray(v)) {
      if (schema.minItems !== undefined && v.length < schema.minItems)
        return at(schema.minItems === 1 ? 'must not be empty' : `must hold at least ${schema.minItems} items`);
      if (schema.items !== undefined)
        for (const [i, item] of v.entries()) {
          const problem = this.check(schema.items, item, pointer(path, i));
          if (problem) return problem;
        }
    }
    if (isObject(v)) return this.object(schema, v, path);
    return null;
  }

  private string(schema: JsonSchema, v: string, at: (m: string) => JsonProblem): JsonProblem | null {
    // Characters as JSON Schema counts them: code points (counted only when a bound asks).
    const length = schema.minLength === undefined && schema.maxLength === undefined ? 0 : [...v].length;
    if (schema.minLength !== undefined && length < schema.minLength)
      return at(
        schema.minLength === 1 ? 'must not be empty' : `must be at least ${plural(schema.minLength, 'character')}`,
      );
    if (schema.maxLength !== undefined && length > schema.maxLength)
      return at(`must be at most ${plural(schema.maxLength, 'character')}`);
    if (schema.pattern !== undefined && !this.regExp(schema.pattern).test(v))
      return at(schema.title ? `must be ${schema.title}` : `must match /${schema.pattern}/`);
    if (schema.format === 'uri' && !URL.canParse(v)) return at('must be a URL');
    return null;
  }

  private object(schema: JsonSchema, v: Record<string, unknown>, path: string): JsonProblem | null {
    const properties = schema.properties ?? {};
    const known = Object.keys(properties);
    if (schema.additionalProperties === false) {
      const unknown = Object.keys(v).find((k) => !Object.hasOwn(properties, k));
      if (unknown !== undefined)
        return { path, message: `unknown key ${JSON.stringify(unknown)} (known: ${known.join(', ')})` };
    }
    const missing = schema.required?.find((k) => !Object.hasOwn(v, k));
    if (missing !== undefined) return { path, message: `${JSON.stringify(missing)} is required` };
    for (const [key, value] of Object.entries(v)) {
      const sub = Object.hasOwn(properties, key) ? properties[key] : undefined;
      const problem = sub ? this.check(sub, value, pointer(path, key)) : null;
      if (problem) return problem;
    }
    return null;
  }

  /**
   * Exactly one branch must hold. When none does, the problem reported is the one of the branch
   * the value meant: in a union told apart by `const` keys, the one whose `const` it has (`"type":
   * "s3"`); in another, the one whose required keys it has. Else a list of the forms.
   */
  private oneOf(branches: readonly JsonSchema[], v: unknown, path: string): JsonProblem | null {
    const problems = branches.map((b) => this.check(b, v, path));
    const holding = problems.filter((p) => p === null).length;
    if (holding === 1) return null;
    if (holding > 1) return { path, message: 'matches more than one form' };
    const resolved = branches.map((b) => (b.$ref === undefined ? b : this.resolve(b.$ref)));
    const tagged = resolved.some(hasConstKeys);
    const meant = isObject(v)
      ? only(resolved, (b) =>
          tagged ? hasConstKeys(b) && constKeysMatch(b, v) : (b.required ?? []).every((k) => Object.hasOwn(v, k)),
        )
      : null;
    if (meant !== null) return problems[meant]!;
    return { path, message: `must be one of: ${resolved.map((b) => b.title ?? 'a form of the schema').join('; ')}` };
  }

  private resolve(ref: string): JsonSchema {
    const name = /^#\/definitions\/([^/]+)$/.exec(ref)?.[1];
    const target = name === undefined ? undefined : this.root.definitions?.[name];
    if (!target) throw new Error(`schema: unresolved $ref ${ref}`);
    return target;
  }

  private regExp(source: string): RegExp {
    let re = PATTERNS.get(source);
    if (!re) PATTERNS.set(source, (re = new RegExp(source, 'u')));
    return re;
  }
}

function hasConstKeys(b: JsonSchema): boolean {
  return Object.values(b.properties ?? {}).some((p) => p.const !== undefined);
}
function constKeysMatch(b: JsonSchema, v: Record<string, unknown>): boolean {
  return Object.entries(b.properties ?? {}).every(([k, p]) => p.const === undefined || v[k] === p.const);
}
/** The index of the one item that passes `test`, or null when none or several do. */
function only<T>(items: readonly T[], test: (t: T) => boolean): number | null {
  const hits = items.flatMap((t, i) => (test(t) ? [i] : []));
  return hits.length === 1 ? hits[0]! : null;
}

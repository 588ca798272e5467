/**
 * A site's named secrets (HostAdapters.secrets, the mail relay's credentials, the S3 keys), read
 * at each use so a rotated secret takes effect without a restart. Where they come from is site.json
 * `secrets` (config.ts SecretsSource):
 *
 * - absent: `secrets.json` in the site folder (git-ignored): `{ "NAME": { "value", "hosts" } }`.
 * - `{ "file": PATH }`: a file of the same shape elsewhere (a volume mounted on every node), PATH
 *   absolute or relative to the site folder. It is not part of the folder, so no backup holds it.
 * - `{ "env_prefix": "SITE_A_" }`: the environment variable `SITE_A_<NAME>` of the process, as
 *   the same JSON object or as the bare value (no hosts: never sent over HTTP, as for a record
 *   without `hosts`).
 *
 * A source that cannot be read gives no secrets (a plugin that needs one fails with
 * E_SECRET_NOT_FOUND, naming it), except a file that is there but is not JSON: that is an
 * operator's mistake worth a clear error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SecretRecord } from '../../index.js';
import type { SecretsSource } from '../config.js';

export class SecretsFileError extends Error {}

const noSecrets = () => Object.create(null) as Record<string, SecretRecord>;

function readFileSource(file: string): Record<string, SecretRecord> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return noSecrets();
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SecretsFileError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const out = noSecrets();
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return out;
  for (const [name, record] of Object.entries(json)) {
    const r = recordOf(record);
    if (r) out[name] = r;
  }
  return out;
}

/** A `{ value, hosts }` record, or null when `v` is not one. */
function recordOf(v: unknown): SecretRecord | null {
  if (typeof v !== 'object' || v === null || typeof (v as { value?: unknown }).value !== 'string') return null;
  const hosts = (v as { hosts?: unknown }).hosts;
  const list = Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
  return { value: (v as { value: string }).value, hosts: list };
}

function readEnvSource(prefix: string, env: NodeJS.ProcessEnv): Record<string, SecretRecord> {
  const out = noSecrets();
  for (const [key, text] of Object.entries(env)) {
    if (!key.startsWith(prefix) || key.length === prefix.length || text === undefined) continue;
    let record: SecretRecord | null = null;
    if (text.startsWith('{')) {
      try {
        record = recordOf(JSON.parse(text));
      } catch {
        // Not JSON after all: the bare value.
      }
    }
    out[key.slice(prefix.length)] = record ?? { value: text, hosts: [] };
  }
  return out;
}

/** Every secret of the site in `dir`, from its source. */
export function readSecrets(
  dir: string,
  source?: SecretsSource,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, SecretRecord> {
  if (source && 'env_prefix' in source) return readEnvSource(source.env_prefix, env);
  return readFileSource(source ? path.resolve(dir, source.file) : path.join(dir, 'secrets.json'));
}

/**
 * The Redis URL a site's batch queue connects to: site.json `batch_queue`, with the password from
 * the site's secrets source when `batch_queue_password_secret` names one. site.json goes into git
 * and onto every node, so the password is a secret's NAME there, read at each connect (a rotated
 * password takes effect at the next one), never the value.
 */
import type { SiteConfig } from '../config.js';
import { readSecrets } from '../adapters/secrets.js';

class QueueSecretMissing extends Error {}

/** The URL to connect to, or null when the site keeps its queue in its database. */
export function batchQueueUrl(dir: string, config: SiteConfig): string | null {
  if (!config.batch_queue) return null;
  const name = config.batch_queue_password_secret;
  if (name === undefined) return config.batch_queue;
  const password = readSecrets(dir, config.secrets)[name]?.value;
  if (password === undefined)
    throw new QueueSecretMissing(
      `site.json batch_queue_password_secret names the secret "${name}", which the secrets source does not hold`,
    );
  return withPassword(config.batch_queue, password);
}

export function withPassword(url: string, password: string): string {
  const u = new URL(url);
  u.password = encodeURIComponent(password);
  return u.toString();
}

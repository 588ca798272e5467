/** Host adapters for tests and plugin examples: in memory or in temporary folders, no network beyond loopback. */
import type { HostAdapters, SecretRecord } from '../../src/host-api/host.js';
import { filesTestAdapter } from './host/files.js';
import { httpTestAdapter } from './host/http.js';
import { mailTestAdapter } from './host/mail.js';
import { geoTestAdapter } from './host/geo.js';
import { siteSyncTestAdapter } from './host/site-sync.js';
import { INTEGRATION_SECRETS, integrationsTestAdapter } from './host/integrations.js';

export function testHost(opts: { secrets?: Record<string, Record<string, SecretRecord>> } = {}): HostAdapters {
  const secrets = opts.secrets ?? {
    default: { EXAMPLE_TOKEN: { value: 'example-token-value', hosts: ['api.example.com'] }, ...INTEGRATION_SECRETS },
  };
  return {
    ...filesTestAdapter(),
    ...httpTestAdapter(),
    ...mailTestAdapter(),
    ...geoTestAdapter(),
    ...siteSyncTestAdapter(),
    ...integrationsTestAdapter(),
    crypto: { siteKey: async (tenant) => new TextEncoder().encode(`test site key of ${tenant}`) },
    secrets: {
      async get(tenant, name) {
        const own = secrets[tenant];
        return own && Object.prototype.hasOwnProperty.call(own, name) ? own[name] : null;
      },
    },
  };
}

/** Host adapters for tests and plugin examples: in memory or in temporary folders, no network beyond loopback. */
import type { HostAdapters, HostResolver, SecretRecord } from '../../src/host-api/host.js';
import { filesTestAdapter } from './host/files.js';
import { httpTestAdapter } from './host/http.js';
import { mailTestAdapter } from './host/mail.js';
import { geoTestAdapter } from './host/geo.js';
import { siteSyncTestAdapter } from './host/site-sync.js';
import { INTEGRATION_SECRETS, integrationsTestAdapter } from './host/integrations.js';

export interface TestHostOptions {
  /** Secrets by tenant (default: tenant "default" has EXAMPLE_TOKEN and the integrations' secrets). */
  secrets?: Record<string, Record<string, SecretRecord>>;
}

/**
 * The test host of every tenant, per render: each tenant's adapters are made on its first render
 * and kept (its files, cookies and outbox last across renders). Tenant "default" is the test
 * renders' tenant; another has its own storage and secrets, and no internal API, tokens or integrations.
 */
export function testHosts(opts: TestHostOptions = {}): HostResolver {
  const of = tenantHosts(opts);
  return (identity) => of(identity.tenant);
}

/** The adapters of one tenant of the test host (default "default"), to spread beside a test's own. */
export function testHost(opts: TestHostOptions & { tenant?: string } = {}): HostAdapters {
  return tenantHosts(opts)(opts.tenant ?? 'default');
}

function tenantHosts(opts: TestHostOptions): (tenant: string) => HostAdapters {
  const secrets = opts.secrets ?? {
    default: { EXAMPLE_TOKEN: { value: 'example-token-value', hosts: ['api.example.com'] }, ...INTEGRATION_SECRETS },
  };
  const families = [
    filesTestAdapter(),
    httpTestAdapter(),
    mailTestAdapter(),
    () => geoTestAdapter(),
    siteSyncTestAdapter(),
    integrationsTestAdapter(),
  ];
  const made = new Map<string, HostAdapters>();
  return (tenant) => {
    const known = made.get(tenant);
    if (known) return known;
    const host: HostAdapters = {
      ...Object.assign({}, ...families.map((f) => f(tenant))),
      crypto: { siteKey: async () => new TextEncoder().encode(`test site key of ${tenant}`) },
      secrets: {
        async get(name) {
          const own = secrets[tenant];
          return own && Object.prototype.hasOwnProperty.call(own, name) ? own[name] : null;
        },
      },
    };
    made.set(tenant, host);
    return host;
  };
}

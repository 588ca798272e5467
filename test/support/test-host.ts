/** In-memory host adapters for tests and plugin examples (no network, no disk). */
import type { HostAdapters, SecretRecord } from '../../src/host-bridge/host.js';

export function testHost(opts: { secrets?: Record<string, Record<string, SecretRecord>> } = {}): HostAdapters {
  const secrets = opts.secrets ?? { default: { EXAMPLE_TOKEN: { value: 'example-token-value', hosts: ['api.example.com'] } } };
  return {
    secrets: {
      async get(tenant, name) {
        const own = secrets[tenant];
        return own && Object.prototype.hasOwnProperty.call(own, name) ? own[name] : null;
      },
    },
  };
}

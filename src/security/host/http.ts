/** The harness host's http adapter (filled in when the http plugins land). */
import type { HostAdapters } from '../../host-bridge/host.js';
import type { CanaryState } from './state.js';

export async function httpAdapter(_c: CanaryState): Promise<Partial<HostAdapters>> {
  return {};
}

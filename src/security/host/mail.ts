/** The harness host's mail adapter (filled in when the mail plugins land). */
import type { HostAdapters } from '../../host-bridge/host.js';
import type { CanaryState } from './state.js';

export async function mailAdapter(_c: CanaryState): Promise<Partial<HostAdapters>> {
  return {};
}

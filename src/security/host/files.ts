/** The harness host's files adapter (filled in when the files plugins land). */
import type { HostAdapters } from '../../host-bridge/host.js';
import type { CanaryState } from './state.js';

export async function filesAdapter(_c: CanaryState): Promise<Partial<HostAdapters>> {
  return {};
}

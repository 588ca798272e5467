/** The test host's mail adapter for plugin examples and fixtures (filled in with the mail plugins). */
import type { HostAdapters } from '../../../src/host-bridge/host.js';

export function mailTestAdapter(): Partial<HostAdapters> {
  return {};
}

/** The test host's files adapter for plugin examples and fixtures (filled in with the files plugins). */
import type { HostAdapters } from '../../../src/host-bridge/host.js';

export function filesTestAdapter(): Partial<HostAdapters> {
  return {};
}

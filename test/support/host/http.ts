/** The test host's http adapter for plugin examples and fixtures (filled in with the http plugins). */
import type { HostAdapters } from '../../../src/host-bridge/host.js';

export function httpTestAdapter(): Partial<HostAdapters> {
  return {};
}

/**
 * The host adapters the CLI's engine runs with: none. So a privileged plugin works here only
 * when the bridge answers it by itself (src/host-bridge/capabilities.ts); `smartcage plugins`
 * says which.
 */
import type { HostAdapters } from '../host-bridge/host.js';

export const CLI_HOST: HostAdapters = {};

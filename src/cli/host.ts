/**
 * The host adapters the CLI's engine runs with: none. So a privileged plugin works here only
 * when the bridge answers it by itself (src/host-api/capabilities.ts); `smartcage plugins`
 * says which.
 */
import type { HostAdapters } from '../host-api/host.js';

export const CLI_HOST: HostAdapters = {};

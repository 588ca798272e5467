/** Host implementations of the privileged plugins, by name (declarations: src/plugins/host). */
import type { HostPlugin } from '../bridge.js';
import { sleep } from './sleep.js';
import { secret } from './secret.js';
import { assignGlobals } from './assign-globals.js';

export const HOST_PLUGINS: Readonly<Record<string, HostPlugin>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, HostPlugin>, {
    [sleep.name]: sleep,
    [secret.name]: secret,
    [assignGlobals.name]: assignGlobals,
  }),
);

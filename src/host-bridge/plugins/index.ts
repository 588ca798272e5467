/** Host implementations of the privileged plugins and host modifiers, by name (declarations: src/plugins/host*). */
import type { HostModifier, HostPlugin } from '../plugin-contract.js';
import { sleep } from './sleep.js';
import { secret } from './secret.js';
import { assignGlobals } from './assign-globals.js';
import { plugins as files } from './files/index.js';
import { plugins as api } from './api/index.js';
import { plugins as mail } from './mail/index.js';
import { rcmsEncrypt } from './crypto/rcms-encrypt.js';
import { getCountryFromIP } from './geo/get-country-from-ip.js';

const ALL: HostPlugin[] = [sleep, secret, assignGlobals, rcmsEncrypt, ...files, ...api, ...mail];

export const HOST_PLUGINS: Readonly<Record<string, HostPlugin>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, HostPlugin>, Object.fromEntries(ALL.map((p) => [p.name, p]))),
);

export const HOST_MODIFIERS: Readonly<Record<string, HostModifier>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, HostModifier>, Object.fromEntries([getCountryFromIP].map((m) => [m.name, m]))),
);

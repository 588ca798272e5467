import type { Plugin } from '../types.js';
import sleep from './sleep.js';
import secret from './secret.js';
import assignGlobals from './assign_globals.js';
import rcmsEncrypt from './rcms_encrypt.js';
import getCountryFromIP from './getCountryFromIP.js';

/** Privileged plugins and host modifiers: declarations only; their implementations run on the host (src/host-bridge/plugins). */
export const plugins: Plugin[] = [sleep, secret, assignGlobals, rcmsEncrypt, getCountryFromIP];

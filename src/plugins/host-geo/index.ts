import type { Plugin } from '../types.js';
import getCountryFromIP from './getCountryFromIP.js';

/** Declarations of the geo host modifiers (implementations: src/host-bridge/plugins/geo/). */
export const plugins: Plugin[] = [getCountryFromIP];

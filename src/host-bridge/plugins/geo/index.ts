import type { HostModifier } from '../../plugin-contract.js';
import { getCountryFromIP } from './getCountryFromIP.js';

/** Host implementations of the geo modifiers, by name. */
export const modifiers: HostModifier[] = [getCountryFromIP];

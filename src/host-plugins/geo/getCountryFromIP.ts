/**
 * `{$ip|getCountryFromIP}` on the host: the country of a global IP address from the host's
 * geo capability. Anything else answers '' without asking it: text that is not exactly an
 * IPv4 or IPv6 address, and private, loopback, link-local, documentation and other reserved
 * addresses, which have no country. IPv4-mapped IPv6 is asked as the IPv4 address it carries.
 */
import { implementModifier } from '../plugin-contract.js';
import { isPublicV4, isPublicV6, parseIPv6 } from '../../host-adapters/egress/ip-class.js';
import { parseAddress } from '../../host-adapters/geo/ip-ranges.js';
import declaration from '../../plugins/host-geo/getCountryFromIP.js';

/** The address to ask about, as text, or null when no country can apply. */
function globalAddress(text: string): string | null {
  const a = parseAddress(text);
  if (!a) return null;
  if ('v4' in a) {
    if (!isPublicV4(a.v4)) return null;
    return [a.v4 >>> 24, (a.v4 >>> 16) & 255, (a.v4 >>> 8) & 255, a.v4 & 255].join('.');
  }
  return isPublicV6(parseIPv6(text)!) ? text : null;
}

export const getCountryFromIP = implementModifier(declaration, async (input, _args, call, geo) => {
  const ip = globalAddress(String(input));
  if (ip === null) return '';
  const code = await geo.countryOf(ip);
  // Whatever the adapter says, the template gets a two-letter code or ''.
  return typeof code === 'string' && /^[A-Za-z]{2}$/.test(code) && code.toUpperCase() !== 'ZZ'
    ? code.toUpperCase()
    : '';
});

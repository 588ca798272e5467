import { defineHostModifier } from '../host-modifier.js';

/**
 * Platform helper on the PHP allow-list. The host's geo capability answers; an address that
 * is not an IP address, or is private, loopback or reserved, gives ''. The input is a PHP
 * string parameter: null gives '', an array (with `@`) is a TypeError, so null and a warning.
 */
export default defineHostModifier({
  kind: 'modifier',
  name: 'getCountryFromIP',
  host: 'geo',
  origin: 'platform',
  summary:
    "The country (ISO 3166-1 alpha-2, upper case) of an IPv4 or IPv6 address, or '' when unknown, private, reserved or not an address.",
  input: { name: 'ip', type: 'string', required: true },
  params: [],
  examples: [
    { template: "{'5.10.1.2'|getCountryFromIP}", output: 'JP' },
    { template: '{$ip|getCountryFromIP}', vars: { ip: '2a00:1000::1' }, output: 'GB' },
    {
      template: "[{'192.168.0.1'|getCountryFromIP}][{'::1'|getCountryFromIP}][{'5.10.1.256'|getCountryFromIP}]",
      output: '[][][]',
    },
  ],
});

/**
 * FILTER_VALIDATE_IP, transcribed from PHP 8.2's logical_filters.c: the IPv4 and IPv6
 * parsers (_php_filter_validate_ipv4/_ipv6) and the RFC 6890 range tables
 * (ipv4_get_status_flags / ipv6_get_status_flags) as PHP 8.2.36 answers (probed address by
 * address, see test/plugins/php/filter-var.test.ts), quirks included: every address from
 * 240.0.0.0 up is reserved, 0.0.0.0/8 is reserved, IPv6 documentation and ORCHID blocks are
 * reserved, an IPv6 address written with an IPv4 tail is always read as ::ffff:a.b.c.d, and
 * an address in a special block that is neither private nor reserved fails
 * FILTER_FLAG_GLOBAL_RANGE.
 */
import {
  FILTER_FLAG_GLOBAL_RANGE,
  FILTER_FLAG_IPV4,
  FILTER_FLAG_IPV6,
  FILTER_FLAG_NO_PRIV_RANGE,
  FILTER_FLAG_NO_RES_RANGE,
} from './constants.js';
import { FAILED, type FilterInput, type Filtered } from './options.js';

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Four decimal parts of 0..255 without leading zeros, or null. */
function parseIpv4(s: string): number[] | null {
  const ip: number[] = [];
  let i = 0;
  while (i < s.length) {
    if (!isDigit(s[i])) return null;
    const leadingZero = s[i] === '0';
    let m = 1;
    let num = s.charCodeAt(i++) - 48;
    while (i < s.length && isDigit(s[i])) {
      num = num * 10 + (s.charCodeAt(i++) - 48);
      if (num > 255 || ++m > 3) return null;
    }
    if (leadingZero && (num !== 0 || m > 1)) return null;
    ip.push(num);
    if (ip.length === 4) return i === s.length ? ip : null;
    if (i >= s.length || s[i++] !== '.') return null;
  }
  return null;
}

/** Eight 16-bit groups, or null (an embedded IPv4 tail is accepted, as PHP does). */
export function parseIpv6(str: string): number[] | null {
  if (!str.includes(':')) return null;
  let len = str.length;
  let v4: number[] | null = null;
  let blocks = 0;
  const dot = str.indexOf('.');
  if (dot >= 0) {
    let start = dot;
    while (start > 0 && str[start - 1] !== ':') start--;
    v4 = parseIpv4(str.slice(start));
    if (!v4) return null;
    len = start;
    if (len < 2) return null;
    if (str[start - 2] !== ':') len--; // keep the ':' before the IPv4 part only when it is '::'
    blocks = 2;
  }
  const ip: number[] = [];
  let compressed = -1;
  let i = 0;
  while (i < len) {
    if (str[i] === ':') {
      if (++i >= len) return null; // cannot end in ':' without a previous ':'
      if (str[i] === ':') {
        if (compressed >= 0) return null;
        if (blocks < 8) ip[blocks] = -1;
        compressed = blocks++;
        if (++i === len) {
          if (blocks > 8) return null;
          break;
        }
      } else if (i - 1 === 0) {
        return null; // a leading ':' must be '::'
      }
    }
    let num = 0;
    let n = 0;
    while (i < len && /[0-9a-fA-F]/.test(str[i])) {
      num = num * 16 + parseInt(str[i], 16);
      n++;
      i++;
    }
    if (blocks < 8) ip[blocks] = num;
    if (n < 1 || n > 4) return null;
    if (++blocks > 8) return null;
  }
  if (!((compressed >= 0 && blocks <= 8) || blocks === 8)) return null;
  // PHP's fixup_ip: with an IPv4 tail the groups are always read as ::ffff:a.b.c.d.
  if (v4) return [0, 0, 0, 0, 0, 0xffff, 256 * v4[0] + v4[1], 256 * v4[2] + v4[3]];
  if (compressed >= 0) {
    const offset = 8 - blocks;
    for (let k = 7; k > compressed + offset; k--) ip[k] = ip[k - offset];
    for (let k = compressed + offset; k >= compressed; k--) ip[k] = 0;
  }
  return ip;
}

interface RangeStatus {
  global: boolean;
  reserved: boolean;
  private: boolean;
}

const status = (global = false, reserved = false, priv = false): RangeStatus => ({ global, reserved, private: priv });

/** The special block an IPv4 address is in (RFC 6890), or null for an ordinary address. */
function ipv4Status(ip: number[]): RangeStatus | null {
  const [a, b, c] = ip;
  if (a === 0) return status(false, true); // this network
  if (a === 10) return status(false, false, true);
  if (a === 100 && b >= 64 && b <= 127) return status(); // shared address space
  if (a === 127) return status(false, true);
  if (a === 169 && b === 254) return status(false, true);
  if (a === 172 && b >= 16 && b <= 31) return status(false, false, true);
  if (a === 192 && b === 0 && c === 0) return status(); // IETF protocol assignments
  if (a === 192 && b === 0 && c === 2) return status(); // documentation
  if (a === 192 && b === 88 && c === 99) return status(true); // 6to4 relay anycast
  if (a === 192 && b === 168) return status(false, false, true);
  if (a === 198 && b >= 18 && b <= 19) return status(); // benchmarking
  if (a === 198 && b === 51 && c === 100) return status();
  if (a === 203 && b === 0 && c === 113) return status();
  if (a >= 240) return status(false, true); // reserved, and 255.255.255.255
  return null;
}

function ipv6Status(ip: number[]): RangeStatus | null {
  const zeros = (n: number) => ip.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return status(false, true); // unspecified
  if (zeros(7) && ip[7] === 1) return status(false, true); // loopback
  if (ip[0] === 0x64 && ip[1] === 0xff9b) return status(true); // IPv4-IPv6 translation
  if (zeros(5) && ip[5] === 0xffff) return status(); // IPv4-mapped (not reserved in 8.2)
  if (ip[0] === 0x100 && ip[1] === 0 && ip[2] === 0 && ip[3] === 0) return status(); // discard-only
  if (ip[0] === 0x2001 && ip[1] >= 0x10 && ip[1] <= 0x1f) return status(false, true); // ORCHID
  if (ip[0] === 0x2001 && ip[1] <= 0x01ff) return status(); // TEREDO, IETF assignments, benchmarking
  if (ip[0] === 0x2001 && ip[1] === 0x0db8) return status(false, true); // documentation
  if (ip[0] >= 0xfc00 && ip[0] <= 0xfdff) return status(false, false, true); // unique-local
  if (ip[0] >= 0xfe80 && ip[0] <= 0xfebf) return status(false, true); // link-local
  return null;
}

export function validateIp(input: FilterInput): Filtered {
  const s = input.bin;
  const flags = input.flags;
  const v6 = s.includes(':');
  if (!v6 && !s.includes('.')) return FAILED;
  const want4 = (flags & FILTER_FLAG_IPV4) !== 0;
  const want6 = (flags & FILTER_FLAG_IPV6) !== 0;
  if (want4 !== want6 && (want4 ? v6 : !v6)) return FAILED;
  const ip = v6 ? parseIpv6(s) : parseIpv4(s);
  if (!ip) return FAILED;
  const st = v6 ? ipv6Status(ip) : ipv4Status(ip);
  if (!st) return input.text; // not in any special block
  if (flags & FILTER_FLAG_GLOBAL_RANGE && !st.global) return FAILED;
  if (flags & FILTER_FLAG_NO_PRIV_RANGE && st.private) return FAILED;
  if (flags & FILTER_FLAG_NO_RES_RANGE && st.reserved) return FAILED;
  return input.text;
}

/**
 * The test host's geo capability: the real IP-ranges table over the committed fixture
 * test/fixtures/geo/ranges.csv. Its country assignments are made up (documentation
 * ranges, and a few public-looking ones such as 5.10.0.0/16 -> JP and 2a00:1000::/32 -> GB).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HostAdapters } from '../../../src/host-api/host.js';
import { IpRangeTable, ipRangesGeo } from '../../../src/host-adapters/geo/ip-ranges.js';

export const GEO_FIXTURE = fileURLToPath(new URL('../../fixtures/geo/ranges.csv', import.meta.url));

let table: IpRangeTable | null = null;

export function geoTestAdapter(): Pick<HostAdapters, 'geo'> {
  table ??= IpRangeTable.fromCsv(readFileSync(GEO_FIXTURE, 'utf8'), 'ranges.csv');
  return { geo: ipRangesGeo(table) };
}

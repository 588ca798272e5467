import { describe, it } from 'vitest';
import { makeTimestamp, phpMktime } from '../../../src/php/date/make-timestamp.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';
import { smartyMakeTimestampPhp } from './smarty-make-timestamp.js';

const NOW = 1700000000;
const SMARTY_MAKE_TIMESTAMP = smartyMakeTimestampPhp(NOW);

describe('make_timestamp and mktime against php', () => {
  it('agree', () => {
    const inputs = [
      '',
      '0',
      0,
      null,
      false,
      '20240229235959',
      '20241301000000',
      '86400',
      '1.5e3',
      1700000000,
      '2024-01-15 13:45:00',
      '2024-03-10T12:00:00Z',
      'garbage',
      'tomorrow',
      '20240229235959\n',
      ' 12',
    ];
    const cases: Case[] = [];
    for (const tz of ['Asia/Tokyo', 'America/New_York']) {
      for (const v of inputs) {
        cases.push({
          fn: '__eval',
          args: [
            `$GLOBALS['__in'] = ${JSON.stringify(v) === 'null' ? 'null' : `json_decode(${JSON.stringify(JSON.stringify(v))})`}; ${SMARTY_MAKE_TIMESTAMP}`,
          ],
          tz,
          ours: () => makeTimestamp(v, NOW, tz),
        });
      }
      for (const [h, i, s, m, d, y] of [
        [0, 0, 0, 1, 1, 2024],
        [25, 61, 61, 13, 32, 2023],
        [2, 30, 0, 3, 10, 2024],
        [0, 0, 0, 0, 0, 2000],
        [-1, 0, 0, 1, 1, 1970],
      ]) {
        cases.push({ fn: 'mktime', args: [h, i, s, m, d, y], tz, ours: () => phpMktime(h, i, s, m, d, y, tz) });
      }
    }
    expectAgreement(compareWithPhp(cases, 'php/date/make-timestamp'));
  });
});

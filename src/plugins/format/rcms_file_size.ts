import { defineModifier } from '../types.js';
import { isNumeric, toFloatLoose, toInt } from '../../value/convert.js';
import { phpNumberFormat } from '../../php/format/number-format.js';

const BINARY = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
const DECIMAL = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

/**
 * rcms_file_size: a number of bytes for display. The spec gives the parameters (format type,
 * default 1; decimals, default 2) but not what the types mean; decided here:
 * 1 = units of 1024 (B, KB, MB...), 2 = units of 1000 (B, kB, MB...), 0 = the byte count with
 * thousands separators. Bytes are never shown with decimals. A non-numeric input gives null with
 * a warning, as the platform's type-checking wrapper does.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'rcms_file_size',
  origin: 'platform',
  summary:
    'A size in bytes for display: format 1 (default) in units of 1024, 2 in units of 1000, 0 as bytes; `decimals` digits after the point (default 2).',
  params: [
    { name: 'format', type: 'int', default: 1 },
    { name: 'decimals', type: 'int', default: 2 },
  ],
  examples: [
    {
      template: '{$n|rcms_file_size}|{$n|rcms_file_size:2:1}|{$n|rcms_file_size:0}|{512|rcms_file_size}',
      vars: { n: 1536000 },
      output: '1.46 MB|1.5 MB|1,536,000 B|512 B',
    },
  ],
  run(input, [format, decimals], ctx) {
    if (!isNumeric(input)) {
      ctx.warn('rcms_file_size: the input is not a number of bytes; the result is null');
      return null;
    }
    const bytes = Math.max(0, toFloatLoose(input));
    const type = toInt(format);
    const places = Math.min(Math.max(0, toInt(decimals)), 10);
    if (type === 0) return `${phpNumberFormat(Math.round(bytes), 0, '.', ',')} B`;
    const base = type === 2 ? 1000 : 1024;
    const units = type === 2 ? DECIMAL : BINARY;
    let value = bytes;
    let unit = 0;
    while (value >= base && unit < units.length - 1) {
      value /= base;
      unit++;
    }
    return unit === 0 ? `${Math.round(value)} B` : `${phpNumberFormat(value, places, '.', ',')} ${units[unit]}`;
  },
});

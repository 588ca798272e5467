/** Price formatting for usage_price_format: number_format($n, 0) with a currency symbol. */
import { isNumericStr } from '../../value/convert.js';

interface PriceFormat {
  symbol: string;
  thousands: string;
}

const DEFAULT_PRICE_FORMAT: PriceFormat = { symbol: '¥', thousands: ',' };

/**
 * PHP's round() to 0 places: half away from zero, after pre-rounding to 15 significant
 * digits so that values such as 0.49999999999999994 or 1.4999999999999998 round as written.
 */
function roundHalfAway(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const pre = Number(Math.abs(x).toPrecision(15));
  return Math.sign(x) * Math.floor(pre + 0.5);
}

export function formatPrice(value: string, fmt = DEFAULT_PRICE_FORMAT): string {
  if (!isNumericStr(value)) return '';
  const n = roundHalfAway(Number(value.trim()));
  if (!Number.isFinite(n)) return '';
  const digits = BigInt(Math.abs(n)).toString();
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, fmt.thousands);
  return (n < 0 ? '-' : '') + fmt.symbol + grouped;
}

import { defineModifier, type ModifierContext } from '../types.js';
import { strArg, valueError } from '../../php/args.js';
import { PhpTypeError, toInt } from '../../value/convert.js';
import { PhpArray, PhpFloat, type Value } from '../../value/value.js';
import { BCRYPT_MAX_COST, BCRYPT_MIN_COST, bcrypt } from '../../php/hash/bcrypt.js';
import { checkCost } from './password-limits.js';

const DEFAULT_COST = 10;

/** The algo argument as PHP's string|int|null parameter sees it (bools and integral floats become ints). */
function algoArg(v: Value): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof PhpFloat) return Number.isInteger(v.value) ? v.value : String(v.value);
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return Number(v); // an int, and no algorithm's number
  throw new PhpTypeError('password_hash(): Argument #2 ($algo) must be of type string|int|null');
}

/** PHP maps null, 0, 1 and "2y" to bcrypt; argon2 exists in PHP but not here. */
function checkAlgo(v: Value): void {
  const algo = algoArg(v);
  if (algo === null || algo === '2y' || algo === 0 || algo === 1) return;
  if (algo === 'argon2i' || algo === 'argon2id' || algo === 2 || algo === 3) {
    throw valueError(
      'password_hash',
      2,
      'algo',
      'is argon2, which this platform does not provide (use PASSWORD_DEFAULT / "2y")',
    );
  }
  throw valueError('password_hash', 2, 'algo', 'must be a valid password hashing algorithm');
}

function costOption(options: Value): number {
  if (options === null || options === undefined) return DEFAULT_COST;
  if (!(options instanceof PhpArray))
    throw new PhpTypeError('password_hash(): Argument #3 ($options) must be of type array');
  const cost = options.has('cost') ? toInt(options.get('cost')) : DEFAULT_COST;
  if (cost < BCRYPT_MIN_COST || cost > BCRYPT_MAX_COST)
    throw new PhpTypeError(`Invalid bcrypt cost parameter specified: ${cost}`);
  return cost;
}

/** 16 salt bytes from the render's generator (the host seeds it with fresh random bytes). */
function salt(ctx: ModifierContext): Uint8Array {
  return Uint8Array.from({ length: 16 }, () => Math.floor(ctx.random() * 256));
}

export default defineModifier({
  kind: 'modifier',
  name: 'password_hash',
  origin: 'php',
  summary:
    'PHP password_hash() with bcrypt (`$2y$`, 60 characters): the input is the password, then the algorithm (PASSWORD_DEFAULT / PASSWORD_BCRYPT = "2y", or null) and an optional options array with `cost` (default 10; above 12 is refused here). Argon2 is not available. A password with a NUL byte gives null and a warning (PHP ValueError).',
  params: [
    { name: 'algo', type: 'mixed', required: true, doc: '"2y", null, 0 or 1 (bcrypt).' },
    { name: 'options', type: 'array', default: null, doc: 'Array with `cost` (4..12).' },
  ],
  examples: [
    {
      template:
        "{assign var=h value='secret'|password_hash:'2y'}{$h|strlen}|{$h|substr:0:7}|{'secret'|password_verify:$h}",
      output: '60|$2y$10$|1',
    },
  ],
  run(input, [algo, options], ctx) {
    const password = strArg(input, 'password_hash', 1, 'password');
    checkAlgo(algo);
    const cost = costOption(options);
    if (password.includes('\0')) throw new PhpTypeError('Bcrypt password must not contain null character');
    checkCost(cost, 'password_hash');
    return bcrypt(password, { variant: 'y', cost, salt: salt(ctx) });
  },
});

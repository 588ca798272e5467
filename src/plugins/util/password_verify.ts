import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { bcrypt, parseSetting } from '../../php/hash/bcrypt.js';
import { checkCost } from './password-limits.js';

export default defineModifier({
  kind: 'modifier',
  name: 'password_verify',
  origin: 'php',
  summary:
    'PHP password_verify(): true when the input password matches the hash. bcrypt hashes (`$2y$`, `$2b$`, `$2a$`, `$2x$`) are checked; any other kind of hash (argon2, MD5-crypt, SHA-crypt, DES) gives false here. Like PHP, the password ends at a NUL byte and only its first 72 bytes count.',
  params: [{ name: 'hash', type: 'string', required: true }],
  examples: [
    {
      template: "{'rasmuslerdorf'|password_verify:$h}|{if 'wrong'|password_verify:$h}yes{else}no{/if}",
      vars: { h: '$2y$07$BCryptRequires22Chrcte/VlQH0piJtjXl.0t1XkA8pw9dMXTpOq' },
      output: '1|no',
    },
  ],
  run(input, [hash]) {
    const password = strArg(input, 'password_verify', 1, 'password');
    const h = strArg(hash, 'password_verify', 2, 'hash');
    const setting = parseSetting(h);
    if (!setting || h.length !== 60) return false;
    checkCost(setting.cost, 'password_verify');
    return bcrypt(password, setting) === h;
  },
});

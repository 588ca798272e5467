import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'rcms_encrypt',
  host: 'crypto',
  summary:
    'Encrypts or decrypts `data` with `key` (preferably a {secret} handle) and the site key, which never leaves the host: data encrypted on one site cannot be decrypted on another. Decryption that fails gives false. `sanitize` (default true) HTML-escapes decrypted text. Without `var` the result is printed.',
  attrs: {
    var: { type: 'varname' },
    action: { type: 'string', required: true, enum: ['encrypt', 'decrypt'] },
    data: { type: 'string', required: true },
    key: { type: 'string', required: true },
    sanitize: { type: 'bool', default: true },
  },
  examples: [
    {
      template:
        '{rcms_encrypt var=c action="encrypt" data="<b>hi</b>" key="k1"}{rcms_encrypt var=p action="decrypt" data=$c key="k1"}{rcms_encrypt var=raw action="decrypt" data=$c key="k1" sanitize=false}{rcms_encrypt var=bad action="decrypt" data=$c key="other"}{$p}|{$raw}|{if $bad === false}refused{/if}',
      output: '&lt;b&gt;hi&lt;/b&gt;|<b>hi</b>|refused',
    },
  ],
});

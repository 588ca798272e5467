/**
 * The attacks session's secret-guessing case (docs/security.md BR-21): a handle hides a secret's
 * value, so a template that can test a guess against the handle learns the value by trying. Here
 * the test was {rcms_encrypt}: a plain key equal to the value derived the same AES key as the
 * handle, so encrypting under a guess and decrypting under the handle (or the other way round)
 * said whether the guess was right (decisions.md D317). The redactor is such a test too, and is
 * not closed: docs/security.md, "A known limit: guessing a secret's value".
 */
import type { Canaries, SecurityCase } from '../types.js';
import { judge } from './helpers.js';

const GUESS =
  '{secret var=s key="API_PASSWORD"}' +
  '{rcms_encrypt var=a action="encrypt" data="probe" key=$g}{rcms_encrypt var=pa action="decrypt" data=$a key=$s}' +
  '{rcms_encrypt var=b action="encrypt" data="probe" key=$s}{rcms_encrypt var=pb action="decrypt" data=$b key=$g}' +
  '{rcms_encrypt var=c action="encrypt" data="probe" key=$s}{rcms_encrypt var=pc action="decrypt" data=$c key=$s}' +
  '[{if $pa === false}F{else}MATCH{/if}{if $pb === false}F{else}MATCH{/if}|{$pc}]';

export const BR_GUESSES: SecurityCase[] = [
  {
    id: 'BR-21',
    category: 'BR',
    title: "a secret's value confirmed by guessing: {rcms_encrypt} under a guessed key and under the handle",
    async run(h) {
      const value = (h.canaries as Canaries & { ownPasswordValue?: string }).ownPasswordValue;
      if (value === undefined)
        return { status: 'escaped', detail: "the harness host's own secret is needed to guess it right" };
      const a = await h.render(GUESS, { vars: { g: value } });
      return judge(
        h,
        a,
        a.output === '[FF|probe]',
        'the right guess opens nothing in either direction; the handle still opens its own',
      );
    },
  },
];

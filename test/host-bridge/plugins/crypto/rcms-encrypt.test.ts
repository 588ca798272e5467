import { describe, expect, it } from 'vitest';
import { testEngine } from '../../../support/engine.js';
import { testHosts } from '../../../support/test-host.js';
import { withAdapters } from '../../../../src/host-api/resolve.js';

const engine = testEngine({
  host: withAdapters(testHosts(), {
    secrets: { get: async (name) => (name === 'K' ? { value: 'secret-key' } : null) },
  }),
});

describe('{rcms_encrypt}', () => {
  it('round-trips, and data from another site (tenant) cannot be decrypted', async () => {
    const enc = await engine.render('{rcms_encrypt action="encrypt" data=$d key="k"}', {
      vars: { d: '日本 & <x>' },
      identity: { tenant: 'site-a' },
    });
    expect(enc.output).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    const dec = (tenant: string) =>
      engine.render(
        '{rcms_encrypt var=p action="decrypt" data=$c key="k" sanitize=false}{if $p === false}FALSE{else}{$p}{/if}',
        { vars: { c: enc.output }, identity: { tenant } },
      );
    expect((await dec('site-a')).output).toBe('日本 & <x>');
    expect((await dec('site-b')).output).toBe('FALSE');
  });

  it('takes a secret handle as the key; the secret value never appears', async () => {
    const r = await engine.render(
      '{secret var=s key="K"}{rcms_encrypt var=c action="encrypt" data="x" key=$s}{rcms_encrypt var=p action="decrypt" data=$c key=$s}{$p}|{$c|strpos:"secret-key"}',
      {},
    );
    expect(r.output).toBe('x|');
  });

  it('tampered data gives false', async () => {
    const r = await engine.render(
      '{rcms_encrypt var=c action="encrypt" data="x" key="k"}{rcms_encrypt var=p action="decrypt" data="`$c`A" key="k"}{if $p === false}F{/if}',
      {},
    );
    expect(r.output).toBe('F');
  });
});

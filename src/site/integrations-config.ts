/**
 * site.json `integrations`: where the integration plugins send their requests, and the NAMES of
 * the secrets (secrets.json) that authenticate them; never a token or key itself. Each service
 * is optional (absent: its plugins are E_HOST_CAPABILITY); every endpoint defaults to the real
 * service's and may point elsewhere (a compatible service, or a local server in tests). Read as
 * strictly as the rest of site.json: an unknown key or a wrong type names the key.
 */

interface ChatIntegration {
  /** Slack-compatible Web API base (default https://slack.com/api). */
  api_base: string;
  /** Secret holding the bot token. */
  token_secret: string;
}

interface SocialIntegration {
  /** X-API-v2-compatible base (default https://api.x.com). */
  api_base: string;
  /** Secret holding the OAuth 2 user access token. */
  token_secret: string;
}

interface CloudIntegration {
  /** OAuth 2 token endpoint (default https://oauth2.googleapis.com/token). */
  token_url: string;
  /** Publish/subscribe REST base (default https://pubsub.googleapis.com). */
  pubsub_base: string;
  /** Service-account secret used when a plugin names none; absent: sa_secret_name is required. */
  sa_secret_name: string | null;
}

interface AnalyticsIntegration {
  /** GA4-Data-API-compatible base (default https://analyticsdata.googleapis.com). */
  api_base: string;
  property_id: string;
  sa_secret_name: string;
  /** Token endpoint (default: the cloud integration's, else https://oauth2.googleapis.com/token). */
  token_url: string;
}

export interface IntegrationsConfig {
  chat?: ChatIntegration;
  social?: SocialIntegration;
  cloud?: CloudIntegration;
  analytics?: AnalyticsIntegration;
}

export const DEFAULT_ENDPOINTS = {
  chat: 'https://slack.com/api',
  social: 'https://api.x.com',
  token: 'https://oauth2.googleapis.com/token',
  pubsub: 'https://pubsub.googleapis.com',
  analytics: 'https://analyticsdata.googleapis.com',
} as const;

type Field = 'url' | 'secret' | 'digits';
/** Each service's keys: what each must be, and whether it is required. */
const SHAPES: Record<keyof IntegrationsConfig, Record<string, { is: Field; required?: boolean }>> = {
  chat: { api_base: { is: 'url' }, token_secret: { is: 'secret', required: true } },
  social: { api_base: { is: 'url' }, token_secret: { is: 'secret', required: true } },
  cloud: { token_url: { is: 'url' }, pubsub_base: { is: 'url' }, sa_secret_name: { is: 'secret' } },
  analytics: {
    api_base: { is: 'url' },
    property_id: { is: 'digits', required: true },
    sa_secret_name: { is: 'secret', required: true },
    token_url: { is: 'url' },
  },
};
const CHECKS: Record<Field, (v: unknown) => boolean> = {
  url: (v) => typeof v === 'string' && /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v) && URL.canParse(v),
  secret: (v) => typeof v === 'string' && /^[A-Za-z0-9_.-]{1,128}$/.test(v),
  digits: (v) => typeof v === 'string' && /^\d{1,20}$/.test(v),
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What is wrong with an `integrations` value, or null when it is well-formed. */
export function integrationsProblem(v: unknown): string | null {
  if (!isObject(v)) return '"integrations" must be an object';
  for (const [service, settings] of Object.entries(v)) {
    const shape = (SHAPES as Record<string, (typeof SHAPES)[keyof IntegrationsConfig]>)[service];
    if (!shape) return `unknown key "integrations.${service}" (known: ${Object.keys(SHAPES).join(', ')})`;
    if (!isObject(settings)) return `"integrations.${service}" must be an object`;
    for (const key of Object.keys(settings)) {
      if (!(key in shape))
        return `unknown key "integrations.${service}.${key}" (known: ${Object.keys(shape).join(', ')})`;
    }
    for (const [key, rule] of Object.entries(shape)) {
      if (!(key in settings)) {
        if (rule.required) return `"integrations.${service}.${key}" is required`;
        continue;
      }
      if (!CHECKS[rule.is](settings[key]))
        return `"integrations.${service}.${key}" has a wrong value (${rule.is === 'url' ? 'an http(s) URL' : rule.is === 'secret' ? 'a secret name' : 'digits'})`;
    }
  }
  return null;
}

/** A well-formed `integrations` value (integrationsProblem said null) with the defaults filled in. */
export function readIntegrations(v: Record<string, Record<string, string> | undefined>): IntegrationsConfig {
  const out: IntegrationsConfig = {};
  const { chat, social, cloud, analytics } = v;
  if (chat) out.chat = { api_base: chat.api_base ?? DEFAULT_ENDPOINTS.chat, token_secret: chat.token_secret! };
  if (social)
    out.social = { api_base: social.api_base ?? DEFAULT_ENDPOINTS.social, token_secret: social.token_secret! };
  if (cloud)
    out.cloud = {
      token_url: cloud.token_url ?? DEFAULT_ENDPOINTS.token,
      pubsub_base: cloud.pubsub_base ?? DEFAULT_ENDPOINTS.pubsub,
      sa_secret_name: cloud.sa_secret_name ?? null,
    };
  if (analytics) {
    out.analytics = {
      api_base: analytics.api_base ?? DEFAULT_ENDPOINTS.analytics,
      property_id: analytics.property_id!,
      sa_secret_name: analytics.sa_secret_name!,
      token_url: analytics.token_url ?? cloud?.token_url ?? DEFAULT_ENDPOINTS.token,
    };
  }
  return out;
}

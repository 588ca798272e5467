/**
 * site.json `integrations` with its defaults filled in: every endpoint defaults to the real
 * service's and may point elsewhere (a compatible service, or a local server in tests). What is
 * valid is schema/site.schema.json's to say (checked when site.json is read); this is the rest.
 * Each service is optional (absent: its plugins are E_HOST_CAPABILITY).
 */
import type {
  AnalyticsIntegrationJson,
  ChatIntegrationJson,
  CloudIntegrationJson,
  IntegrationsJson,
  SocialIntegrationJson,
} from './site-json.generated.js';

type ChatIntegration = Required<ChatIntegrationJson>;
type SocialIntegration = Required<SocialIntegrationJson>;
/** `sa_secret_name` null: each plugin call must name its service account. */
type CloudIntegration = Required<Omit<CloudIntegrationJson, 'sa_secret_name'>> & { sa_secret_name: string | null };
type AnalyticsIntegration = Required<AnalyticsIntegrationJson>;

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

/** A checked `integrations` value with the defaults filled in. */
export function readIntegrations(v: IntegrationsJson): IntegrationsConfig {
  const out: IntegrationsConfig = {};
  const { chat, social, cloud, analytics } = v;
  if (chat) out.chat = { ...chat, api_base: chat.api_base ?? DEFAULT_ENDPOINTS.chat };
  if (social) out.social = { ...social, api_base: social.api_base ?? DEFAULT_ENDPOINTS.social };
  if (cloud)
    out.cloud = {
      token_url: cloud.token_url ?? DEFAULT_ENDPOINTS.token,
      pubsub_base: cloud.pubsub_base ?? DEFAULT_ENDPOINTS.pubsub,
      sa_secret_name: cloud.sa_secret_name ?? null,
    };
  if (analytics)
    out.analytics = {
      ...analytics,
      api_base: analytics.api_base ?? DEFAULT_ENDPOINTS.analytics,
      token_url: analytics.token_url ?? cloud?.token_url ?? DEFAULT_ENDPOINTS.token,
    };
  return out;
}

/**
 * Where the integration plugins send their requests and which of the tenant's secrets
 * authenticate them (HostAdapters.chat, .social, .cloud, .analytics). Settings only: the
 * plugins (src/host-plugins/integrations/) speak each service's API through
 * HostAdapters.http, read the secrets through HostAdapters.secrets, and own every rule. An
 * adapter answers null for a tenant that has no such integration set up; the plugin then
 * refuses with E_HOST_CAPABILITY.
 */

/** A Slack-compatible Web API (chat_get_message, chat_post_message, chat_team_info). */
export interface ChatSettings {
  /** Base URL of the Web API methods, e.g. `https://slack.com/api` (`/chat.postMessage` is appended). */
  apiBase: string;
  /** Name of the tenant's secret holding the bot token (sent as `Authorization: Bearer`); its `hosts` must allow apiBase's host. */
  tokenSecret: string;
}

/** An X-API-v2-compatible service (social_post_message). */
export interface SocialSettings {
  /** Base URL, e.g. `https://api.x.com` (`/2/tweets` is appended). */
  apiBase: string;
  /** Name of the secret holding the OAuth 2 user access token; its `hosts` must allow apiBase's host. */
  tokenSecret: string;
}

/** A cloud's token service and publish/subscribe API (cloudfn_token, cloudpubsub_publish). */
export interface CloudSettings {
  /** OAuth 2 token endpoint the signed service-account assertions are exchanged at, e.g. `https://oauth2.googleapis.com/token`. */
  tokenUrl: string;
  /** Base URL of the publish/subscribe REST API, e.g. `https://pubsub.googleapis.com`. */
  pubsubBase: string;
  /** The service-account secret used when a call names no sa_secret_name; null: the attribute is required. */
  saSecret: string | null;
}

/** A GA4-Data-API-compatible analytics service (webanalytics). */
export interface AnalyticsSettings {
  /** Base URL, e.g. `https://analyticsdata.googleapis.com` (`/v1beta/properties/{id}:runReport` is appended). */
  apiBase: string;
  /** The property reports are run on (digits). */
  propertyId: string;
  /** Name of the service-account secret (JSON key) whose access token reads the property. */
  saSecret: string;
  /** OAuth 2 token endpoint for that access token. */
  tokenUrl: string;
}

/** One integration's settings for a tenant; null when the tenant has none. */
export interface IntegrationAdapter<T> {
  settings(): Promise<T | null>;
}

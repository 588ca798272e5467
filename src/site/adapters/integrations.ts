/**
 * The integration settings of a local site (HostAdapters.chat, .social, .cloud, .analytics)
 * from site.json `integrations`: a service the site does not list gets no adapter, so its
 * plugins are E_HOST_CAPABILITY. The secrets they name are read from secrets.json by the
 * secrets adapter (basic.ts), when a plugin needs them.
 */
import type { HostAdapters, IntegrationAdapter } from '../../index.js';
import type { SiteContext } from '../site-context.js';

export function integrationAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const { chat, social, cloud, analytics } = ctx.config.integrations;
  const settings = <T>(value: T): IntegrationAdapter<T> => ({
    async settings() {
      return value;
    },
  });
  return {
    ...(chat ? { chat: settings({ apiBase: chat.api_base, tokenSecret: chat.token_secret }) } : {}),
    ...(social ? { social: settings({ apiBase: social.api_base, tokenSecret: social.token_secret }) } : {}),
    ...(cloud
      ? {
          cloud: settings({ tokenUrl: cloud.token_url, pubsubBase: cloud.pubsub_base, saSecret: cloud.sa_secret_name }),
        }
      : {}),
    ...(analytics
      ? {
          analytics: settings({
            apiBase: analytics.api_base,
            propertyId: analytics.property_id,
            saSecret: analytics.sa_secret_name,
            tokenUrl: analytics.token_url,
          }),
        }
      : {}),
  };
}

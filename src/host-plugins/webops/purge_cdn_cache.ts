/**
 * {purge_cdn_cache module=... [topics_group_id=|csvtable_id=] [api_endpoint=]}: `PURGE <endpoint>`
 * with `Surrogate-Key: <key>` (decisions.md D93): `all`, `topics`, `topics-<id>`, `csvtable`,
 * `csvtable-<id>`. An endpoint the template names gets no token (the site's token goes only to the
 * endpoint the site configured, HostAdapters.cdn). No result variable in the spec: the outcome is
 * a log line, a warning when it failed.
 */
import { implement } from '../plugin-contract.js';
import type { ConfiguredEndpoint } from '../../host-api/adapters/webops.js';
import { BridgeError } from '../../host-api/errors.js';
import { send } from './common.js';
import declaration from '../../plugins/host-webops/purge_cdn_cache.js';

function surrogateKey(module: string, attrs: Record<string, unknown>): string {
  const group = attrs.topics_group_id;
  const table = attrs.csvtable_id;
  if (typeof group === 'number' && module !== 'topics')
    throw new BridgeError('E_BAD_COMBINATION', '{purge_cdn_cache} topics_group_id goes with module="topics"');
  if (typeof table === 'number' && module !== 'csvtable')
    throw new BridgeError('E_BAD_COMBINATION', '{purge_cdn_cache} csvtable_id goes with module="csvtable"');
  const id = module === 'topics' ? group : module === 'csvtable' ? table : undefined;
  return typeof id === 'number' ? `${module}-${id}` : module;
}

export const purgeCdnCache = implement(declaration, async (attrs, call) => {
  const key = surrogateKey(String(attrs.module), attrs);
  let endpoint: ConfiguredEndpoint | null;
  if (typeof attrs.api_endpoint === 'string' && attrs.api_endpoint !== '') {
    // A secret handle in a URL is never substituted (servers log and echo URLs).
    call.secrets.substitute(attrs.api_endpoint, 'the purge endpoint', () => false);
    endpoint = { url: attrs.api_endpoint };
  } else {
    endpoint = call.host.cdn ? await call.host.cdn.purgeEndpoint() : null;
    if (!endpoint)
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        '{purge_cdn_cache} needs api_endpoint: the site has no purge endpoint configured',
      );
  }
  const sent = await send(call, 'purge_cdn_cache', endpoint, 'PURGE', [['Surrogate-Key', key]]);
  if ('failed' in sent)
    return { log: [{ level: 'warning', message: `{purge_cdn_cache} ${key} not purged: ${sent.failed}` }] };
  const { status } = sent.res;
  if (status >= 200 && status < 300)
    return { log: [{ level: 'info', message: `{purge_cdn_cache} ${key} purged (${status})` }] };
  return {
    log: [{ level: 'warning', message: `{purge_cdn_cache} ${key} not purged: the endpoint answered ${status}` }],
  };
});

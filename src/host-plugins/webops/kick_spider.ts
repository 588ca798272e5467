/**
 * {kick_spider var=h spider_settings_id=N [spider_history_id=M] [target_urls=$list]}: one crawl
 * of the tenant's spider settings, recorded as a new run history, whose id goes to `var`. A web
 * render on a host with a batch queue queues the crawl as a run of the module batch spider/crawl
 * (D179: a crawl takes minutes, a page must answer in seconds), which calls {kick_spider
 * crawl_history_id=...} in the batch context; in a batch, or with no queue, the crawl runs inside
 * the render (D94). Settings that are not Enabled are not crawled (spec,
 * Errors): `var` is false and a warning says so. The seeds are target_urls, else the re-executed
 * run's target URLs, else the settings' start URLs; seeds the template gives must lie in the
 * settings' origins (those of the start URLs plus the allowed origins). crawl.ts holds the bounds.
 */
import { implement, type BridgeCall, type HostResult } from '../plugin-contract.js';
import type { SpiderAdapter, SpiderSettings } from '../../host-api/adapters/webops.js';
import { BridgeError } from '../../host-api/errors.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { PhpArray, type Value } from '../../value/value.js';
import { crawl } from './crawl.js';
import { startBatch } from '../batches/start.js';
import { resolve } from './links.js';
import declaration from '../../plugins/host-webops/kick_spider.js';

/** URLs of one target_urls list. */
export const MAX_SPIDER_TARGETS = 100;
/** What the crawl leaves of the render's wall time, for storing the run and answering. */
const WALL_MARGIN_MS = 250;

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

function originsOf(settings: SpiderSettings): Set<string> {
  const out = new Set<string>();
  for (const u of [...settings.startUrls, ...settings.allowedOrigins]) {
    const o = originOf(u);
    if (o !== null) out.add(o);
  }
  return out;
}

function targetUrls(v: Value, origins: ReadonlySet<string>, call: BridgeCall): string[] | null {
  if (!(v instanceof PhpArray) || v.size === 0) return null;
  if (v.size > MAX_SPIDER_TARGETS)
    throw new BridgeError('E_SIZE_LIMIT', `{kick_spider} takes at most ${MAX_SPIDER_TARGETS} target_urls`);
  return v.values().map((item) => {
    if (typeof item !== 'string')
      throw new BridgeError('E_BAD_ATTRIBUTE', '{kick_spider} target_urls must be a list of URLs');
    call.secrets.substitute(item, 'a spider target URL', () => false);
    const url = resolve(item, 'invalid:/');
    const origin = url === null ? null : originOf(url);
    if (url === null || origin === null)
      throw new BridgeError('E_BAD_URL', `{kick_spider} not an http(s) URL: ${JSON.stringify(item.slice(0, 120))}`);
    if (!origins.has(origin))
      throw new BridgeError(
        'E_PERMISSION_DENIED',
        `{kick_spider} ${origin} is not one of the spider settings' origins`,
      );
    return url;
  });
}

export const kickSpider = implement(declaration, async (attrs, call, spider) => {
  const settingsId = Number(attrs.spider_settings_id);
  const queued = typeof attrs.crawl_history_id === 'number' ? attrs.crawl_history_id : null;
  if (queued !== null && call.identity.context !== 'batch')
    throw new BridgeError(
      'E_PERMISSION_DENIED',
      '{kick_spider} crawl_history_id= is for the batch that crawls a queued run',
    );
  const settings = await spider.settings(settingsId);
  if (!settings) throw new BridgeError('E_NOT_FOUND', `{kick_spider} no spider settings ${settingsId}`);
  const varName = String(attrs.var);
  if (settings.status !== 'Enabled') {
    return {
      assign: [[varName, false]],
      log: [
        {
          level: 'warning',
          message: `{kick_spider} spider settings ${settingsId} are ${settings.status}: the crawl is not executed`,
        },
      ],
    };
  }
  if (queued !== null) {
    const run = await spider.history(queued);
    if (!run || run.settingsId !== settingsId)
      throw new BridgeError('E_NOT_FOUND', `{kick_spider} no run ${queued} of spider settings ${settingsId}`);
    return crawlRun(call, spider, settings, queued, run.targetUrls, varName);
  }
  let rerun = null;
  if (typeof attrs.spider_history_id === 'number') {
    rerun = await spider.history(attrs.spider_history_id);
    if (!rerun || rerun.settingsId !== settingsId)
      throw new BridgeError(
        'E_NOT_FOUND',
        `{kick_spider} no run ${attrs.spider_history_id} of spider settings ${settingsId}`,
      );
  }
  const origins = originsOf(settings);
  const targets = targetUrls(attrs.target_urls, origins, call) ?? rerun?.targetUrls ?? null;
  if (call.identity.context !== 'batch' && call.host.batches) {
    const historyId = await spider.startRun({ settingsId, targetUrls: targets, rerunOf: rerun?.id ?? null });
    let runId: number;
    try {
      const data = PhpArray.fromEntries([
        ['spider_settings_id', settingsId],
        ['spider_history_id', historyId],
      ]);
      runId = await startBatch(call, 'kick_spider', { batch: { slug: 'crawl' }, module: 'spider', data });
    } catch (e) {
      // Not queued: the history must not say running for ever.
      await spider.finishRun(historyId, { status: 'failed', stopReason: 'not queued', pages: [] });
      throw e;
    }
    return {
      assign: [[varName, historyId]],
      log: [{ level: 'info', message: `{kick_spider} run ${historyId}: queued as batch run ${runId}` }],
    };
  }
  const historyId = await spider.startRun({ settingsId, targetUrls: targets, rerunOf: rerun?.id ?? null });
  return crawlRun(call, spider, settings, historyId, targets, varName);
});

/** Crawls run history `historyId` inside this render and stores what it found. */
async function crawlRun(
  call: BridgeCall,
  spider: SpiderAdapter,
  settings: SpiderSettings,
  historyId: number,
  targets: string[] | null,
  varName: string,
): Promise<HostResult> {
  const origins = originsOf(settings);
  const http = call.host.http;
  if (!http) throw missingAdapter('{kick_spider}', 'http');
  const left = call.timeLeft();
  if (left <= WALL_MARGIN_MS + 50) {
    await spider.finishRun(historyId, { status: 'failed', stopReason: 'no time left', pages: [] });
    throw new BridgeError('E_WALL_TIMEOUT', '{kick_spider} no time left in the render for a crawl');
  }
  const seeds = (targets ?? settings.startUrls).filter((u) => originOf(u) !== null && origins.has(originOf(u)!));
  let result;
  try {
    result = await crawl(call, (req) => http.fetch(req), {
      seeds,
      origins,
      maxPages: settings.maxPages,
      maxDepth: settings.maxDepth,
      deadline: Date.now() + left - WALL_MARGIN_MS,
    });
  } catch (e) {
    await spider.finishRun(historyId, { status: 'failed', stopReason: 'host error', pages: [] });
    throw e;
  }
  await spider.finishRun(historyId, result);
  const how = result.status === 'done' ? 'done' : `stopped (${result.stopReason})`;
  return {
    assign: [[varName, historyId]],
    log: [{ level: 'info', message: `{kick_spider} run ${historyId}: ${result.pages.length} pages, ${how}` }],
  };
}

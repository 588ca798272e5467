/**
 * The spider's crawl: breadth first from the seeds, one GET at a time through the egress guard,
 * within bounds fixed before it starts (pages, depth, bytes per page, links per page, a deadline)
 * and within the allowed origins: a link to another origin is not followed, and a page that a
 * redirect took elsewhere is recorded without being read. A page that fails is recorded with
 * status 0 and its error code, and the crawl goes on: the links come from pages the template does
 * not control, so a refused one is not the template's error.
 */
import type { BridgeCall } from '../plugin-contract.js';
import type { SpiderPage, SpiderRunResult } from '../../host-api/adapters/webops.js';
import type { EgressRequest, EgressResponse } from '../../host-adapters/egress/guard.js';
import { fromBytes } from '../../value/bytes.js';
import { readPage } from './links.js';

/** Pages one render may fetch, over all its crawls. */
export const MAX_SPIDER_PAGES = 200;
/** Link depth below the seeds, whatever the settings say. */
export const MAX_SPIDER_DEPTH = 5;
/** Bytes of one page (after decoding); a larger page is recorded with E_HTTP_LIMIT. */
export const MAX_SPIDER_PAGE_BYTES = 1024 * 1024;
/** Links taken from one page. */
export const MAX_SPIDER_LINKS_PER_PAGE = 500;

/** The render's counter of pages fetched (BridgeCall.counters). */
const PAGES_COUNTER = 'kick_spider.pages';

export interface CrawlPlan {
  seeds: readonly string[];
  /** Origins (`https://host[:port]`) pages may be fetched from. */
  origins: ReadonlySet<string>;
  maxPages: number;
  maxDepth: number;
  /** Date.now() value after which no request starts. */
  deadline: number;
}

const HTML = /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i;

function header(res: EgressResponse, name: string): string {
  return res.headers.find(([n]) => n === name)?.[1] ?? '';
}

function failedPage(url: string, depth: number, e: unknown): SpiderPage {
  const code = (e as { code?: unknown } | null)?.code;
  return {
    url,
    depth,
    status: 0,
    bytes: 0,
    contentType: '',
    title: '',
    error: typeof code === 'string' && code.startsWith('E_') ? code : 'E_HTTP_FAILED',
  };
}

export async function crawl(
  call: BridgeCall,
  fetch: (req: EgressRequest) => Promise<EgressResponse>,
  plan: CrawlPlan,
): Promise<SpiderRunResult> {
  const maxPages = Math.min(plan.maxPages, MAX_SPIDER_PAGES);
  const maxDepth = Math.min(plan.maxDepth, MAX_SPIDER_DEPTH);
  const queue: { url: string; depth: number }[] = [];
  const queued = new Set<string>();
  for (const url of plan.seeds) {
    if (!queued.has(url)) queue.push({ url, depth: 0 });
    queued.add(url);
  }
  const pages: SpiderPage[] = [];
  const stop = (reason: string): SpiderRunResult => ({ status: 'stopped', stopReason: reason, pages });
  while (queue.length > 0) {
    if (pages.length >= maxPages) return stop('max pages');
    const fetched = call.counters.get(PAGES_COUNTER) ?? 0;
    if (fetched >= MAX_SPIDER_PAGES) return stop('pages per render');
    const left = plan.deadline - Date.now();
    if (left <= 50) return stop('time');
    const { url, depth } = queue.shift()!;
    call.counters.set(PAGES_COUNTER, fetched + 1);
    let res: EgressResponse;
    try {
      res = await fetch({
        method: 'GET',
        url,
        headers: [['Accept', 'text/html, application/xhtml+xml']],
        timeoutMs: left,
        maxResponseBytes: MAX_SPIDER_PAGE_BYTES,
      });
    } catch (e) {
      pages.push(failedPage(url, depth, e));
      continue;
    }
    const contentType = header(res, 'content-type').slice(0, 200);
    const page: SpiderPage = {
      url,
      depth,
      status: res.status,
      bytes: res.body.length,
      contentType,
      title: '',
      error: '',
    };
    pages.push(page);
    if (!plan.origins.has(new URL(res.url).origin)) {
      page.error = 'E_PERMISSION_DENIED';
      continue;
    }
    if (res.status < 200 || res.status >= 300 || !HTML.test(contentType)) continue;
    const read = readPage(fromBytes(res.body), res.url, MAX_SPIDER_LINKS_PER_PAGE);
    page.title = read.title;
    if (depth >= maxDepth) continue;
    for (const link of read.links) {
      if (queued.has(link) || !plan.origins.has(new URL(link).origin)) continue;
      queued.add(link);
      queue.push({ url: link, depth: depth + 1 });
    }
  }
  return { status: 'done', stopReason: '', pages };
}

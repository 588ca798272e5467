/**
 * The operations a site runs over HTTP: its CDN purge endpoint and build hook (site.json `cdn`,
 * `deploy`), and its spider (rows of spider_settings, spider_history, spider_pages). Outbound
 * requests are the plugins' business, through HostAdapters.http.
 */
import type { HostAdapters, SpiderAdapter, SpiderSettings } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import type { SqlRunner } from '../db/database.js';
import { nowSeconds } from './credentials.js';

/** Tries at taking the next history id when another run took the same one meanwhile. */
const ID_TRIES = 5;

function stringList(text: string | null): string[] {
  if (text === null) return [];
  const v: unknown = JSON.parse(text);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

interface SettingsRow {
  spider_settings_id: number;
  status: string;
  start_urls: string;
  allowed_origins: string;
  max_pages: number;
  max_depth: number;
}

function settingsOf(r: SettingsRow): SpiderSettings {
  return {
    id: Number(r.spider_settings_id),
    status: r.status === 'Enabled' ? 'Enabled' : 'Disabled',
    startUrls: stringList(r.start_urls),
    allowedOrigins: stringList(r.allowed_origins),
    maxPages: Number(r.max_pages),
    maxDepth: Number(r.max_depth),
  };
}

/** The next id of the tenant and the row in one statement (a SELECT's parameters typed for PostgreSQL). */
async function insertRun(
  tx: SqlRunner,
  tenant: string,
  run: Parameters<SpiderAdapter['startRun']>[0],
): Promise<number> {
  const row = await tx.get<{ id: number }>(
    `INSERT INTO spider_history (tenant, spider_history_id, spider_settings_id, rerun_of, target_urls, status, started_at)
     SELECT CAST(? AS TEXT), COALESCE(MAX(spider_history_id), 0) + 1, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), 'running', CAST(? AS BIGINT)
     FROM spider_history WHERE tenant = ?
     RETURNING spider_history_id AS id`,
    [
      tenant,
      run.settingsId,
      run.rerunOf,
      run.targetUrls === null ? null : JSON.stringify(run.targetUrls),
      nowSeconds(),
      tenant,
    ],
  );
  return Number(row!.id);
}

function spider(ctx: SiteContext): SpiderAdapter {
  const tenant = ctx.tenant;
  return {
    async settings(id) {
      const r = await ctx.db.get<SettingsRow>(
        'SELECT * FROM spider_settings WHERE tenant = ? AND spider_settings_id = ?',
        [tenant, id],
      );
      return r ? settingsOf(r) : null;
    },
    async history(id) {
      const r = await ctx.db.get<{ spider_settings_id: number; target_urls: string | null }>(
        'SELECT spider_settings_id, target_urls FROM spider_history WHERE tenant = ? AND spider_history_id = ?',
        [tenant, id],
      );
      return r
        ? {
            id,
            settingsId: Number(r.spider_settings_id),
            targetUrls: r.target_urls === null ? null : stringList(r.target_urls),
          }
        : null;
    },
    async startRun(run) {
      for (let i = 1; ; i++) {
        try {
          return await ctx.db.transaction((tx) => insertRun(tx, tenant, run));
        } catch (e) {
          // Two runs started at once can both read the same MAX: the primary key refuses one.
          if (i >= ID_TRIES) throw e;
        }
      }
    },
    async finishRun(historyId, result) {
      await ctx.db.transaction(async (tx) => {
        let seq = 0;
        for (const p of result.pages) {
          seq++;
          await tx.run(
            'INSERT INTO spider_pages (tenant, spider_history_id, seq, url, depth, status, bytes, content_type, title, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
            [tenant, historyId, seq, p.url, p.depth, p.status, p.bytes, p.contentType, p.title, p.error],
          );
        }
        await tx.run(
          'UPDATE spider_history SET status = ?, stop_reason = ?, pages = ?, finished_at = ? WHERE tenant = ? AND spider_history_id = ?',
          [result.status, result.stopReason, result.pages.length, nowSeconds(), tenant, historyId],
        );
      });
    },
  };
}

export function webopsAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const { cdn, deploy } = ctx.config;
  return {
    cdn: {
      async purgeEndpoint() {
        return cdn
          ? { url: cdn.purge_url, ...(cdn.token_secret !== undefined ? { tokenSecret: cdn.token_secret } : {}) }
          : null;
      },
    },
    deploy: {
      async hook() {
        return deploy
          ? { url: deploy.hook_url, ...(deploy.token_secret !== undefined ? { tokenSecret: deploy.token_secret } : {}) }
          : null;
      },
    },
    spider: spider(ctx),
  };
}

/**
 * ML-06: chat and social posting in a loop. The harness host gets chat and social integrations
 * whose API is the harness's allowed server (the bot token is the attacker tenant's own secret,
 * allowed for that host): a template posting in an endless loop must end with a limit, and the
 * server must have seen no more posts than one render may make API requests.
 */
import { createEngine } from '../../engine.js';
import { MAX_REQUESTS_PER_RENDER } from '../../host-plugins/api/common.js';
import type { SecurityCase } from '../types.js';
import { harnessHttp } from '../host/http.js';
import { judge } from './helpers.js';
import { withAdapters } from '../../host-api/resolve.js';

const LIMIT_CODES = ['E_QUOTA', 'E_BRIDGE_QUOTA'];

export const ML_POSTING: SecurityCase[] = [
  {
    id: 'ML-06',
    category: 'ML',
    title: 'chat and social posting in an endless loop',
    async run(h) {
      const s = harnessHttp();
      // https: a secret never goes over plain http.
      const base = `https://api.example.com:${s.httpsPort}`;
      const engine = createEngine({
        host: withAdapters(h.host, {
          chat: { settings: async () => ({ apiBase: `${base}/chat`, tokenSecret: 'API_TOKEN' }) },
          social: { settings: async () => ({ apiBase: `${base}/social`, tokenSecret: 'API_TOKEN' }) },
        }),
        timezone: 'Asia/Tokyo',
        limits: { wallMs: 120_000, cpuMs: 20_000 },
      });
      const sent: number[] = [];
      try {
        for (const t of [
          '{section name=i loop=100000}{chat_post_message var=ok channel="C0EXAMPLE" text="spam"}{/section}',
          '{section name=i loop=100000}{social_post_message var=ok text="spam"}{/section}',
        ]) {
          const before = s.seen.length;
          const a = await h.render(t, { engine });
          const n = s.seen.length - before;
          sent.push(n);
          const o = judge(
            h,
            a,
            LIMIT_CODES.includes(a.code ?? '') && n <= MAX_REQUESTS_PER_RENDER,
            `a limit ends the loop, at most ${MAX_REQUESTS_PER_RENDER} requests (${n} sent)`,
          );
          if (o.status !== 'contained') return { ...o, detail: `${t.slice(30, 60)}: ${o.detail}` };
        }
      } finally {
        await engine.close();
      }
      return {
        status: 'contained',
        detail: `each loop ended by the per-render request cap (E_QUOTA): ${sent.join(' and ')} posts reached the service`,
        figures: { chat: sent[0] ?? 0, social: sent[1] ?? 0 },
      };
    },
  },
];

/**
 * The peer engines, each set up idiomatically for the page: templates compiled once, then
 * `render()` produces the page. Every engine is given the same HTML escaping (PHP's
 * htmlspecialchars with ENT_QUOTES: `'` is `&#039;`), so that outputs are byte-equal to the
 * hand-written function's, and dates are formatted in UTC.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PageData } from '../data/generate.js';
import { escapeHtml } from './hand-written.js';

const require = createRequire(import.meta.url);
const tpl = (name: string) => readFileSync(new URL(`../templates/${name}`, import.meta.url), 'utf8');
const two = (n: number) => (n < 10 ? '0' + n : '' + n);
const ymd = (t: number) => {
  const d = new Date(t * 1000);
  return d.getUTCFullYear() + '-' + two(d.getUTCMonth() + 1) + '-' + two(d.getUTCDate());
};

export interface PeerRenderer {
  version: string;
  render(): string;
}

const versionOf = (pkg: string): string => (require(`${pkg}/package.json`) as { version: string }).version;

export const PEERS: Record<string, (data: PageData) => Promise<PeerRenderer>> = {
  async eta(data) {
    const { Eta } = require('eta') as typeof import('eta');
    const eta = new Eta({ autoEscape: true, escapeFunction: escapeHtml, useWith: false });
    const fn = eta.compile(tpl('page.eta'));
    const it = { ...data, ymd };
    return { version: versionOf('eta'), render: () => fn.call(eta, it) };
  },

  async handlebars(data) {
    const Handlebars = require('handlebars') as typeof import('handlebars');
    // The precompiled template's container escapes through Utils.escapeExpression.
    (Handlebars.Utils as { escapeExpression: (s: unknown) => string }).escapeExpression = (s: unknown) =>
      s === null || s === undefined ? '' : escapeHtml(s);
    Handlebars.registerHelper('inc', (i: number) => i + 1);
    Handlebars.registerHelper('truncate', (s: string, n: number) => (s.length > n ? s.slice(0, n - 3) + '...' : s));
    Handlebars.registerHelper('ymd', (t: number) => ymd(t));
    Handlebars.registerHelper('join', (xs: string[], sep: string) => xs.join(sep));
    const spec = Handlebars.precompile(tpl('page.hbs'));
    const template = Handlebars.template(new Function(`return ${spec as string}`)());
    return { version: versionOf('handlebars'), render: () => template(data) };
  },

  async nunjucks(data) {
    interface NjkEnv {
      addFilter(name: string, f: (...a: never[]) => unknown): void;
    }
    const nunjucks = require('nunjucks') as {
      Environment: new (loader: null, opts: { autoescape: boolean }) => NjkEnv;
      compile(src: string, env: NjkEnv): { render(ctx: unknown): string };
    };
    const lib = require('nunjucks/src/lib') as { escape: (s: string) => string };
    lib.escape = escapeHtml;
    const env = new nunjucks.Environment(null, { autoescape: true });
    env.addFilter('ymd', ymd);
    const t = nunjucks.compile(tpl('page.njk'), env);
    t.render(data); // compiles
    return { version: versionOf('nunjucks'), render: () => t.render(data) };
  },

  async jsmart(data) {
    const JSmart = require('jsmart') as {
      new (src: string): { fetch(d: unknown): string };
      prototype: { registerPlugin(type: string, name: string, fn: unknown): void };
    };
    JSmart.prototype.registerPlugin('modifier', 'join', (xs: string[], sep: string) => xs.join(sep));
    JSmart.prototype.registerPlugin('modifier', 'escape', (s: unknown) => escapeHtml(s));
    JSmart.prototype.registerPlugin('modifier', 'date_format', (t: number) => ymd(t));
    const t = new JSmart(tpl('page.jsmart.tpl'));
    return { version: versionOf('jsmart'), render: () => t.fetch(data) };
  },

  async liquid(data) {
    const { Liquid } = require('liquidjs') as typeof import('liquidjs');
    const liquid = new Liquid({ timezoneOffset: 0 });
    liquid.registerFilter('escape', (s: unknown) => escapeHtml(s));
    const t = liquid.parse(tpl('page.liquid'));
    return { version: versionOf('liquidjs'), render: () => liquid.renderSync(t, data) as string };
  },
};

/**
 * The multi-page benchmark's pages (issue 35, goal 5): besides the list page of bench/templates/,
 * a mail body, a JSON API answer, a Japanese page and a page of {section} and {if}. Each page has
 * its data (deterministic), its template (`<name>.tpl`, the same text for smartcage and for
 * Smarty 2.6.33), an Eta template and a hand-written function. Every subject's output is checked
 * byte-equal to the hand-written function's before anything is timed (bench/pages.ts).
 */
import { readFileSync } from 'node:fs';
import { mulberry32 as prng } from '../../test/support/prng.js';
import { generate } from '../data/generate.js';
import { escapeHtml, makeHandWritten } from '../engines/hand-written.js';

export interface Page {
  name: string;
  /** The smartcage and Smarty 2 template. */
  template: string;
  /** The Eta template (helpers come in `it.h`). */
  eta: string;
  /** Eta escapes `<%= %>` with escapeHtml (the HTML pages) or not at all. */
  etaEscapes: boolean;
  vars: Record<string, unknown>;
  /** The engine's and PHP's time zone for this page. */
  timezone: string;
  /** The page by hand. */
  hand: (vars: Record<string, unknown>) => string;
}

const here = (f: string) => readFileSync(new URL(f, import.meta.url), 'utf8');

// ---- helpers the hand-written functions and the Eta templates share

const two = (n: number) => (n < 10 ? '0' + n : '' + n);
/** The calendar fields of Unix time `t` in a zone `offset` seconds east of UTC. */
const fields = (t: number, offset: number) => {
  const d = new Date((t + offset) * 1000);
  return {
    y: d.getUTCFullYear(),
    m: two(d.getUTCMonth() + 1),
    d: two(d.getUTCDate()),
    H: two(d.getUTCHours()),
    M: two(d.getUTCMinutes()),
  };
};
const TOKYO = 9 * 3600;

/** PHP's number_format($n) for an integer. */
function numberFormat(n: number): string {
  const s = String(Math.abs(n));
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ',';
    out += s[i];
  }
  return n < 0 ? '-' + out : out;
}

/** PHP's wordwrap($s, $width, "\n", true) for single-spaced text whose words fit the width. */
function wordwrap(s: string, width: number): string {
  const words = s.split(' ');
  let out = '';
  let line = '';
  for (const w of words) {
    if (line === '') line = w;
    else if (line.length + 1 + w.length <= width) line += ' ' + w;
    else {
      out += line + '\n';
      line = w;
    }
  }
  return out + line;
}

const nl2br = (s: string) => s.replace(/\r\n|\n\r|\n|\r/g, '<br />$&');

/** PHP's json_encode with its default flags: `/` escaped, everything past ASCII as \uXXXX. */
function phpJson(v: unknown): string {
  return JSON.stringify(v).replace(/[\u0080-\uffff]|\//g, (c) =>
    c === '/' ? '\\/' : '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

/** The platform's mb_truncate (Smarty's truncate counted in characters), for BMP text. */
function mbTruncate(s: string, length: number, etc: string): string {
  if (s.length <= length) return s;
  const keep = length - Math.min(length, etc.length);
  const head = s.slice(0, keep + 1).replace(/[ \t\n\v\f\r]+?([^ \t\n\v\f\r]+)?$/, '');
  return head.slice(0, keep) + etc;
}

/** mb_strimwidth($s, 0, $width, $marker) for text of ASCII and full-width characters. */
function strimwidth(s: string, width: number, marker: string): string {
  const w = (c: number) => (c < 0x80 ? 1 : 2);
  let total = 0;
  for (let i = 0; i < s.length; i++) total += w(s.charCodeAt(i));
  if (total <= width) return s;
  const room = width - marker.length;
  let used = 0;
  let i = 0;
  while (i < s.length && used + w(s.charCodeAt(i)) <= room) used += w(s.charCodeAt(i++));
  return s.slice(0, i) + marker;
}

export const helpers = {
  two,
  fields,
  numberFormat,
  wordwrap,
  nl2br,
  phpJson,
  mbTruncate,
  strimwidth,
  esc: escapeHtml,
  TOKYO,
};

// ---- data

const KANA = 'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん';
const KANJI = '東京大阪京都日本語文字新聞記事会社学校先生電車駅前公園図書館料理店季節春夏秋冬山川海空花鳥風月';
const ASCII_WORDS = ['2024', 'API', 'Smarty', 'PHP', 'Web', 'CMS', 'OK'];

export function japanese(rnd: () => number, chars: number): string {
  let s = '';
  while (s.length < chars) {
    const r = rnd();
    if (r < 0.08) s += ' ' + ASCII_WORDS[Math.floor(rnd() * ASCII_WORDS.length)] + ' ';
    else if (r < 0.5) s += KANJI[Math.floor(rnd() * KANJI.length)];
    else if (r < 0.95) s += KANA[Math.floor(rnd() * KANA.length)];
    else s += '、';
  }
  return s.slice(0, chars);
}

function mailVars(): Record<string, unknown> {
  const rnd = prng(3501);
  const lines = [];
  let total = 0;
  for (let i = 0; i < 20; i++) {
    const qty = 1 + Math.floor(rnd() * 5);
    const price = 100 + Math.floor(rnd() * 200_000);
    total += qty * price;
    lines.push({
      name: japanese(rnd, 6 + Math.floor(rnd() * 10)),
      sku: `SKU-${10_000 + i}`,
      qty,
      price,
      subtotal: qty * price,
    });
  }
  const words =
    'thank you for your order please keep this mail as your receipt the parcel will be handed to the carrier within two working days and you can follow it on our site'.split(
      ' ',
    );
  let note = '';
  for (let i = 0; i < 60; i++) note += (i ? ' ' : '') + words[Math.floor(rnd() * words.length)];
  return {
    shop: {
      name: 'スマートケージ商店',
      footer: 'スマートケージ商店\n東京都千代田区丸の内1-1\nhttps://shop.example.jp/\nお問い合わせ: support@example.jp',
    },
    order: {
      customer: '山田 太郎',
      number: 'A-2024-000123',
      date: 1_717_000_000,
      delivery: 1_717_300_000,
      lines,
      total,
      note,
    },
  };
}

function mailHand(v: Record<string, unknown>): string {
  const { shop, order } = v as {
    shop: { name: string; footer: string };
    order: {
      customer: string;
      number: string;
      date: number;
      delivery: number;
      total: number;
      note: string;
      lines: { name: string; sku: string; qty: number; price: number; subtotal: number }[];
    };
  };
  const d = fields(order.date, TOKYO);
  const e = fields(order.delivery, TOKYO);
  let o =
    order.customer +
    '様\n\n' +
    shop.name +
    'をご利用いただき、ありがとうございます。\nご注文日時: ' +
    d.y +
    '年' +
    d.m +
    '月' +
    d.d +
    '日 ' +
    d.H +
    '時' +
    d.M +
    '分\nご注文番号: ' +
    order.number +
    '\n\n';
  for (const l of order.lines)
    o +=
      '- ' +
      l.name +
      ' (' +
      l.sku +
      ') x ' +
      l.qty +
      ': ' +
      numberFormat(l.price) +
      '円 / 小計 ' +
      numberFormat(l.subtotal) +
      '円\n';
  o +=
    '\n合計: ' +
    numberFormat(order.total) +
    '円\nお届け予定: ' +
    e.m +
    '月' +
    e.d +
    '日 (' +
    e.H +
    ':' +
    e.M +
    ')\n\n' +
    wordwrap(order.note, 60) +
    '\n\n' +
    nl2br(shop.footer);
  return o;
}

function jsonVars(): Record<string, unknown> {
  const rnd = prng(3502);
  const items = [];
  for (let i = 0; i < 50; i++) {
    items.push({
      id: 5000 + i,
      title: `${japanese(rnd, 8)} "${ASCII_WORDS[i % ASCII_WORDS.length]}" & <${i}>`,
      url: `https://example.jp/items/${5000 + i}/detail`,
      price: Math.floor(rnd() * 100_000),
      rating: Math.floor(rnd() * 50) / 10,
      published: rnd() < 0.7,
      tags: ['news', 'tech', 'food'].slice(0, 1 + (i % 3)),
      author: { id: 100 + (i % 7), name: japanese(rnd, 4), email: `user${i % 7}@example.jp` },
      updated: `2024-05-${two(1 + (i % 28))}T10:00:00+09:00`,
    });
  }
  return { api: { status: 'ok', page: { number: 1, size: 50, total: 1234 }, items } };
}

function jaVars(): Record<string, unknown> {
  const rnd = prng(3503);
  const articles = [];
  for (let i = 0; i < 50; i++) {
    articles.push({
      id: i + 1,
      title: `${japanese(rnd, 12)} <第${i + 1}回> & 「特集」`,
      body: japanese(rnd, 80 + Math.floor(rnd() * 120)),
      author: japanese(rnd, 3),
      date: 1_700_000_000 + Math.floor(rnd() * 30_000_000),
    });
  }
  return { site: { title: 'ニュース & 特集 <日本語>' }, articles };
}

function jaHand(v: Record<string, unknown>): string {
  const { site, articles } = v as {
    site: { title: string };
    articles: { id: number; title: string; body: string; author: string; date: number }[];
  };
  const title = escapeHtml(site.title);
  let o =
    '<!DOCTYPE html>\n<html lang="ja"><head><title>' + title + '</title></head>\n<body>\n<h1>' + title + '</h1>\n';
  for (const a of articles) {
    const d = fields(a.date, TOKYO);
    o +=
      '<article id="a' +
      a.id +
      '"><h2>' +
      escapeHtml(a.title) +
      '</h2>\n<p class="lead">' +
      escapeHtml(mbTruncate(a.body, 40, '…')) +
      '</p>\n<p class="short">' +
      escapeHtml(strimwidth(a.body, 30, '...')) +
      '</p>\n<span class="len">' +
      a.body.length +
      '文字</span> <span class="by">' +
      a.author.slice(0, 1) +
      'さん</span> <time>' +
      d.y +
      '年' +
      d.m +
      '月' +
      d.d +
      '日</time></article>\n';
  }
  return o + '</body>\n</html>';
}

function sectionVars(): Record<string, unknown> {
  const rnd = prng(3504);
  const rows = [];
  for (let r = 0; r < 40; r++) {
    const cells = [];
    for (let c = 0; c < 12; c++) {
      const x = rnd();
      cells.push(x < 0.05 ? 0 : x > 0.95 ? 100 : Math.floor(rnd() * 100));
    }
    rows.push({ label: `row ${r + 1}`, cells });
  }
  return { rows };
}

function sectionHand(v: Record<string, unknown>): string {
  const rows = (v as { rows: { label: string; cells: number[] }[] }).rows;
  let o = '<table class="grid">\n';
  for (let r = 0; r < rows.length; r++) {
    o +=
      '<tr class="' +
      (r % 2 === 0 ? 'even' : 'odd') +
      (r === 0 ? ' first' : '') +
      (r === rows.length - 1 ? ' last' : '') +
      '"><th>' +
      rows[r].label +
      '</th>\n';
    for (const x of rows[r].cells)
      o +=
        '<td' +
        (x > 80 ? ' class="hot"' : x < 20 ? ' class="cold"' : '') +
        '>' +
        (x === 0 ? '-' : x === 100 ? 'max' : x) +
        '</td>\n';
    o += '</tr>\n';
  }
  return o + '</table>';
}

export function pages(): Page[] {
  const list = makeHandWritten();
  return [
    {
      name: 'list',
      template: readFileSync(new URL('../templates/page.tpl', import.meta.url), 'utf8'),
      eta: readFileSync(new URL('../templates/page.eta', import.meta.url), 'utf8'),
      etaEscapes: true,
      vars: generate() as unknown as Record<string, unknown>,
      timezone: 'UTC',
      hand: (v) => list(v as never),
    },
    {
      name: 'mail',
      template: here('mail.tpl'),
      eta: here('mail.eta'),
      etaEscapes: false,
      vars: mailVars(),
      timezone: 'Asia/Tokyo',
      hand: mailHand,
    },
    {
      name: 'json',
      template: here('json.tpl'),
      eta: here('json.eta'),
      etaEscapes: false,
      vars: jsonVars(),
      timezone: 'Asia/Tokyo',
      hand: (v) => phpJson(v.api),
    },
    {
      name: 'ja',
      template: here('ja.tpl'),
      eta: here('ja.eta'),
      etaEscapes: true,
      vars: jaVars(),
      timezone: 'Asia/Tokyo',
      hand: jaHand,
    },
    {
      name: 'section',
      template: here('section.tpl'),
      eta: here('section.eta'),
      etaEscapes: false,
      vars: sectionVars(),
      timezone: 'Asia/Tokyo',
      hand: sectionHand,
    },
  ];
}

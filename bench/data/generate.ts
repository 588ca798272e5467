/**
 * The benchmark page's data, generated deterministically (same seed, same bytes on every run and
 * machine): 100 items with HTML special characters in titles and bodies, unix-time dates, three
 * tags and a flag: the page every engine renders (bench/README.md).
 */
import { mulberry32 as prng } from '../../test/support/prng.js';

export interface Item {
  id: number;
  title: string;
  body: string;
  date: number;
  tags: string[];
  featured: boolean;
}

export interface PageData {
  page: { title: string };
  items: Item[];
}

const WORDS = [
  'lorem',
  'ipsum',
  'dolor',
  'sit',
  'amet',
  'tenant',
  'sandbox',
  'isolate',
  'render',
  'output',
  'fish',
  'chips',
  'template',
  'smarty',
  'modifier',
  'plugin',
  'escape',
  'quote',
  'ampersand',
  'angle',
  'bracket',
  'coffee',
  'tea',
  'river',
  'mountain',
  'harbour',
  'market',
  'station',
  'garden',
  'library',
];
const SPECIAL = ['<b>', '&', '"quoted"', "it's", '>', 'a<b', 'R&D', "'single'", '</p>'];
const TAGS = ['news', 'sport', 'tech', 'food', 'travel', 'music', 'film', 'books', 'science', 'health'];

export function generate(count = 100, seed = 20240501): PageData {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const items: Item[] = [];
  for (let i = 0; i < count; i++) {
    const target = 300 + Math.floor(rnd() * 21); // 300–320 characters
    let body = '';
    while (body.length < target) {
      const w = rnd() < 0.15 ? pick(SPECIAL) : pick(WORDS);
      body += (body ? ' ' : '') + w;
    }
    body = body.slice(0, target);
    const tags: string[] = [];
    while (tags.length < 3) {
      const t = pick(TAGS);
      if (!tags.includes(t)) tags.push(t);
    }
    items.push({
      id: 1000 + i,
      title: `${pick(WORDS)} & ${pick(WORDS)} <${pick(WORDS)}> "${pick(WORDS)}" it's #${i + 1}`,
      body,
      date: 1_600_000_000 + Math.floor(rnd() * 200_000_000),
      tags,
      featured: rnd() < 0.3,
    });
  }
  return { page: { title: 'Catalogue <2024> & "friends" of O\'Brien' }, items };
}

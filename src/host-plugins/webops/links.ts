/**
 * What the spider reads from an HTML page: its title and the http(s) links of its `<a href>`
 * elements, resolved against the page URL (or its `<base href>`), without fragments, at most
 * `maxLinks`. Parsed by parse5 (the WHATWG parsing algorithm), never with patterns.
 */
import { parse } from 'parse5';

/** Characters of a title kept. */
const MAX_TITLE_CHARS = 200;

interface Node {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  value?: string;
  content?: Node;
}

export interface PageLinks {
  title: string;
  links: string[];
}

function attr(node: Node, name: string): string | undefined {
  return node.attrs?.find((a) => a.name === name)?.value;
}

function text(node: Node): string {
  if (node.nodeName === '#text') return node.value ?? '';
  return (node.childNodes ?? []).map(text).join('');
}

export function readPage(html: string, pageUrl: string, maxLinks: number): PageLinks {
  const doc = parse(html) as unknown as Node;
  let title = '';
  let base = pageUrl;
  const hrefs: string[] = [];
  // Iterative: a page nested thousands of elements deep must not exhaust the stack.
  const stack: Node[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeName === 'title' && title === '')
      title = text(node).replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS);
    if (node.nodeName === 'base' && hrefs.length === 0) {
      const href = attr(node, 'href');
      if (href !== undefined) base = resolve(href, pageUrl) ?? base;
    }
    if (node.nodeName === 'a') {
      const href = attr(node, 'href');
      if (href !== undefined) hrefs.push(href);
    }
    const children = node.content ? [node.content] : (node.childNodes ?? []);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  const links: string[] = [];
  const seen = new Set<string>();
  for (const href of hrefs) {
    if (links.length >= maxLinks) break;
    const url = resolve(href, base);
    if (url === null || seen.has(url)) continue;
    seen.add(url);
    links.push(url);
  }
  return { title, links };
}

/** An http(s) URL without its fragment, or null. */
export function resolve(href: string, base: string): string | null {
  try {
    const u = new URL(href.trim(), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

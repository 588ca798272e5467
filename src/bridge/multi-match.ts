/**
 * Aho-Corasick over UTF-16 code units: every occurrence of any of a set of literal patterns,
 * found in one left-to-right pass in time linear in the text (plus the matches), whatever the
 * text holds. Used to redact secret values (secret-redactor.ts): the patterns are host data,
 * the text comes from the network, so no regular expression and no per-pattern search.
 *
 * The trie lives in typed arrays sized to the patterns' total length. Children are a sibling
 * list per node, with a dense table for the root's ASCII children (most of any text walks
 * through the root). Each node knows the longest pattern that ends at it (itself or through
 * its failure links), which is all redaction needs.
 */

export interface Match {
  start: number;
  end: number;
  /** The tag of the longest pattern of the match (the first one added, on a tie). */
  tag: number;
}

export class MultiMatcher {
  private readonly fail: Int32Array;
  private readonly firstChild: Int32Array;
  private readonly sibling: Int32Array;
  private readonly ch: Uint16Array;
  /** Length of the longest pattern that is a suffix of this node's path (0: none). */
  private readonly bestLen: Int32Array;
  private readonly bestTag: Int32Array;
  private readonly rootAscii = new Int32Array(128);
  private nodes = 1;
  readonly size: number;

  constructor(patterns: readonly { text: string; tag: number }[]) {
    let total = 1;
    for (const p of patterns) total += p.text.length;
    this.fail = new Int32Array(total);
    this.firstChild = new Int32Array(total).fill(-1);
    this.sibling = new Int32Array(total).fill(-1);
    this.ch = new Uint16Array(total);
    this.bestLen = new Int32Array(total);
    this.bestTag = new Int32Array(total);
    const ownLen = new Int32Array(total);
    const ownTag = new Int32Array(total);
    for (const p of patterns) {
      if (p.text.length === 0) continue;
      let node = 0;
      for (let i = 0; i < p.text.length; i++) {
        const c = p.text.charCodeAt(i);
        let next = this.child(node, c);
        if (next < 0) next = this.addChild(node, c);
        node = next;
      }
      if (ownLen[node] === 0) {
        ownLen[node] = p.text.length;
        ownTag[node] = p.tag;
      }
    }
    this.size = this.nodes;
    // Breadth first, so a node's failure target (always shallower) is complete before it.
    const queue = new Int32Array(this.nodes);
    let head = 0;
    let tail = 0;
    for (let v = this.firstChild[0]; v >= 0; v = this.sibling[v]) {
      this.fail[v] = 0;
      queue[tail++] = v;
    }
    while (head < tail) {
      const u = queue[head++];
      this.bestLen[u] = ownLen[u] > 0 ? ownLen[u] : this.bestLen[this.fail[u]];
      this.bestTag[u] = ownLen[u] > 0 ? ownTag[u] : this.bestTag[this.fail[u]];
      for (let v = this.firstChild[u]; v >= 0; v = this.sibling[v]) {
        const c = this.ch[v];
        let f = this.fail[u];
        let target = this.child(f, c);
        while (target < 0 && f !== 0) {
          f = this.fail[f];
          target = this.child(f, c);
        }
        this.fail[v] = target >= 0 ? target : 0;
        queue[tail++] = v;
      }
    }
  }

  /**
   * The matches in `text`, overlapping ones merged into one (tagged with the earliest), in
   * order; null when there would be more than `limit` of them. Linear: each character moves
   * one step down the trie, and failure steps never climb back more than the steps taken down.
   */
  find(text: string, limit = Infinity): Match[] | null {
    const out: Match[] = [];
    if (this.nodes === 1) return out;
    // Locals and the transitions written out: this loop runs once per character of a body.
    const { rootAscii, firstChild, sibling, ch, fail, bestLen, bestTag } = this;
    const n = text.length;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      for (;;) {
        if (s === 0) {
          if (c < 128) s = rootAscii[c];
          else {
            let v = firstChild[0];
            while (v >= 0 && ch[v] !== c) v = sibling[v];
            s = v >= 0 ? v : 0;
          }
          break;
        }
        let v = firstChild[s];
        while (v >= 0 && ch[v] !== c) v = sibling[v];
        if (v >= 0) {
          s = v;
          break;
        }
        s = fail[s];
      }
      const len = bestLen[s];
      if (len === 0) continue;
      let start = i + 1 - len;
      let tag = bestTag[s];
      // Earlier matches that overlap this one fold into it (ends only grow, so only the last ones can).
      while (out.length > 0 && out[out.length - 1].end > start) {
        const prev = out.pop()!;
        if (prev.start <= start) {
          start = prev.start;
          tag = prev.tag;
        }
      }
      out.push({ start, end: i + 1, tag });
      if (out.length > limit) return null;
    }
    return out;
  }

  private child(node: number, c: number): number {
    if (node === 0 && c < 128) {
      const v = this.rootAscii[c];
      return v > 0 ? v : -1;
    }
    for (let v = this.firstChild[node]; v >= 0; v = this.sibling[v]) if (this.ch[v] === c) return v;
    return -1;
  }

  private addChild(node: number, c: number): number {
    const v = this.nodes++;
    this.ch[v] = c;
    this.sibling[v] = this.firstChild[node];
    this.firstChild[node] = v;
    if (node === 0 && c < 128) this.rootAscii[c] = v;
    return v;
  }
}

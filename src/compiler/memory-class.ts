/**
 * {set_memory}: the memory class is decided before the render starts (docs/decisions.md D24),
 * so the value must be literal and one of 256M, 512M, 768M.
 */
import type { FlatNode } from './ast.js';
import type { Diagnostic, SourceText } from '../errors.js';
import { literalText } from './codegen/attrs.js';

export type MemoryClass = 128 | 256 | 512 | 768;
const ALLOWED: Record<string, MemoryClass> = { '256M': 256, '512M': 512, '768M': 768 };

export function scanMemoryClass(nodes: FlatNode[], src: SourceText, diagnostics: Diagnostic[]): MemoryClass {
  let memory: MemoryClass = 128;
  for (const n of nodes) {
    if (n.type !== 'Tag' || n.name !== 'set_memory') continue;
    const attr = n.attrs.find((a) => a.name === 'memory_limit' || a.name === 'var');
    const text = attr ? literalText(attr.value) : null;
    if (text === null || !Object.hasOwn(ALLOWED, text)) {
      diagnostics.push(
        src.diagnostic(
          'error',
          'E_MEMORY_CLASS',
          `{set_memory} takes memory_limit="256M", "512M" or "768M" written literally${text ? `, not "${text.slice(0, 20)}"` : ''}`,
          n.start,
          n.end,
        ),
      );
      continue;
    }
    memory = Math.max(memory, ALLOWED[text]) as MemoryClass;
  }
  return memory;
}

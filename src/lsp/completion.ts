/**
 * Completion from the declarations: after `{` the tag names (plugins and built-ins), after `{/`
 * the blocks still open, inside a plugin's tag its attributes not written yet, after `|` the
 * modifiers.
 */
import { CompletionItemKind, MarkupKind, type CompletionItem } from 'vscode-languageserver/node';
import { describe, type Language } from './language.js';
import { openBlocks, scanTo } from './tag-context.js';
import type { PluginEntry } from '../plugins/reference.js';

const TAG_NAME = /^[ \t\r\n]*(\/?)[ \t\r\n]*[A-Za-z_0-9]*$/;
const MODIFIER = /(?<!\|)\|@?[A-Za-z_0-9]*$/;
const NAMED_TAG = /^[ \t\r\n]*([A-Za-z_][A-Za-z0-9_]*)[ \t\r\n]/;
/** After whitespace, not where a value follows `=`. */
const ATTRIBUTE_NAME = /[ \t\r\n][A-Za-z_0-9]*$/;
const AFTER_EQUALS = /=[ \t\r\n]*[A-Za-z_0-9]*$/;
const WRITTEN_ATTRIBUTE = /(?:^|[ \t\r\n])([A-Za-z_][A-Za-z0-9_]*)[ \t\r\n]*=/g;

export function completionsAt(source: string, offset: number, lang: Language): CompletionItem[] {
  const { before, open } = scanTo(source, offset);
  if (!open || open.inString) return [];
  const text = open.text;

  const tagName = TAG_NAME.exec(text);
  if (tagName) {
    if (tagName[1] === '/')
      return openBlocks(before, (n) => lang.isBlock(n))
        .reverse()
        .map((name, i) => ({ label: name, kind: CompletionItemKind.Keyword, sortText: String(i).padStart(4, '0') }));
    return [
      ...[...lang.tags].map(([name, e]) => pluginItem(name, e)),
      ...lang.builtInTags.map((name) => ({
        label: name,
        kind: CompletionItemKind.Keyword,
        detail: 'built into the compiler',
      })),
    ];
  }

  if (MODIFIER.test(text)) return [...lang.modifiers].map(([name, e]) => pluginItem(name, e));

  const named = NAMED_TAG.exec(text);
  const plugin = named ? lang.tags.get(named[1]!) : undefined;
  if (plugin && ATTRIBUTE_NAME.test(text) && !AFTER_EQUALS.test(text)) {
    const written = new Set([...text.matchAll(WRITTEN_ATTRIBUTE)].map((m) => m[1]));
    return plugin.arguments
      .filter((a) => !written.has(a.name))
      .map((a) => ({
        label: a.name,
        kind: CompletionItemKind.Property,
        detail: `${a.enum ? a.enum.join(' | ') : a.type}${a.required ? ', required' : ''}`,
        ...(a.doc ? { documentation: a.doc } : {}),
        insertText: `${a.name}=`,
        // Required attributes first.
        sortText: `${a.required ? 0 : 1}${a.name}`,
      }));
  }
  return [];
}

function pluginItem(name: string, e: PluginEntry): CompletionItem {
  return {
    label: name,
    kind: CompletionItemKind.Function,
    detail: e.summary.length > 80 ? `${e.summary.slice(0, 79)}…` : e.summary,
    documentation: { kind: MarkupKind.Markdown, value: describe(e) },
  };
}

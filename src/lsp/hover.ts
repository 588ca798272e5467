/** Hover: a tag or modifier name shows its declaration (signature, summary, where it runs); an attribute name its type and doc. */
import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { describe, type Language } from './language.js';
import { scanTo } from './tag-context.js';

const NAME_CHAR = /[A-Za-z0-9_]/;
const TAG_START = /^[ \t\r\n]*\/?[ \t\r\n]*$/;
const AFTER_PIPE = /(?<!\|)\|@?$/;
const NAMED_TAG = /^[ \t\r\n]*([A-Za-z_][A-Za-z0-9_]*)[ \t\r\n]/;

export function hoverAt(doc: TextDocument, offset: number, lang: Language): Hover | null {
  const source = doc.getText();
  let start = offset;
  let end = offset;
  while (start > 0 && NAME_CHAR.test(source[start - 1]!)) start--;
  while (end < source.length && NAME_CHAR.test(source[end]!)) end++;
  if (start === end) return null;
  const { open } = scanTo(source, start);
  if (!open || open.inString) return null;
  const word = source.slice(start, end);
  const range = { start: doc.positionAt(start), end: doc.positionAt(end) };
  const markdown = (value: string): Hover => ({ contents: { kind: MarkupKind.Markdown, value }, range });

  if (TAG_START.test(open.text)) {
    const e = lang.tags.get(word);
    if (e) return markdown(describe(e));
    return lang.builtInTags.includes(word) ? markdown(`\`{${word}}\`: built into the compiler`) : null;
  }
  if (AFTER_PIPE.test(open.text)) {
    const e = lang.modifiers.get(word);
    return e ? markdown(describe(e)) : null;
  }
  const named = NAMED_TAG.exec(open.text);
  const attr =
    named && /^[ \t\r\n]*=/.test(source.slice(end))
      ? lang.tags.get(named[1]!)?.arguments.find((a) => a.name === word)
      : undefined;
  if (!attr) return null;
  const type = attr.enum ? attr.enum.map((v) => `\`${v}\``).join(' | ') : attr.type;
  return markdown(
    [`\`${word}\`: ${type}${attr.required ? ', required' : ''}`, ...(attr.doc ? ['', attr.doc] : [])].join('\n'),
  );
}

import { didYouMean, parseArgs, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { ENGINE_VERSION } from '../../compiler/index.js';
import { BUILTIN_TAG_NAMES } from '../../compiler/builtin-tags.js';
import { hostProvides } from '../../host-api/capabilities.js';
import { budgetText, pluginEntries, signature, type PluginEntry } from '../../plugins/reference.js';
import { CLI_HOST } from '../host.js';
import type { Command } from '../main.js';

/** A reference entry and whether this host (the CLI's engine) can run it. */
type ListedPlugin = PluginEntry & { provided: boolean };

export interface PluginList {
  engine: string;
  /** The capabilities, of those the declarations name, that this host answers. */
  hostCapabilities: string[];
  /** Tags the compiler handles itself ({if}, {foreach}...): not plugins, no declaration. */
  builtInTags: readonly string[];
  plugins: ListedPlugin[];
}

function pluginList(): PluginList {
  const plugins = pluginEntries().map((e) => ({
    ...e,
    provided: e.implemented && (e.capability === null || hostProvides(CLI_HOST, e.capability)),
  }));
  const capabilities = [...new Set(plugins.flatMap((p) => (p.capability === null ? [] : [p.capability])))].sort();
  return {
    engine: ENGINE_VERSION,
    hostCapabilities: capabilities.filter((c) => hostProvides(CLI_HOST, c)),
    builtInTags: BUILTIN_TAG_NAMES,
    plugins,
  };
}

export const pluginsCommand: Command = {
  name: 'plugins',
  summary: 'List every tag and modifier: family, attributes or parameters, summary, where it runs.',
  usage: [
    'smartcage plugins [NAME...] [--json]',
    '',
    '  NAME     only these tags or modifiers (`truncate`, `{counter}`, `|escape`), with their attributes',
    '  --json   print the list as JSON (one object per plugin, the same data as docs/reference.md)',
    '',
    'A plugin runs in the isolate (inside the sandbox) or on the host, where it needs a capability',
    'of the embedder (files, http, secrets...); "not on this host" marks those the CLI cannot run.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { json: { type: 'boolean' } });
    const list = pluginList();
    if (positionals.length > 0) {
      const found = positionals.map((name) => ({ name, entries: lookUp(list, name) }));
      const unknown = found.filter((f) => f.entries.length === 0).map((f) => f.name);
      if (unknown.length > 0) {
        const names = list.plugins.map((p) => p.name);
        const hints = unknown.map((n) => {
          const guess = didYouMean(bare(n), names);
          return `"${n}"${guess ? ` (did you mean ${guess}?)` : ''}`;
        });
        throw new UsageError(`no tag or modifier ${hints.join(', ')}; \`smartcage plugins\` lists them all`);
      }
      const entries = found.flatMap((f) => f.entries);
      process.stdout.write(
        values.json === true ? JSON.stringify(entries, null, 2) + '\n' : entries.map(detailText).join('\n'),
      );
      return EXIT.OK;
    }
    process.stdout.write(values.json === true ? JSON.stringify(list, null, 2) + '\n' : listingText(list));
    return EXIT.OK;
  },
};

const WIDTH = 100;

/** `{foreach}` and `|escape` name one kind; a bare name either (a tag and a modifier may share it). */
const bare = (name: string): string => name.replace(/^\{|\}$/g, '').replace(/^\|/, '');

function lookUp(list: PluginList, name: string): ListedPlugin[] {
  const kind = name.startsWith('{') ? 'tag' : name.startsWith('|') ? 'modifier' : null;
  const n = bare(name);
  return list.plugins.filter((p) => (kind === null || p.kind === kind) && (p.name === n || p.aliases.includes(n)));
}

/** One plugin in full: signature, where it runs, summary, each attribute or parameter. */
function detailText(p: ListedPlugin): string {
  const where = p.runs === 'host' ? `host: ${p.capability}${p.provided ? '' : ', not on this host'}` : 'isolate';
  const out = [
    signature(p),
    `  ${p.form === 'modifier' ? `modifier (${p.origin})` : `${p.form} tag`}, family ${p.family}, runs in: ${where}`,
  ];
  if (p.requiresOneOf) out.push(`  needs at least one of: ${p.requiresOneOf.join(', ')}`);
  out.push(...wrap(p.summary, '  '));
  for (const a of p.arguments) {
    const head = `${a.name} (${a.enum ? a.enum.join('|') : a.type}${a.required ? ', required' : ''}${a.default !== undefined ? `, default ${JSON.stringify(a.default)}` : ''})`;
    out.push(...wrap(`${head}${a.doc ? `: ${a.doc}` : ''}`, '    '));
  }
  return out.join('\n') + '\n';
}

function listingText(list: PluginList): string {
  const implemented = list.plugins.filter((p) => p.implemented);
  const tags = implemented.filter((p) => p.kind === 'tag').length;
  const families = new Set(implemented.map((p) => p.family)).size;
  const out = [
    `smartcage ${list.engine}: ${tags} tags and ${implemented.length - tags} modifiers in ${families} families.`,
    `This host (the CLI) answers the capabilities: ${list.hostCapabilities.join(', ') || 'none'}.`,
    ...wrap(`Built into the compiler: ${list.builtInTags.map((t) => `{${t}}`).join(' ')}`, ''),
  ];
  let family: string | null | undefined;
  for (const p of implemented) {
    if (p.family !== family) out.push('', p.family ?? '');
    family = p.family;
    const where = p.runs === 'host' ? `host: ${p.capability}${p.provided ? '' : ', not on this host'}` : 'isolate';
    out.push(
      `  ${signature(p)}  [${p.form === 'modifier' ? p.origin : p.form}, ${where}]`,
      ...wrap(p.summary, '      '),
    );
    if (p.budget) out.push(...wrap(`Row budget: ${budgetText(p.budget)}.`, '      '));
  }
  const missing = list.plugins.filter((p) => !p.implemented);
  out.push('', 'Part of the language but not implemented yet (E_NOT_IMPLEMENTED):');
  for (const [kind, label, shown] of [
    ['tag', 'tags', (n: string) => `{${n}}`],
    ['modifier', 'modifiers', (n: string) => `|${n}`],
  ] as const) {
    const names = missing.filter((p) => p.kind === kind).map((p) => shown(p.name));
    out.push(...wrap(`${label}: ${names.join(' ') || 'none'}`, '  '));
  }
  return out.join('\n') + '\n';
}

/** Words to lines of at most WIDTH characters (a longer word gets a line of its own). */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

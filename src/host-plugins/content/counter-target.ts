/**
 * Which counter increment_counter and update_counter write: the content (ID or slug) must be one
 * of topics_group_id, the column (ID or slug) a counter column of that group, the index within
 * the column's repeats. Both plugins write through writeCounter.
 */
import type { BridgeCall, HostResult } from '../plugin-contract.js';
import type { ContentAdapter, CounterTarget } from '../../host-api/adapters/content.js';
import { BridgeError } from '../../host-api/errors.js';
import type { Value } from '../../value/value.js';
import { contentAdapter } from './common.js';
import { positiveId } from '../data-attrs.js';

/** The names a plugin gives the column and index attributes, for its messages. */
export interface CounterAttrNames {
  column: string;
  index: string;
}

/**
 * The counter column `ref` (ID or slug) of group `groupId` and the index within its repeats:
 * a column that is missing is E_NOT_FOUND, one that is not a counter or an index past its
 * repeats E_BAD_ATTRIBUTE.
 */
export async function counterColumn(
  plugin: string,
  content: ContentAdapter,
  groupId: number,
  ref: string,
  index: number,
  names: CounterAttrNames = { column: 'ext_slug', index: 'index' },
): Promise<{ columnId: number; index: number }> {
  const columnId = positiveId(ref);
  const columns = await content.columns(groupId);
  const column = columns.find((c) => c.id === columnId) ?? columns.find((c) => c.slug === ref);
  if (!column)
    throw new BridgeError(
      'E_NOT_FOUND',
      `{${plugin}} content group ${groupId} has no column with the ID or slug "${ref.slice(0, 80)}"`,
    );
  if (column.type !== 'counter')
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} ${names.column}= names the ${column.type} column "${column.slug}", not a counter column`,
    );
  if (index >= column.repeat) {
    const why =
      column.repeat === 1
        ? `does not repeat (leave ${names.index} out, or 0)`
        : `repeats ${column.repeat} times (${names.index} 0..${column.repeat - 1})`;
    throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} ${names.index}=${index}: the column "${column.slug}" ${why}`);
  }
  return { columnId: column.id, index };
}

async function resolveTarget(
  plugin: string,
  content: ContentAdapter,
  attrs: Record<string, Value>,
): Promise<CounterTarget> {
  const groupId = Number(attrs.topics_group_id);
  const slug = String(attrs.slug);
  const id = positiveId(slug);
  const topicId =
    (id !== null ? await content.findTopicId(groupId, { id }) : null) ?? (await content.findTopicId(groupId, { slug }));
  if (topicId === null)
    throw new BridgeError(
      'E_NOT_FOUND',
      `{${plugin}} content group ${groupId} has no content with the ID or slug "${slug.slice(0, 80)}"`,
    );
  const column = await counterColumn(
    plugin,
    content,
    groupId,
    String(attrs.ext_slug),
    typeof attrs.index === 'number' ? attrs.index : 0,
  );
  return { topicId, ...column };
}

/** Resolves the target, writes the pending value with `write`, and assigns the new value to var. */
export async function writeCounter(
  plugin: string,
  attrs: Record<string, Value>,
  call: BridgeCall,
  write: (content: ContentAdapter, target: CounterTarget, value: number) => Promise<number>,
): Promise<HostResult> {
  const content = contentAdapter(call, plugin);
  const target = await resolveTarget(plugin, content, attrs);
  const value = await write(content, target, Number(attrs.value));
  return typeof attrs.var === 'string' ? { assign: [[attrs.var, value]] } : {};
}

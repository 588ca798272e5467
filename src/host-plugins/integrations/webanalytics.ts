/**
 * {webanalytics}: runs a report (analytics-report.ts) and sets a counter column of the contents
 * it names. Each row's dimension value (a page path or a slug) names a content of
 * topics_group_id by its last path segment, an ID or a slug; rows of one content add up; the
 * counter gets the rounded sum. Only contents in the response are set; reset_flg=1 first sets the
 * column of every content of the group to 0; an empty report sets nothing (no reset either), and
 * so does a failed one. All writes are one transaction (ContentAdapter.setCounters), reaching the
 * contents with {sync_counter} (docs/decisions.md D115).
 *
 * var receives the report (dimension value => metric), false on failure; updated_topics_ids the
 * IDs of every content whose counter was set, ascending ([] when none).
 */
import { implement, type BridgeCall, type HostResult } from '../plugin-contract.js';
import type { CounterWrite } from '../../host-api/adapters/content.js';
import { BridgeError } from '../../host-api/errors.js';
import { adapterWith } from '../../host-api/capabilities.js';
import { PhpArray, float, type Value } from '../../value/value.js';
import { phpStrtotime } from '../../php/date/strtotime.js';
import { phpDate } from '../../php/date/date.js';
import { positiveId } from '../data-attrs.js';
import { counterColumn } from '../content/counter-target.js';
import { ServiceFailure, failed, settingsOf } from './common.js';
import { extraFields, fieldName, runReport, type ReportRow } from './analytics-report.js';
import declaration from '../../plugins/host-integrations/webanalytics.js';

const PLUGIN = 'webanalytics';
/** Counters one call may set (reset_flg covers the whole group). */
export const MAX_COUNTER_WRITES = 100_000;

function day(attr: string, text: string, call: BridgeCall): string {
  const ts = phpStrtotime(text, call.render.now, call.render.timezone);
  if (ts === false)
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${PLUGIN}} ${attr}= is not a date strtotime reads: "${text.slice(0, 60)}"`,
    );
  return phpDate('Y-m-d', ts, call.render.timezone);
}

/** The content key of a dimension value: the last segment of its path, without query or fragment. */
function contentKey(dimension: string): string | null {
  const path = dimension.split(/[?#]/, 1)[0]!;
  const segments = path.split('/').filter((s) => s !== '');
  const last = segments.at(-1);
  if (last === undefined) return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

interface CounterPlan {
  groupId: number;
  columnId: number;
  index: number;
  reset: boolean;
}

async function counterPlan(attrs: Record<string, Value>, call: BridgeCall): Promise<CounterPlan | null> {
  const hasGroup = typeof attrs.topics_group_id === 'number';
  const column =
    typeof attrs.update_column_slug === 'string' && attrs.update_column_slug !== '' ? attrs.update_column_slug : null;
  if (!hasGroup && column === null) {
    if (attrs.reset_flg === 1)
      throw new BridgeError(
        'E_BAD_COMBINATION',
        `{${PLUGIN}} reset_flg=1 needs topics_group_id= and update_column_slug=`,
      );
    return null;
  }
  if (!hasGroup || column === null)
    throw new BridgeError('E_BAD_COMBINATION', `{${PLUGIN}} topics_group_id= and update_column_slug= go together`);
  const content = adapterWith(call.host, 'content', `{${PLUGIN}}`, ['setCounters', 'topicIdsBySlug']);
  const groupId = Number(attrs.topics_group_id);
  if (!(await content.group(groupId)))
    throw new BridgeError('E_NOT_FOUND', `{${PLUGIN}} there is no content group ${groupId}`);
  const index = typeof attrs.update_column_index === 'number' ? attrs.update_column_index : 0;
  const target = await counterColumn(PLUGIN, content, groupId, column, index, {
    column: 'update_column_slug',
    index: 'update_column_index',
  });
  return { groupId, ...target, reset: attrs.reset_flg === 1 };
}

/**
 * The content each key names: digits are an ID of the group's contents, else (and for digits
 * that are no such ID) a slug. A few queries, however many keys.
 */
async function resolveKeys(
  call: BridgeCall,
  groupId: number,
  ids: ReadonlySet<number>,
  keys: ReadonlySet<string>,
): Promise<Map<string, number>> {
  const content = adapterWith(call.host, 'content', `{${PLUGIN}}`, ['topicIdsBySlug']);
  const found = new Map<string, number>();
  const slugs: string[] = [];
  for (const key of keys) {
    const id = positiveId(key);
    if (id !== null && ids.has(id)) found.set(key, id);
    else slugs.push(key);
  }
  if (slugs.length > 0) for (const [slug, id] of await content.topicIdsBySlug(groupId, slugs)) found.set(slug, id);
  return found;
}

/** Sets the counters of the report's contents (after the reset); answers the IDs set, ascending. */
async function setCounters(call: BridgeCall, plan: CounterPlan, rows: readonly ReportRow[]): Promise<number[]> {
  const content = adapterWith(call.host, 'content', `{${PLUGIN}}`, ['setCounters']);
  const keyed = rows.map((row) => [contentKey(row.dimension), row.value] as const);
  const groupIds = (await content.groupTopics(plan.groupId)).map((t) => t.id);
  const ids = await resolveKeys(
    call,
    plan.groupId,
    new Set(groupIds),
    new Set(keyed.flatMap(([key]) => (key === null ? [] : [key]))),
  );
  const sums = new Map<number, number>();
  for (const [key, value] of keyed) {
    const topicId = key === null ? undefined : ids.get(key);
    if (topicId !== undefined) sums.set(topicId, (sums.get(topicId) ?? 0) + value);
  }
  const values = new Map<number, number>();
  if (plan.reset) for (const id of groupIds) values.set(id, 0);
  for (const [id, sum] of sums) values.set(id, Math.min(Math.max(Math.round(sum), 0), Number.MAX_SAFE_INTEGER));
  if (values.size > MAX_COUNTER_WRITES)
    throw new BridgeError('E_SIZE_LIMIT', `{${PLUGIN}} would set more than ${MAX_COUNTER_WRITES} counters`);
  const writes: CounterWrite[] = [...values].map(([topicId, value]) => ({
    target: { topicId, columnId: plan.columnId, index: plan.index },
    value,
  }));
  if (writes.length > 0) await content.setCounters(writes);
  return [...values.keys()].sort((a, b) => a - b);
}

function reportValue(rows: readonly ReportRow[]): PhpArray {
  const sums = new Map<string, number>();
  for (const { dimension, value } of rows) sums.set(dimension, (sums.get(dimension) ?? 0) + value);
  return PhpArray.fromEntries([...sums].map(([k, v]) => [k, Number.isSafeInteger(v) ? v : float(v)] as const));
}

export const webanalytics = implement(declaration, async (attrs, call) => {
  const dimension = fieldName(
    PLUGIN,
    'update_target_dimension',
    typeof attrs.update_target_dimension === 'string' ? attrs.update_target_dimension : 'pagePath',
  );
  const metric = fieldName(
    PLUGIN,
    'update_target_metric',
    typeof attrs.update_target_metric === 'string' ? attrs.update_target_metric : 'screenPageViews',
  );
  const startDate = day(
    'startDate',
    typeof attrs.startDate === 'string' && attrs.startDate !== '' ? attrs.startDate : '-7 days',
    call,
  );
  const endDate = day(
    'endDate',
    typeof attrs.endDate === 'string' && attrs.endDate !== '' ? attrs.endDate : 'today',
    call,
  );
  if (startDate > endDate)
    throw new BridgeError('E_BAD_ATTRIBUTE', `{${PLUGIN}} startDate= (${startDate}) is after endDate= (${endDate})`);
  const extra = extraFields(PLUGIN, typeof attrs.queries === 'string' ? attrs.queries : '');
  const settings = await settingsOf(call, PLUGIN, 'analytics');
  const plan = await counterPlan(attrs, call);

  const updatedVar = typeof attrs.updated_topics_ids === 'string' ? attrs.updated_topics_ids : null;
  let rows: ReportRow[];
  try {
    rows = await runReport(call, PLUGIN, settings, { startDate, endDate, dimension, metric, extra });
  } catch (e) {
    if (!(e instanceof ServiceFailure)) throw e;
    const result = failed(PLUGIN, attrs.var, e);
    if (updatedVar !== null) result.assign = [...(result.assign ?? []), [updatedVar, PhpArray.empty()]];
    return result;
  }
  const updated = plan && rows.length > 0 ? await setCounters(call, plan, rows) : [];
  const assign: HostResult['assign'] = [];
  if (typeof attrs.var === 'string') assign.push([attrs.var, reportValue(rows)]);
  if (updatedVar !== null) assign.push([updatedVar, PhpArray.fromList(updated)]);
  return { assign };
});

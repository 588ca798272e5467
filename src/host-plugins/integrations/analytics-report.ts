/**
 * {webanalytics}'s report: a GA4-Data-API-compatible runReport (`POST
 * {apiBase}/v1beta/properties/{id}:runReport`) of one dimension and one metric over a date range,
 * with the service account's read-only access token. `queries` adds request fields of the API's
 * own (filters, order) from a JSON object; the range, the dimension, the metric and the row limit
 * stay the plugin's (docs/decisions.md D114).
 */
import type { BridgeCall } from '../plugin-contract.js';
import type { AnalyticsSettings } from '../../host-api/adapters/integrations.js';
import { BridgeError } from '../../host-api/errors.js';
import { ServiceFailure, record, requestJson, settingsUrl } from './common.js';
import { serviceAccount, serviceToken } from './service-account.js';

const ANALYTICS_SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';
/** Rows of one report (the request's `limit`; an answer with more is refused). */
export const MAX_REPORT_ROWS = 10_000;
/** Bytes of one report answer. */
export const MAX_REPORT_BYTES = 8 * 1024 * 1024;
/** The request fields `queries` may add. */
const QUERY_FIELDS: ReadonlySet<string> = new Set([
  'dimensionFilter',
  'metricFilter',
  'orderBys',
  'keepEmptyRows',
  'currencyCode',
]);
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_:]{0,99}$/;
const PROPERTY_ID = /^\d{1,20}$/;

export interface ReportRequest {
  startDate: string;
  endDate: string;
  dimension: string;
  metric: string;
  /** Extra request fields, already checked. */
  extra: Record<string, unknown>;
}

/** One row: the dimension's value and the metric's number. */
export interface ReportRow {
  dimension: string;
  value: number;
}

export function fieldName(plugin: string, attr: string, name: string): string {
  if (!FIELD_NAME.test(name))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} ${attr}= is not a dimension or metric name (like pagePath, screenPageViews)`,
    );
  return name;
}

/** `queries`: a JSON object of QUERY_FIELDS. */
export function extraFields(plugin: string, queries: string): Record<string, unknown> {
  if (queries.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(queries);
  } catch {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} queries= is not JSON (a runReport object such as {"dimensionFilter": ...})`,
    );
  }
  const fields = record(json);
  if (!fields) throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} queries= must be a JSON object`);
  for (const key of Object.keys(fields)) {
    if (!QUERY_FIELDS.has(key))
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{${plugin}} queries= may hold ${[...QUERY_FIELDS].join(', ')}; not "${key.slice(0, 40)}"`,
      );
  }
  return fields;
}

function rowOf(v: unknown): ReportRow {
  const row = record(v);
  const dims = row?.dimensionValues;
  const mets = row?.metricValues;
  const dimension = Array.isArray(dims) ? record(dims[0])?.value : undefined;
  const metric = Array.isArray(mets) ? record(mets[0])?.value : undefined;
  const value =
    typeof metric === 'string' && metric.trim() !== '' ? Number(metric) : typeof metric === 'number' ? metric : NaN;
  if (typeof dimension !== 'string' || !Number.isFinite(value))
    throw new ServiceFailure('the report has a row without a dimension value and a numeric metric value');
  return { dimension, value };
}

/** Runs the report; a service that refuses or fails is a ServiceFailure. */
export async function runReport(
  call: BridgeCall,
  plugin: string,
  settings: AnalyticsSettings,
  req: ReportRequest,
): Promise<ReportRow[]> {
  if (!PROPERTY_ID.test(settings.propertyId))
    throw new BridgeError('E_HOST_FAILED', `{${plugin}} the site's analytics property ID is not digits`);
  const sa = await serviceAccount(call, plugin, settings.saSecret);
  const token = await serviceToken(call, plugin, sa, settings.tokenUrl, { scope: ANALYTICS_SCOPE });
  const url = settingsUrl(plugin, settings.apiBase, `/v1beta/properties/${settings.propertyId}:runReport`);
  const { status, json } = await requestJson(call, plugin, {
    method: 'POST',
    url,
    headers: [
      ['Authorization', `Bearer ${token}`],
      ['Content-Type', 'application/json'],
    ],
    body: JSON.stringify({
      ...req.extra,
      dateRanges: [{ startDate: req.startDate, endDate: req.endDate }],
      dimensions: [{ name: req.dimension }],
      metrics: [{ name: req.metric }],
      limit: MAX_REPORT_ROWS,
    }),
    maxBytes: MAX_REPORT_BYTES,
  });
  const answer = record(json);
  if (status !== 200 || !answer) throw new ServiceFailure(`runReport failed (HTTP ${status})`);
  const rows = answer.rows ?? [];
  if (!Array.isArray(rows)) throw new ServiceFailure('runReport answered rows that are not a list');
  if (rows.length > MAX_REPORT_ROWS)
    throw new BridgeError('E_SIZE_LIMIT', `{${plugin}} the report has more than ${MAX_REPORT_ROWS} rows`);
  return rows.map(rowOf);
}

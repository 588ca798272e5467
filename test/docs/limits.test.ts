/**
 * docs/limits.md gives every limit with its default: the numbers must be the code's. A row whose
 * first cell is `limits.X` or `pool.X` is checked against DEFAULT_LIMITS or DEFAULT_POOL, one
 * that names a constant against that constant; the number is the first one in its second cell.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { DEFAULT_POOL } from '../../src/sandbox/pool.js';
import { MAX_ARRAY_LENGTH, MAX_STRING_LENGTH } from '../../src/value/limits.js';
import { MAX_INCLUDE_DEPTH } from '../../src/sandbox/request.js';
import { MAX_RETURN_DEPTH, MAX_RETURN_STEPS } from '../../src/runtime/return-size.js';
import { MAX_REQUEST_CHARS, MAX_REQUEST_VALUES, MAX_TRANSFER_DEPTH } from '../../src/protocol/transfer.js';
import * as ARCHIVES from '../../src/host-plugins/archives/limits.js';
import { MAX_GET_FILE_BYTES } from '../../src/host-plugins/files/get_file.js';
import {
  MAX_CAPTURE_BYTES,
  MAX_COOKIES,
  MAX_COOKIE_BYTES,
  MAX_UA_CHARS,
} from '../../src/host-plugins/documents/generate_pdf.js';
import { MAX_PAGE_BYTES, MAX_PAGE_REQUESTS, MAX_PDF_PAGES } from '../../src/host-adapters/documents/chromium.js';
import { MAX_DOCUMENT_BYTES, MAX_DOCUMENT_PAGES } from '../../src/host-plugins/documents/detect_document_text.js';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from '../../src/host-plugins/api/upload.js';
import {
  MAX_SPIDER_DEPTH,
  MAX_SPIDER_LINKS_PER_PAGE,
  MAX_SPIDER_PAGE_BYTES,
  MAX_SPIDER_PAGES,
} from '../../src/host-plugins/webops/crawl.js';
import { MAX_SPIDER_TARGETS } from '../../src/host-plugins/webops/kick_spider.js';
import { MAX_MAIL_TEMPLATE_BYTES } from '../../src/site/mail/templates.js';
import { MAX_OUTBOX_ERROR_CHARS, MAX_OUTBOX_LISTED } from '../../src/site/mail/outbox.js';
import { MAX_SYNC_ROWS } from '../../src/site/sync/tables.js';
import { MAX_SYNC_FILES, MAX_SYNC_FILE_BYTES } from '../../src/site/sync/folders.js';
import { MAX_HOST_FOLDERS } from '../../src/site/sync/host-sites.js';
import { MAX_RENDER_ROWS } from '../../src/site/db/render-statements.js';
import { SYNC_INTERVAL_SECONDS } from '../../src/host-plugins/sync/site_sync.js';
import { MAX_BATCH_DATA_BYTES } from '../../src/host-plugins/batches/start.js';
import { MAX_ATTEMPTS, MAX_BATCH_DEPTH, MAX_PENDING_RUNS } from '../../src/site/batches/queue.js';
import { MAX_LOG_CHARS } from '../../src/site/batches/history.js';
import { MAX_BATCH_CPU_MS, MAX_BATCH_WALL_MS } from '../../src/site/batches/limits.js';
import { MAX_BACKUPS } from '../../src/host-plugins/backup/common.js';
import { MAX_BACKUP_BYTES, MAX_BACKUP_ENTRIES } from '../../src/site/backups/layout.js';
import { MAX_ANSWER_DEPTH, MAX_SERVICE_RESPONSE_BYTES } from '../../src/host-plugins/integrations/common.js';
import { MAX_CHAT_MENTIONS, MAX_CHAT_TEXT_CHARS } from '../../src/host-plugins/integrations/chat_post_message.js';
import { MAX_SOCIAL_TEXT_CHARS } from '../../src/host-plugins/integrations/social_post_message.js';
import { MAX_PUBSUB_MESSAGE_BYTES } from '../../src/host-plugins/integrations/cloudpubsub_publish.js';
import { MAX_REPORT_BYTES, MAX_REPORT_ROWS } from '../../src/host-plugins/integrations/analytics-report.js';
import { MAX_COUNTER_WRITES } from '../../src/host-plugins/integrations/webanalytics.js';

const CONSTANTS: Record<string, number> = {
  MAX_STRING_LENGTH,
  MAX_ARRAY_LENGTH,
  MAX_INCLUDE_DEPTH,
  MAX_RETURN_DEPTH,
  MAX_RETURN_STEPS,
  MAX_GET_FILE_BYTES,
  MAX_CAPTURE_BYTES,
  MAX_PDF_PAGES,
  MAX_PAGE_REQUESTS,
  MAX_PAGE_BYTES,
  MAX_COOKIES,
  MAX_COOKIE_BYTES,
  MAX_UA_CHARS,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_PAGES,
  ...ARCHIVES,
  MAX_UPLOAD_FILES,
  MAX_UPLOAD_BYTES,
  MAX_SPIDER_PAGES,
  MAX_SPIDER_DEPTH,
  MAX_SPIDER_PAGE_BYTES,
  MAX_SPIDER_LINKS_PER_PAGE,
  MAX_SPIDER_TARGETS,
  MAX_MAIL_TEMPLATE_BYTES,
  MAX_OUTBOX_ERROR_CHARS,
  MAX_OUTBOX_LISTED,
  MAX_SYNC_ROWS,
  MAX_SYNC_FILES,
  MAX_SYNC_FILE_BYTES,
  MAX_RENDER_ROWS,
  MAX_HOST_FOLDERS,
  SYNC_INTERVAL_SECONDS,
  MAX_BATCH_DATA_BYTES,
  MAX_PENDING_RUNS,
  MAX_BATCH_DEPTH,
  MAX_ATTEMPTS,
  MAX_LOG_CHARS,
  MAX_BACKUPS,
  MAX_BACKUP_BYTES,
  MAX_BACKUP_ENTRIES,
  MAX_SERVICE_RESPONSE_BYTES,
  MAX_ANSWER_DEPTH,
  MAX_REQUEST_CHARS,
  MAX_REQUEST_VALUES,
  MAX_TRANSFER_DEPTH,
  MAX_CHAT_TEXT_CHARS,
  MAX_CHAT_MENTIONS,
  MAX_SOCIAL_TEXT_CHARS,
  MAX_PUBSUB_MESSAGE_BYTES,
  MAX_REPORT_ROWS,
  MAX_REPORT_BYTES,
  MAX_COUNTER_WRITES,
  MAX_BATCH_WALL_MS,
  MAX_BATCH_CPU_MS,
};

/** [name in the first cell, number in the second] of every table row that names one. */
const rows = [
  ...readFileSync('docs/limits.md', 'utf8').matchAll(/^\| `((?:limits|pool)\.\w+|MAX_\w+|SYNC_\w+)`[^|]*\| ([\d,]+)/gm),
].map((m) => [m[1]!, Number(m[2]!.replace(/,/g, ''))] as const);

function codeValue(name: string): number | undefined {
  const [scope, key] = name.split('.') as [string, string | undefined];
  if (scope === 'limits') return DEFAULT_LIMITS[key as keyof typeof DEFAULT_LIMITS];
  if (scope === 'pool') return DEFAULT_POOL[key as keyof typeof DEFAULT_POOL];
  return CONSTANTS[name];
}

describe('docs/limits.md', () => {
  it('gives the default of every option of DEFAULT_LIMITS and of the pool memory options', () => {
    const named = new Set(rows.map(([n]) => n));
    expect(Object.keys(DEFAULT_LIMITS).filter((k) => !named.has(`limits.${k}`))).toEqual([]);
    for (const k of ['bigMemoryBudgetMB', 'isolateRetainMB', 'isolateIdleMs', 'workerHeapBudgetMB'])
      expect(named).toContain(`pool.${k}`);
    for (const k of Object.keys(CONSTANTS)) expect(named).toContain(k);
  });

  it('states each number as the code has it', () => {
    expect(rows.filter(([name, value]) => codeValue(name) !== value)).toEqual([]);
  });
});

import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'generate_pdf',
  host: 'browser',
  budget: ROW_BUDGETS.storage,
  summary:
    "Captures a page with the host's headless browser as a PDF (A4, at most 50 pages) or an image of the browser window (png, jpeg/jpg, webp) and saves it under /files/g/private/ or /files/g/public/. " +
    "Every request of the page (the page, its subresources, each redirect) goes through the host's egress policy; what it refuses the page does not get, and WebSockets are refused. " +
    "`browser_width` is clamped to 320..1920 (default 1280), `browser_height` to 200..2400 (default 800); `sleep` waits after the page has loaded, clamped like {sleep} to 100..1000 ms and counted against the render's sleep budget. " +
    "`cookie` (name => value, as $smarty.cookies; empty in batches) is set for `domain`, which must be the url's host or a parent domain of it (default the host). An existing file is replaced only with `overwrite=1` (E_FILE_FAILED otherwise). " +
    "The capture ends at the render's wall time (E_WALL_TIMEOUT) and is at most 20 MiB (E_SIZE_LIMIT); too many captures at once is E_HOST_BUSY. When the file is saved, `callback_batch` is queued with `data` (at most 64 KiB as JSON).",
  attrs: {
    url: { type: 'string', required: true, doc: 'Page to capture (http or https).' },
    path: {
      type: 'string',
      required: true,
      doc: 'Where to save it: files/g/private/... or files/g/public/... (leading slash optional).',
    },
    option: { type: 'mixed', doc: 'Not shown in the reference: must be empty.' },
    browser_width: { type: 'int', doc: 'Window width in CSS pixels, clamped to 320..1920 (default 1280).' },
    browser_height: { type: 'int', doc: 'Window height in CSS pixels, clamped to 200..2400 (default 800).' },
    sleep: { type: 'int', doc: 'Milliseconds to wait after the load, clamped to 100..1000; absent or 0: none.' },
    ua: { type: 'string', doc: "User agent of the page's requests (one line, at most 512 characters)." },
    format: {
      type: 'string',
      enum: ['pdf', 'png', 'jpeg', 'jpg', 'webp'],
      doc: 'pdf (default), png, jpeg, jpg (= jpeg) or webp.',
    },
    cookie: { type: 'mixed', doc: 'Login cookies, name => value, in the form of $smarty.cookies (at most 50).' },
    domain: { type: 'string', doc: "Domain of the cookies: the url's host (default) or a parent domain of it." },
    overwrite: { type: 'mixed', doc: '1: replace an existing file.' },
    callback_batch: { type: 'string', doc: 'Slug of the batch queued once the file is saved.' },
    data: { type: 'mixed', doc: 'Passed to the callback batch (at most 64 KiB as JSON).' },
  },
  examples: [
    {
      template:
        '{generate_pdf url="http://localhost:8080/files/user/sample-page.html" path="files/g/public/page.png" format="png" browser_width=640 browser_height=480 overwrite=1}saved',
      output: 'saved',
    },
  ],
});

import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'detect_document_text',
  host: 'ocr',
  summary:
    'Reads the text of a `.pdf` or `.tiff` file of the site by OCR (batch and admin-test renders only: E_PERMISSION_DENIED in a web render). ' +
    "The file is `dir`/`file_nm`, or the file of extended column `ext_id` (or the column named `slug`, contents only) of `module_id`: `{module_id}_ext_{ext_id}_{no}.pdf` (or .tiff, .tif; `_{no}` only where `no` is given or the dir is /files/topics, where it defaults to 0; `_{lang}` added for a language other than the site's). " +
    '`type="text"` (default) joins the pages\' texts with two newlines; `type="array"` gives a list of `{page, value}`. An unsupported file, a missing file or a failed OCR gives an empty array. ' +
    'At most 20 pages and 20 MiB (E_SIZE_LIMIT) are read. Texts are kept until the file changes; `no_cache=true` reads the file again.',
  attrs: {
    var: { type: 'varname', required: true, doc: 'Receives the text, or the list of pages.' },
    dir: {
      type: 'string',
      required: true,
      enum: ['/files/topics', '/files/inquiry', '/files/member/ext', '/files/d'],
      doc: '/files/topics, /files/inquiry, /files/member/ext or /files/d.',
    },
    file_nm: { type: 'string', doc: 'File name in dir (required without module_id).' },
    module_id: {
      type: 'int',
      min: 1,
      doc: 'Id of the content, inquiry answer or member the file belongs to (required without file_nm).',
    },
    ext_id: { type: 'int', min: 1, doc: 'Extended column holding the file (with module_id).' },
    no: { type: 'int', min: 0, doc: 'Index in a repeating column: default 0 for /files/topics, none elsewhere.' },
    lang: { type: 'string', doc: "Language of the file, for a language other than the site's." },
    slug: { type: 'string', doc: 'The extended column by its slug instead of ext_id (dir=/files/topics).' },
    type: { type: 'string', enum: ['text', 'array'], doc: 'text (default) or array.' },
    no_cache: { type: 'bool', doc: 'Read the file again instead of the kept text.' },
  },
  examples: [
    {
      template: '{detect_document_text var=t dir="/files/d" file_nm="missing.pdf"}{$t|@count}',
      context: 'batch',
      output: '0',
    },
  ],
});

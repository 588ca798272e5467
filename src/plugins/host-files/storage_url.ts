import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'storage_url',
  host: 'files',
  summary:
    "Stores in `var` a signed read URL for a cloud storage file (/files/g, /files/a): `<base>/files/g/...?expires=<unix time>&signature=<HMAC>`, or the bucket's presigned URL on S3 storage. `expire` is strtotime text (default `+167 hour`), in the future and at most 168 hours ahead (E_BAD_ATTRIBUTE otherwise). A missing file gives null (and a warning).",
  attrs: {
    var: { type: 'varname', doc: 'Receives the URL (null when the file does not exist).' },
    path: { type: 'string', doc: 'Virtual path of the file in cloud storage.' },
    // strtotime runs on the host here: the cap keeps its scan small (the date arithmetic is constant-time)
    expire: {
      type: 'string',
      default: '+167 hour',
      maxLength: 100,
      doc: 'Validity, strtotime text (at most 100 characters); default +167 hour.',
    },
  },
  examples: [
    {
      template: '{storage_url var=u path="/files/g/example/report.txt"}{$u|truncate:60:""}',
      output: 'https://files.example.com/files/g/example/report.txt?expires',
    },
    {
      template: '{storage_url var=u path="/files/g/example/missing.txt"}{if $u === null}no such file{/if}',
      output: 'no such file',
    },
  ],
});

import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'api',
  host: 'http',
  summary:
    'Calls an external HTTP API through the egress guard (public addresses only, ports 80/443, redirects re-checked, size and time caps) and stores the response. ' +
    'A refused destination (internal address, bad scheme or port, bad header) is an error (E_SSRF_DENIED, E_BAD_URL, E_BAD_HEADER); a request that fails on the way (timeout, connection error) sets `status_var` to 0 and `http_code_var` to 0. ' +
    "`status_var` is 1 for a final status 200..399, else 0. Secret handles ({secret}) are replaced by their values in `headers`, `query`, `queries`, `body` and `json_body` only when the secret lists the endpoint's host; anywhere else (the endpoint itself, another host) E_SECRET_DENIED. " +
    "At most 100 requests per render (E_QUOTA). `files` sends files of the temporary area (multipart/form-data; PUT sends the first file alone), `dl_flg` saves the body in the temporary area and gives its path in `var`, and `sslcert`/`sslkey`/`cainfo` name secrets for mTLS (https only; each secret must list the endpoint's host).",
  attrs: {
    endpoint: { type: 'string', required: true, doc: 'URL to call (http or https).' },
    method: {
      type: 'string',
      enum: ['POST', 'GET', 'PATCH', 'PURGE', 'PUT', 'DELETE', 'HEAD'],
      default: 'GET',
      doc: 'HTTP method, upper case (PURGE: cache invalidation).',
    },
    query: { type: 'string', doc: 'Query string `a=b&c=d`, appended to the endpoint.' },
    queries: { type: 'array', doc: 'Query array, encoded like http_build_query and appended after `query`.' },
    json_body: {
      type: 'string',
      doc: 'JSON text sent as the body; Content-Type application/json unless a header sets one.',
    },
    body: {
      type: 'string',
      doc: 'Body text (give a `Content-Type: text/...` header). Not with json_body, not with GET or HEAD.',
    },
    files: {
      type: 'array',
      doc: 'Files of the temporary area: paths relative to /files/temp (or /files/temp/... paths), or arrays `{path, name, content_type}`. POST and PATCH send multipart/form-data (field `name`, else the string key, else `file`); PUT sends only the first file as the raw body. At most 20 files and 10 MiB together (E_SIZE_LIMIT). Not with body or json_body.',
    },
    headers: {
      type: 'array',
      doc: 'Strings `Name: value`. Framing and routing headers (Host, Content-Length, Transfer-Encoding...) are refused.',
    },
    cache_time: {
      type: 'int',
      min: 0,
      max: 1440,
      doc: 'Minutes to keep a 2xx GET/HEAD response, per tenant, method, URL and headers.',
    },
    var: { type: 'varname', doc: 'Receives the response body as text.' },
    json_var: {
      type: 'varname',
      doc: 'Receives the decoded body when it is JSON (arrays, json_decode assoc), else the text.',
    },
    resp_header_var: {
      type: 'varname',
      doc: 'Receives the response headers: lower-case name => value (a list when repeated).',
    },
    dl_flg: {
      type: 'bool',
      doc: 'true: a 2xx body is saved as /files/temp/<generated name> and `var` receives that path (empty when nothing was saved); not with json_var. A body that holds a secret value of the render is not saved (E_SECRET_DENIED).',
    },
    status_var: {
      type: 'varname',
      doc: '1 for a response with status 200..399, 0 otherwise (also when the request failed).',
    },
    http_code_var: { type: 'varname', doc: 'The HTTP status code; 0 when there was no response.' },
    timeout: {
      type: 'int',
      min: 1,
      max: 3600,
      default: 30,
      doc: 'Seconds (1..3600, else an error); never more than the render has left.',
    },
    sslcert: { type: 'string', doc: 'Secret name of the mTLS client certificate (PEM); needs sslkey.' },
    sslkey: {
      type: 'string',
      doc: 'Secret name of the mTLS client private key (PEM, unencrypted); needs sslcert. The key never enters the template.',
    },
    cainfo: {
      type: 'string',
      doc: "Secret name of the CA certificate (PEM) the server's certificate must be issued by (instead of the public CAs).",
    },
  },
  examples: [
    {
      template: '{api endpoint="https://api.example.com/hello" var=r status_var=s http_code_var=c}{$s} {$c} {$r}',
      output: '1 200 hello',
    },
    {
      template:
        '{api endpoint="https://api.example.com/items" query="cnt=2" json_var=j}{foreach from=$j.items item=i}{$i.name};{/foreach}',
      output: 'apple;pear;',
    },
    {
      template:
        '{secret var=t key="EXAMPLE_TOKEN"}{append var=h value="Authorization: Bearer `$t`"}{api endpoint="https://api.example.com/whoami" headers=$h var=r}{$r}',
      output: 'authorized',
    },
    {
      template: '{api endpoint="https://api.example.com/missing" status_var=s http_code_var=c}{$s} {$c}',
      output: '0 404',
    },
    {
      template:
        '{api endpoint="https://api.example.com/echo" method="POST" json_body=\'{"a":1}\' json_var=j}{$j.method} {$j.contentType} {$j.body}',
      output: 'POST application/json {"a":1}',
    },
    {
      template: '{api endpoint="https://api.example.com/hello" dl_flg=true var=p}{$p|substr:0:12}',
      output: '/files/temp/',
    },
  ],
});

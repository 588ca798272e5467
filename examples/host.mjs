// A host for two tenants with the adapters most sites need first: secrets, files and HTTP.
// docs/host-adapters.md walks through it. Run: `npm run build && node examples/host.mjs`.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, EgressGuard, TemplateError, TenantFiles } from 'smartcage';

// The embedder's own records, per tenant: a database in a real host.
const TENANTS = {
  'shop-a': {
    templates: { 'footer.tpl': '<footer>Shop A</footer>' },
    // `hosts`: where the secret may be sent. A real one names an https origin ('api.weather.example').
    secrets: { WEATHER_KEY: { value: 'key-of-shop-a', hosts: ['http://127.0.0.1'] } },
  },
  'shop-b': {
    templates: { 'footer.tpl': '<footer>Shop B</footer>' },
    secrets: {},
  },
};

/** `table[key]` if the table has it as its own: `constructor` or `__proto__` finds nothing. */
function own(table, key) {
  return table && Object.hasOwn(table, key) ? table[key] : null;
}

// Secrets: the tenant's own, never those of a tenant a template named. null: no such secret.
function secretsOf(tenant) {
  return {
    async get(name) {
      return own(own(TENANTS, tenant)?.secrets, name);
    },
  };
}

// Files: one TenantFiles per tenant, kept for the process (it scans the quota once, then counts
// its own writes), each over a folder of its own.
const storage = mkdtempSync(join(tmpdir(), 'smartcage-host-'));
const stores = new Map();
function filesOf(tenant) {
  let store = stores.get(tenant);
  if (!store) {
    // The tenant becomes a path: only known tenants, only names that are safe as a folder.
    if (!own(TENANTS, tenant) || !/^[a-z0-9-]{1,64}$/.test(tenant)) throw new Error(`no storage for tenant ${tenant}`);
    const rootDir = join(storage, tenant);
    mkdirSync(rootDir, { recursive: true });
    store = new TenantFiles({ rootDir, quotaBytes: 10 << 20, maxReadBytes: 1 << 20, maxEntries: 1000 });
    stores.set(tenant, store);
  }
  return store;
}

// An API for the demo to call, on this machine. It echoes what it was sent.
const api = createServer((req, res) => {
  const sent = req.headers.authorization ?? '';
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ forecast: sent === 'Bearer key-of-shop-a' ? 'sunny' : 'unknown', sent }));
});
await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
const apiUrl = `http://127.0.0.1:${api.address().port}`;

// HTTP: the egress guard. A production host passes `new EgressGuard()` as it is; this demo
// widens it to reach its own API on 127.0.0.1, an address the guard otherwise refuses.
const http = new EgressGuard({ treatAsPublic: ['127.0.0.1'], allowedPorts: [80, 443, api.address().port] });

// The adapters of one render: its tenant's, asked once per render (at its first host call).
function hostOf(identity) {
  return { secrets: secretsOf(identity.tenant), files: filesOf(identity.tenant), http };
}

const engine = createEngine({
  // {include} finds the render's tenant's templates only.
  templates: (name, identity) => own(own(TENANTS, identity.tenant)?.templates, name),
  host: hostOf,
});

// What every tenant's pages do: count a visit in the tenant's files, show the tenant's footer.
const VISITS = `{strip}
  {write_file path="/files/user/visits.log" value="visit\\n" is_append=1 var=log}
  Visits: {read_file path=$log row=line}[{$line}]{/read_file}
{/strip}
{include file="footer.tpl"}`;

// Shop A's page also calls the weather API with its key, which never enters the sandbox.
const WEATHER = `{strip}
  {secret var=key key="WEATHER_KEY"}
  {append var=headers value="Authorization: Bearer \`$key\`"}
  {api endpoint="\`$api\`/weather" headers=$headers json_var=weather}
  Weather: {$weather.forecast} (the API saw "{$weather.sent}")
{/strip}
`;

/** Renders `source` for `tenant`: the identity is the embedder's, set for each render (one request each here). */
async function renderFor(tenant, source) {
  try {
    const { output } = await engine.render(source, {
      name: 'page.tpl',
      vars: { api: apiUrl },
      identity: { tenant, memberId: null, superUser: false, context: 'web', requestId: randomUUID() },
    });
    console.log(`${tenant}:\n${output}`);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    console.log(`${tenant}: ${e.format()}`);
  }
}

try {
  await renderFor('shop-a', WEATHER + VISITS);
  await renderFor('shop-a', VISITS);
  await renderFor('shop-b', VISITS);
  await renderFor('shop-b', WEATHER);
  await renderFor('shop-a', '{api endpoint="http://169.254.169.254/latest/meta-data/" var=r}');
} finally {
  await engine.close();
  await http.close();
  api.close();
  rmSync(storage, { recursive: true, force: true });
}

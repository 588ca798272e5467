// docs/plugins-for-embedders.md, runnable: `npm run build && node examples/embedder-plugin.mjs`.
// A shop adds a tag and a modifier of its own; they run here, on the host, never in the sandbox.
import { createEngine, definePlugin, runPluginExamples, BridgeError, TemplateError } from 'smartcage';

// The shop's data, per tenant: a plugin answers for the render's tenant, never for one an attribute names.
const PRODUCTS = {
  default: new Map([
    [1, { name: 'Tea', price: 1200 }],
    [2, { name: 'Cup', price: 800 }],
  ]),
};

const product = definePlugin({
  kind: 'function',
  name: 'shop_product',
  summary: 'Assigns a product of the shop: { name, price }.',
  attrs: {
    id: { type: 'int', required: true, min: 1, doc: 'The product.' },
    var: { type: 'varname', required: true, doc: 'Receives the product.' },
  },
  examples: [{ template: '{shop_product id=1 var=p}{$p.name}', output: 'Tea' }],
  async run(attrs, call) {
    const found = PRODUCTS[call.identity.tenant]?.get(attrs.id);
    // One of smartcage's codes: the template gets it with its message, at the tag's line.
    if (!found) throw new BridgeError('E_NOT_FOUND', `no product ${attrs.id}`);
    return { assign: [[attrs.var, found]] }; // plain data becomes a PHP array
  },
});

const yen = definePlugin({
  kind: 'modifier',
  name: 'yen',
  summary: 'An amount in yen with thousands separators.',
  input: { name: 'amount', type: 'int', required: true },
  params: [{ name: 'suffix', type: 'string', default: '円' }],
  examples: [{ template: '{$n|yen}', vars: { n: 1200 }, output: '1,200円' }],
  run: (amount, [suffix]) => `${amount.toLocaleString('en')}${suffix}`,
});

const engine = createEngine({
  plugins: [product, yen],
  onHostError: (e, where) => console.error(`${where.plugin} failed:`, e),
});
try {
  const page = '{foreach from=$ids item=id}{shop_product id=$id var=p}<li>{$p.name}: {$p.price|yen}</li>{/foreach}';
  console.log((await engine.render(page, { vars: { ids: [1, 2] } })).output);

  try {
    await engine.render('{shop_product id=9 var=p}', { name: 'missing.tpl' });
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    console.log(e.format().split('\n')[0]);
  }

  // The declared examples, run as tests run them.
  for (const r of await runPluginExamples(engine)) console.log(`${r.ok ? 'ok' : 'FAILED'} ${r.plugin} #${r.index}`);
} finally {
  await engine.close();
}

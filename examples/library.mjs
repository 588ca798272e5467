// The README's first snippet, runnable: `npm run build && node examples/library.mjs`.
import { createEngine, compile, TemplateError } from 'smartcage';

const engine = createEngine({
  templates: { 'article.tpl': '<li>{$article.title}</li>' }, // for {include}
  timezone: 'Asia/Tokyo',
  timeoutMs: 1000,
});
try {
  const { output, warnings } = await engine.render(
    '{foreach from=$list item=article}{include file="article.tpl"}{/foreach}',
    {
      name: 'page.tpl',
      vars: { list: [{ title: 'Hello' }] }, // or a JSON string, which keeps PHP's key order exactly
    },
  );
  console.log(output); // <li>Hello</li>
  for (const w of warnings) console.warn(w);
} catch (e) {
  if (!(e instanceof TemplateError)) throw e;
  console.error(e.format()); // name:line:column, code, message, frame
  process.exitCode = 1;
} finally {
  await engine.close(); // before the process exits: the isolates end on their own threads
}

// Pure compile, no sandbox: the generated JavaScript, the manifest, and every diagnostic.
const { code, manifest, diagnostics } = compile('{$x|upper}', { name: 'x.tpl' });
console.log(
  `${code.length} characters of JavaScript, ${manifest.lineTable.length} lines mapped, ${diagnostics.length} diagnostics`,
);

// Memory classes and the limits of a render, each met by a template. docs/limits.md explains
// them. Run: `npm run build && node examples/limits.mjs`.
import { createEngine, DEFAULT_LIMITS, TemplateError } from 'smartcage';

// Every limit has a default (DEFAULT_LIMITS); an engine overrides the ones it names.
const engine = createEngine({
  limits: { cpuMs: 200, maxOutputChars: 10_000, maxSleepMs: 1500 },
  templates: { 'big.tpl': "{set_memory memory_limit='768M'}" },
});
console.log(
  `defaults: cpuMs ${DEFAULT_LIMITS.cpuMs}, wallMs ${DEFAULT_LIMITS.wallMs}, maxSleepMs ${DEFAULT_LIMITS.maxSleepMs}`,
);

// The memory class is read from the template before it runs: 128 MB unless {set_memory} asks.
for (const source of [
  '{$x}',
  "{set_memory memory_limit='256M'}",
  "{set_memory memory_limit='256M'}{set_memory var='512M'}",
  '{include file="big.tpl"}',
]) {
  console.log(`${source} -> ${engine.compile(source).manifest.memoryMB} MB`);
}
const { diagnostics } = engine.compile('{set_memory memory_limit=$size}');
console.log(`{set_memory memory_limit=$size} -> ${diagnostics[0].code}`);

/** Renders `source` and prints its output, or the code, line and message it stopped with. */
async function show(source) {
  const started = performance.now();
  try {
    const { output } = await engine.render(source, { name: 'limits.tpl' });
    console.log(`${source} -> ${JSON.stringify(output)} in ${Math.floor((performance.now() - started) / 1000)} s`);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    console.log(`${source} -> ${e.code} at line ${e.line}: ${e.message}`);
  }
}

await show('{section name=i loop=1000000000}{/section}');
await show('{section name=i loop=100000}0123456789{/section}');
await show('{sleep ms=5000}done');
await show('{sleep ms=1000}{sleep ms=1000}done');
await engine.close();

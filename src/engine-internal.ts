/**
 * What createEngine can do beyond the Engine interface, for the security harness and the sandbox
 * tests only. The package exports no path to this module, so an embedder's engine object carries
 * no way to run arbitrary JavaScript.
 */
import type { Engine, RenderOptions, RenderResult } from './engine.js';
import type { HostState } from './bridge/host-state.js';

type RawJsRender = (body: string, opts: RenderOptions) => Promise<RenderResult>;

/** Keyed by the engine object createEngine returned: a look-alike object has no entry. */
const rawJsRenders = new WeakMap<Engine, RawJsRender>();

/** Called by createEngine for each engine it makes. */
export function registerRawJsRender(engine: Engine, render: RawJsRender): void {
  rawJsRenders.set(engine, render);
}

const hostStates = new WeakMap<Engine, HostState>();

/** Called by createEngine: the engine's own host state (its request globals and caches). */
export function registerHostState(engine: Engine, state: HostState): void {
  hostStates.set(engine, state);
}

/** What an engine keeps between renders, for the harness's figures and the tests that look inside. */
export function hostStateOf(engine: Engine): HostState {
  const state = hostStates.get(engine);
  if (!state) throw new TypeError('hostStateOf needs an engine made by createEngine');
  return state;
}

/**
 * "Assume breach": runs hand-written JavaScript as the body of a template function
 * `(s, $) => string`, in a real render context with the real bridge, to prove that the host holds
 * even if the compiler let code through. Same limits and errors as engine.render().
 */
export async function renderRawJsForHarness(
  engine: Engine,
  body: string,
  opts: RenderOptions = {},
): Promise<RenderResult> {
  const render = rawJsRenders.get(engine);
  if (!render) throw new TypeError('renderRawJsForHarness needs an engine made by createEngine');
  return render(body, opts);
}

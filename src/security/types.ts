/** The security harness: catalogue cases (docs/security.md) as data. */
import type { Engine, RenderOptions } from '../engine.js';
import type { HostResolver } from '../host-api/host.js';
import type { SandboxLimits } from '../sandbox/limits.js';

export type Category = 'CG' | 'IS' | 'CPU' | 'MEM' | 'BR' | 'NET' | 'FS' | 'RX' | 'ML' | 'OPS' | 'HH';

export interface Outcome {
  /** contained: the expected refusal or result and no canary touched; escaped: anything else. */
  status: 'contained' | 'escaped';
  detail: string;
  /** Figures the goals report uses (ms, bytes...). */
  figures?: Record<string, number>;
}

export interface SecurityCase {
  id: string;
  category: Category;
  title: string;
  run(h: HarnessContext): Promise<Outcome>;
}

export interface RenderAttempt {
  output?: string;
  code?: string;
  message?: string;
  line?: number;
  ms: number;
}

export interface HarnessContext {
  /** Renders through the normal compile-and-render path; errors come back as data. */
  render(
    template: string,
    opts?: RenderOptions & { limits?: Partial<SandboxLimits>; engine?: Engine },
  ): Promise<RenderAttempt>;
  /** "Assume breach": hand-written JavaScript run as a template body in a real render context with the real bridge. */
  rawJs(body: string, opts?: { limits?: Partial<SandboxLimits> }): Promise<RenderAttempt>;
  /** Runs of each timing case (goals G3, G4: p99 over this many renders). */
  readonly repeat: number;
  /** An engine with these limits and the harness host (closed by the harness). */
  engine(limits?: Partial<SandboxLimits>): Engine;
  /** The host under test, per tenant (extend it with withAdapters, src/host-api/resolve.ts). */
  readonly host: HostResolver;
  readonly canaries: Canaries;
}

export interface Canaries {
  /** Text of the file outside every tenant root; its content must never appear anywhere. */
  readonly outsideFileContent: string;
  /** The other tenant's secret value. */
  readonly otherSecretValue: string;
  /** Connections accepted by the loopback listeners posing as internal services. */
  connections(): number;
  /** Any canary value found in the text (an output, an error, a log line)? */
  leaked(text: string): boolean;
}

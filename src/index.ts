/**
 * The package entry `smartcage`: the engine. The security harness is `smartcage/security`
 * (src/security/entry.ts) and the JSON-schema forms `smartcage/forms` (src/forms/entry.ts), so
 * nothing here loads ajv, DOM code or the harness's fake hosts (test/package checks it).
 */
export { compile, ENGINE_VERSION } from './compiler/index.js';
export type { CompileOptions, CompileResult, Manifest } from './compiler/index.js';
export { createEngine } from './engine.js';
export type { Engine, EngineOptions, RenderOptions, RenderResult, SourceLookup } from './engine.js';
export { TemplateError, formatDiagnostic } from './errors.js';
export type { Diagnostic } from './errors.js';
export type { HostAdapters, RenderIdentity, SecretRecord, SessionAdapter, InternalApiRequest, ApiTokenRequest } from './host-bridge/host.js';
export { verifyCredentialJwt } from './host-bridge/plugins/session/assign_api_credential.js';
export { DEFAULT_LIMITS } from './sandbox/limits.js';
export type { SandboxLimits } from './sandbox/limits.js';
export { EgressGuard } from './host-bridge/egress/guard.js';
export { TenantFiles } from './host-bridge/files/tenant-files.js';

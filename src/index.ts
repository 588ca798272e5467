export { compile, ENGINE_VERSION } from './compiler/index.js';
export type { CompileOptions, CompileResult, Manifest } from './compiler/index.js';
export { createEngine } from './engine.js';
export type { Engine, EngineOptions, RenderOptions, RenderResult } from './engine.js';
export { TemplateError, formatDiagnostic } from './errors.js';
export type { Diagnostic } from './errors.js';

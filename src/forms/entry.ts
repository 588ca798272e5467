/**
 * The package entry `smartcage/forms`: the form model and validator of ./index.ts (which the
 * browser bundle also uses) and, for the server only, the precompiler of validators for pages
 * without 'unsafe-eval'. Needs the optional peer dependencies ajv and ajv-formats.
 */
export * from './index.js';
export { standaloneValidatorScript, standaloneValidatorSource } from './standalone.js';

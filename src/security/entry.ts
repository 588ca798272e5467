/**
 * The package entry `smartcage/security`: the attack catalogue as a harness an embedder runs
 * against its own host adapters. Kept out of `smartcage` because it brings fake HTTP and SMTP
 * hosts and canary listeners that an engine-only install has no use for.
 */
import '../node-version.js';
export { runSecurityHarness } from './harness.js';
export type { HarnessReport, HarnessOptions, CaseResult } from './harness.js';
export type { Canaries, Outcome } from './types.js';
export { formatReport as formatSecurityReport } from './report.js';

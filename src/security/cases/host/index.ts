/**
 * HH: the host side held to the isolate's standard. Each case is an attack that once made the
 * embedding process (or a worker) do unbounded work, keep unbounded data, leak a secret back
 * into the isolate or throw a raw error for a template. HH-NN is finding NN of the hardening
 * review (docs/sandbox.md, "The host does bounded I/O only").
 */
import type { SecurityCase } from '../../types.js';
import { HH_COMPUTE } from './compute.js';
import { HH_CAPS } from './caps.js';
import { HH_SECRETS } from './secrets.js';
import { HH_POOL } from './pool.js';
import { HH_ERRORS } from './errors.js';
import { HH_LOCKDOWN } from './lockdown.js';
import { HH_COMPILE } from './compile.js';
import { HH_NEIGHBOURS } from './neighbours.js';

export const HH: SecurityCase[] = [
  ...HH_COMPUTE,
  ...HH_CAPS,
  ...HH_SECRETS,
  ...HH_POOL,
  ...HH_ERRORS,
  ...HH_LOCKDOWN,
  ...HH_COMPILE,
].sort((a, b) => a.id.localeCompare(b.id));

/** Runs after every other case: it needs the whole machine to itself. */
export const HH_LAST: SecurityCase[] = HH_NEIGHBOURS;

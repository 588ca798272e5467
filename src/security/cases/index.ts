/** The catalogue: every case of docs/security.md that is automated, in order. */
import type { SecurityCase } from '../types.js';
import { CG } from './cg.js';
import { IS } from './is.js';
import { CPU } from './cpu.js';
import { MEM } from './mem.js';
import { RX } from './rx.js';
import { OPS } from './ops.js';
import { FS } from './fs.js';
import { FS_ARCHIVES } from './fs-archives.js';
import { NET } from './net.js';
import { BR } from './br.js';
import { ML, BR_MAIL } from './ml.js';
import { HH, HH_LAST } from './host/index.js';
import { SITE_HOST_BR, SITE_HOST_CPU } from './site-host.js';
import { MEM_MORE, OPS_MORE } from './integrity.js';
import { DOCUMENTS } from './documents.js';
import { ML_POSTING } from './ml-posting.js';
import { CG_MORE, IS_MORE } from './js-names.js';
import { CPU_MORE } from './host-work.js';
import { NET_MORE } from './egress-forms.js';
import { MEM_MORE_BRIDGE } from './bridge-sizes.js';
import { CG_STOCK } from './stock-smarty.js';
import { NET_SHAPES } from './request-shapes.js';
import { BR_INPUTS, FS_INPUTS } from './plugin-inputs.js';
import { BR_BUDGETS, FS_BUDGETS } from './row-budgets.js';
import { BR_GUESSES } from './secret-guesses.js';
import { IS_REQUESTS } from './request-state.js';
import { MEM_VALUES } from './host-values.js';
import { CPU_OUTLIVED } from './outlived-work.js';
import { BR_RACES, FS_QUOTA } from './races.js';
import { CG_NEWEST, IS_NEWEST, MEM_NEWEST, OPS_NEWEST } from './newest-code.js';
import { IS_SHARED } from './shared-isolates.js';

export const CATALOGUE: readonly SecurityCase[] = [
  ...CG,
  ...CG_MORE,
  ...CG_STOCK,
  ...CG_NEWEST,
  ...IS,
  ...IS_MORE,
  ...IS_REQUESTS,
  ...IS_NEWEST,
  ...IS_SHARED,
  ...CPU,
  ...CPU_MORE,
  ...CPU_OUTLIVED,
  ...SITE_HOST_CPU,
  ...MEM,
  ...MEM_MORE,
  ...MEM_MORE_BRIDGE,
  ...MEM_VALUES,
  ...MEM_NEWEST,
  ...BR,
  ...SITE_HOST_BR,
  ...BR_MAIL,
  ...BR_INPUTS,
  ...BR_BUDGETS,
  ...BR_GUESSES,
  ...BR_RACES,
  ...NET,
  ...NET_MORE,
  ...NET_SHAPES,
  ...DOCUMENTS,
  ...FS,
  ...FS_ARCHIVES,
  ...FS_INPUTS,
  ...FS_BUDGETS,
  ...FS_QUOTA,
  ...RX,
  ...ML,
  ...ML_POSTING,
  ...OPS,
  ...OPS_MORE,
  ...OPS_NEWEST,
  ...HH,
  ...HH_LAST,
];

const RANGES: [string, number][] = [
  ['CG', 23],
  ['IS', 17],
  ['CPU', 13],
  ['MEM', 17],
  ['BR', 23],
  ['NET', 21],
  ['FS', 24],
  ['RX', 6],
  ['ML', 7],
  ['OPS', 18],
  // The host-hardening review's findings (docs/sandbox.md, docs/security.md HH).
  ['HH', 14],
];

/** All 183 ids of the catalogue, automated or not. */
export const CATALOGUE_IDS: readonly string[] = RANGES.flatMap(([p, n]) =>
  Array.from({ length: n }, (_, i) => `${p}-${String(i + 1).padStart(2, '0')}`),
);

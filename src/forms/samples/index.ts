/**
 * Sample schemas for demo pages and tests; together they use every control kind.
 * `too-deep` is refused by the form UI on purpose; `split-members` + `split-member-projects`
 * show how to split it into two fields linked by an ID.
 */
import type { JsonSchema } from '../types.js';
import article from './article.json' with { type: 'json' };
import event from './event.json' with { type: 'json' };
import nestedThreeLevels from './nested-three-levels.json' with { type: 'json' };
import productSpecs from './product-specs.json' with { type: 'json' };
import richMedia from './rich-media.json' with { type: 'json' };
import settingsJson from './settings-json.json' with { type: 'json' };
import splitMemberProjects from './split-member-projects.json' with { type: 'json' };
import splitMembers from './split-members.json' with { type: 'json' };
import tooDeep from './too-deep.json' with { type: 'json' };

export const samples: Readonly<Record<string, JsonSchema>> = {
  article: article as JsonSchema,
  event: event as JsonSchema,
  'rich-media': richMedia as JsonSchema,
  'product-specs': productSpecs as JsonSchema,
  'settings-json': settingsJson as JsonSchema,
  'nested-three-levels': nestedThreeLevels as JsonSchema,
  'too-deep': tooDeep as JsonSchema,
  'split-members': splitMembers as JsonSchema,
  'split-member-projects': splitMemberProjects as JsonSchema,
};

/** Samples the form UI refuses (shown as a refusal message on their demo page). */
export const refusedSamples: readonly string[] = ['too-deep'];

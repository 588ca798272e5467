/**
 * The sample data of `smartcage site init`, one module per family, in order (a family's rows may
 * name an earlier one's). What a reader may rely on is listed in the README ("The sample site").
 */
import type { SiteContext } from '../site-context.js';
import { contentSample } from './content.js';
import { sampleMembers } from './members.js';
import { sampleTags } from './tags.js';
import { sampleCommunity } from './community.js';
import { jsonFieldsSample } from './json-fields.js';
import { spiderSample } from './spider.js';

export type SampleData = (ctx: SiteContext) => Promise<void>;

export const SAMPLES: readonly SampleData[] = [
  contentSample,
  sampleMembers,
  sampleTags,
  sampleCommunity,
  jsonFieldsSample,
  spiderSample,
];

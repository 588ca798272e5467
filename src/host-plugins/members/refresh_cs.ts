/**
 * {refresh_cs}: resets the cached custom-search results of the render's member to the searches
 * whose conditions (custom-search.ts) the member meets now, plus those named in `add`, in one
 * write. The member is always the render's; an id in `add` must be one of the tenant's searches
 * (docs/decisions.md D57).
 */
import { implement } from '../plugin-contract.js';
import type { PhpArray } from '../../value/value.js';
import { BridgeError } from '../../host-api/errors.js';
import { adapterWith } from '../../host-api/capabilities.js';
import { meetsConditions } from './custom-search.js';
import { positiveId } from '../data-attrs.js';
import declaration from '../../plugins/host-members/refresh_cs.js';

const MAX_ADD = 100;

export const refreshCs = implement(declaration, async (attrs, call) => {
  const members = adapterWith(call.host, 'members', '{refresh_cs}', [
    'member',
    'customSearches',
    'setCustomSearchResults',
  ]);
  const add = addedIds(attrs.add);
  const { memberId } = call.identity;
  if (memberId === null)
    throw new BridgeError(
      'E_PERMISSION_DENIED',
      '{refresh_cs} needs a logged-in member: it refreshes the custom searches of the member of the render',
    );
  const member = await members.member(memberId);
  if (!member)
    throw new BridgeError(
      'E_NOT_FOUND',
      `{refresh_cs} the member of the render (${memberId}) is not a member of this site`,
    );
  const searches = await members.customSearches();
  const known = new Set(searches.map((s) => s.id));
  const unknown = add.find((id) => !known.has(id));
  if (unknown !== undefined)
    throw new BridgeError(
      'E_NOT_FOUND',
      `{refresh_cs} add= names ${unknown}, which is not a custom search of this site`,
    );
  const ids = new Set(add);
  for (const s of searches) if (meetsConditions(s.conditions, member)) ids.add(s.id);
  await members.setCustomSearchResults(
    memberId,
    [...ids].sort((a, b) => a - b),
  );
  return {};
});

/** The ids of `add`: integers (or their digit strings) from 1, at most MAX_ADD. */
function addedIds(add: unknown): number[] {
  if (add === undefined || add === null) return [];
  const values = (add as PhpArray).values();
  const bad = (): never => {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{refresh_cs} add= must be a list of at most ${MAX_ADD} custom search ids`,
    );
  };
  if (values.length > MAX_ADD) bad();
  return values.map((v) => positiveId(v) ?? bad());
}

import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'refresh_cs',
  host: 'members.setCustomSearchResults',
  summary:
    'Refreshes the member custom searches (MemberCustomSearch) for the member of the render: their cached results for this member are reset to the searches whose conditions the member meets now, ' +
    'plus the searches named in `add`. All in one write. Needs a logged-in member (E_PERMISSION_DENIED without one); an id in `add` that is not a custom search of this site is E_NOT_FOUND and changes nothing.',
  attrs: {
    add: {
      type: 'array',
      doc: 'Ids of custom searches (at most 100) to count the member in whatever their conditions say.',
    },
  },
  examples: [
    { template: '{assign_array var=ids values="2"}{refresh_cs add=$ids}refreshed', memberId: 2, output: 'refreshed' },
  ],
});

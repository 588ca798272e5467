import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'chat_team_info',
  host: 'chat',
  summary:
    "Information on the team (workspace) of the site's chat service (team.info of a Slack-compatible Web API): the bot token's own team, or the one `team` names. " +
    '`var` receives the team as the API gives it (`id`, `name`, `domain`...), or false on failure.',
  attrs: {
    var: { type: 'varname', required: true, doc: 'Receives the team, or false.' },
    team: { type: 'string', maxLength: 80, doc: "Team ID (like T0123ABCD); absent: the token's team." },
  },
  examples: [
    { template: '{chat_team_info var=team}{$team.name} ({$team.domain})', output: 'Example Team (example)' },
    {
      template: '{chat_team_info var=team team="T0OTHER"}{if $team === false}unknown team{/if}',
      output: 'unknown team',
    },
  ],
});

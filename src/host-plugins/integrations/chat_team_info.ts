/**
 * {chat_team_info}: team.info, for the token's own team or the one `team` names. var receives the
 * team as the API gives it, or false on failure (spec, Errors).
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { fromJS } from '../../value/value.js';
import { ServiceFailure, orFalse, record } from './common.js';
import { chatApi, CHANNEL_ID } from './chat.js';
import declaration from '../../plugins/host-integrations/chat_team_info.js';

const PLUGIN = 'chat_team_info';

export const chatTeamInfo = implement(declaration, (attrs, call) =>
  orFalse(PLUGIN, attrs.var, async () => {
    const team = typeof attrs.team === 'string' ? attrs.team : '';
    if (team !== '' && !CHANNEL_ID.test(team))
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{${PLUGIN}} team= is not a team ID (letters and digits, like T0123ABCD)`,
      );
    const answer = await chatApi(call, PLUGIN, 'team.info', team === '' ? {} : { team });
    const info = record(answer.team);
    if (!info) throw new ServiceFailure('team.info answered without a team');
    return { assign: [[String(attrs.var), fromJS(info)]] };
  }),
);

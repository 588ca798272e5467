import type { HostPlugin } from '../../plugin-contract.js';
import { chatGetMessage } from './chat_get_message.js';
import { chatPostMessage } from './chat_post_message.js';
import { chatTeamInfo } from './chat_team_info.js';
import { socialPostMessage } from './social_post_message.js';
import { cloudfnToken } from './cloudfn_token.js';
import { cloudpubsubPublish } from './cloudpubsub_publish.js';
import { webanalytics } from './webanalytics.js';

/** Host implementations of the integration plugins, by name. */
export const plugins: HostPlugin[] = [chatGetMessage, chatPostMessage, chatTeamInfo, socialPostMessage, cloudfnToken, cloudpubsubPublish, webanalytics];

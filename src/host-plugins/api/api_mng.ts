import { implement } from '../plugin-contract.js';
import { requestInternal } from './internal-request.js';
import declaration from '../../plugins/host-api/api_mng.js';

export const apiMng = implement(declaration, (attrs, call) => requestInternal('api_mng', attrs, call));

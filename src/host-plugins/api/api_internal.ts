import { implement } from '../plugin-contract.js';
import { requestInternal } from './internal-request.js';
import declaration from '../../plugins/host-api/api_internal.js';

export const apiInternal = implement(declaration, (attrs, call) => requestInternal('api_internal', attrs, call));

/** JSON and MessagePack modifiers. */
import type { Plugin } from '../types.js';
import jsonDecode from './json_decode.js';
import jsonEncode from './json_encode.js';
import msgpackPack from './msgpack_pack.js';
import msgpackUnpack from './msgpack_unpack.js';
import rcmsJsonEncode from './rcms_json_encode.js';

export const plugins: Plugin[] = [jsonDecode, jsonEncode, msgpackPack, msgpackUnpack, rcmsJsonEncode];

/**
 * Host implementations of the privileged plugins and host modifiers, by name: family <family>/
 * here mirrors the declarations' src/plugins/host-<family>/, one <tag>.ts on each side.
 */
import type { HostModifier, HostPlugin, PluginTable } from '../plugin-contract.js';
import { BUILTIN_PLUGINS } from '../../plugins/registry.js';
import { plugins as clock } from './clock/index.js';
import { plugins as secrets } from './secrets/index.js';
import { plugins as request } from './request/index.js';
import { plugins as crypto } from './crypto/index.js';
import { modifiers as geo } from './geo/index.js';
import { plugins as files } from './files/index.js';
import { plugins as api } from './api/index.js';
import { plugins as mail } from './mail/index.js';
import { plugins as content } from './content/index.js';
import { plugins as session } from './session/index.js';
import { plugins as members } from './members/index.js';
import { plugins as tags } from './tags/index.js';
import { plugins as community } from './community/index.js';
import { plugins as documents } from './documents/index.js';
import { plugins as archives } from './archives/index.js';
import { plugins as webops } from './webops/index.js';
import { plugins as sync } from './sync/index.js';
import { plugins as batches } from './batches/index.js';
import { plugins as backup } from './backup/index.js';
import { plugins as integrations } from './integrations/index.js';

/** Without a prototype, so that a name such as `constructor` finds nothing. */
export function byName<T extends { name: string }>(all: T[]): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, Object.fromEntries(all.map((p) => [p.name, p]))));
}

export const HOST_PLUGINS = byName<HostPlugin>([...clock, ...secrets, ...request, ...crypto, ...files, ...api, ...mail, ...content, ...members, ...tags, ...community, ...session, ...documents, ...archives, ...webops, ...sync, ...batches, ...backup, ...integrations]);

export const HOST_MODIFIERS = byName<HostModifier>([...geo]);

/** The bridge's table unless an engine adds plugins of its own. */
export const BUILTIN_TABLE: PluginTable = Object.freeze({ declarations: BUILTIN_PLUGINS, functions: HOST_PLUGINS, modifiers: HOST_MODIFIERS });

/**
 * hostProvides says which capabilities a host answers (`smartcage plugins` reports it for the
 * CLI). Held against behaviour: every host plugin's examples, rendered with the CLI's host (no
 * adapters), render as declared when the capability is said to be there, and fail when not.
 */
import { describe, expect, it } from 'vitest';
import { ALL_PLUGINS } from '../../src/plugins/registry.js';
import { hostProvides } from '../../src/host-api/capabilities.js';
import { CLI_HOST } from '../../src/cli/host.js';
import { testEngine, templateError } from '../support/engine.js';

const engine = testEngine({ host: CLI_HOST });

describe('host capabilities of a host without adapters', () => {
  for (const p of ALL_PLUGINS.filter((x) => x.host !== undefined)) {
    const ex = p.examples[0]!;
    const provided = hostProvides(CLI_HOST, p.host!);
    it(`${p.name} (${p.host}) ${provided ? 'renders' : 'fails'}`, async () => {
      const render = engine.render(ex.template, {
        name: `${p.name}.tpl`,
        vars: ex.vars as Record<string, unknown> | undefined,
      });
      if (provided) expect((await render).output).toBe(ex.output);
      else {
        // One code for every family, and a message that says which adapter to pass.
        const e = await templateError(render);
        expect(e.code).toBe('E_HOST_CAPABILITY');
        expect(e.message).toContain(`HostAdapters.${p.host}`);
      }
    });
  }

  it('names the adapter a capability calls', () => {
    expect(hostProvides({ geo: { countryOf: async () => null } }, 'geo')).toBe(true);
    expect(hostProvides({}, 'geo')).toBe(false);
    expect(hostProvides({}, 'toString')).toBe(false);
  });

  it('names an optional method of an adapter: the host has it only when the adapter has the method', () => {
    const isSuperUser = async (): Promise<boolean> => false;
    expect(hostProvides({ members: { isSuperUser } }, 'members')).toBe(true);
    expect(hostProvides({ members: { isSuperUser } }, 'members.member')).toBe(false);
    expect(hostProvides({ members: { isSuperUser, member: async () => null } }, 'members.member')).toBe(true);
    expect(hostProvides({}, 'members.member')).toBe(false);
  });
});

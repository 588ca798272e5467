import { lookup } from 'node:dns/promises';

/** Name resolution as the guard sees it; injectable so tests can play hostile DNS. */
export interface Resolver {
  lookup(hostname: string): Promise<{ address: string; family: 4 | 6 }[]>;
}

/** The operating system's resolver (getaddrinfo), every answer, in the order it gives them. */
export const systemResolver: Resolver = {
  async lookup(hostname: string) {
    const answers = await lookup(hostname, { all: true, verbatim: true });
    return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
};

/** The conditions of a member custom search as {refresh_cs} reads them: what matches, and that anything unreadable matches nobody. */
import { describe, expect, it } from 'vitest';
import { meetsConditions } from '../../../src/host-plugins/members/custom-search.js';
import type { MemberRecord } from '../../../src/host-api/adapters/members.js';

const member = (groupIds: number[], open = true): MemberRecord => ({
  memberId: 2,
  name1: '',
  name2: '',
  nickname: '',
  email: '',
  loginId: '',
  open,
  groupIds,
  created: '',
  updated: '',
});

describe('custom search conditions', () => {
  it.each([
    ['{}', member([]), true],
    ['{"group_ids":[1,3]}', member([3]), true],
    ['{"group_ids":[1,3]}', member([2]), false],
    ['{"open_flg":1}', member([1], false), false],
    ['{"open_flg":0}', member([1], false), true],
    ['{"group_ids":[1],"open_flg":1}', member([1], true), true],
    ['{"group_ids":[1],"open_flg":1}', member([1], false), false],
  ])('%s', (conditions, m, expected) => {
    expect(meetsConditions(conditions, m)).toBe(expected);
  });

  it.each([
    'not json',
    '[]',
    'null',
    '{"group_ids":[]}',
    '{"group_ids":"1"}',
    '{"group_ids":[1.5]}',
    '{"open_flg":true}',
    '{"age":30}',
    `{"group_ids":[${'1,'.repeat(3000)}1]}`,
  ])('matches nobody when unreadable: %s', (conditions) => {
    expect(meetsConditions(conditions, member([1]))).toBe(false);
  });
});

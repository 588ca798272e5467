import { describe, expect, it } from 'vitest';
import { REDIS_URL } from './support/queues.js';

describe('the BullMQ queue is tested where CI says so', () => {
  it('has a Redis server when SMARTCAGE_REQUIRE_REDIS is set', () => {
    if (process.env.SMARTCAGE_REQUIRE_REDIS)
      expect(REDIS_URL, 'SMARTCAGE_REDIS_URL (scripts/ci/redis.sh)').toMatch(/^redis:\/\//);
    else expect(process.env.SMARTCAGE_REQUIRE_REDIS).toBeUndefined();
  });
});

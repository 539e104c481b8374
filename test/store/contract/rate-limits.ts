import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { ContractContext } from './fixtures.ts';

const refusal = (rejection: unknown) => {
  assert.ok(rejection instanceof RateLimiterRes, `expected a refusal, got ${String(rejection)}`);
  assert.equal(rejection.remainingPoints, 0);
  assert.ok(rejection.msBeforeNext > 0 && rejection.msBeforeNext <= 60_000, `msBeforeNext ${rejection.msBeforeNext}`);
  return true;
};

/** Rate-limit counters: a limiter made by the store, whatever the engine keeps its counts in. */
export function rateLimitsContract({ withStore }: ContractContext): void {
  describe('rate limits', () => {
    test('a limiter from the store counts each key and refuses past its points', () =>
      withStore(async (store) => {
        const limiter = store.rateLimits.limiter({ keyPrefix: `contract-${randomUUID()}`, points: 3, duration: 60 });
        const remaining: number[] = [];
        for (let i = 0; i < 3; i++) remaining.push((await limiter.consume('client-a')).remainingPoints);
        assert.deepEqual(remaining, [2, 1, 0]);
        await assert.rejects(limiter.consume('client-a'), refusal);
        await assert.rejects(limiter.consume('client-a'), refusal, 'still refused');
        assert.equal((await limiter.consume('client-b')).remainingPoints, 2, 'another key has its own count');
      }));

    test('limiters of different budgets count apart, and a deleted key starts afresh', () =>
      withStore(async (store) => {
        const budget = (name: string) => ({ keyPrefix: `contract-${name}-${randomUUID()}`, points: 1, duration: 60 });
        const first = store.rateLimits.limiter(budget('first'));
        const second = store.rateLimits.limiter(budget('second'));
        await first.consume('client');
        await assert.rejects(first.consume('client'), refusal);
        assert.equal((await second.consume('client')).remainingPoints, 0, 'the other budget was untouched');
        await first.delete('client');
        assert.equal((await first.consume('client')).remainingPoints, 0, 'counted afresh after the delete');
      }));

    test('refusals are counted by budget name: a budget with a limiter shows 0 until one is refused', () =>
      withStore(async (store) => {
        const keyPrefix = `contract-refusals-${randomUUID()}`;
        const limiter = store.rateLimits.limiter({ keyPrefix, points: 1, duration: 60 });
        assert.equal(store.rateLimits.rejections()[keyPrefix], 0);
        await limiter.consume('client');
        assert.equal(store.rateLimits.rejections()[keyPrefix], 0, 'an allowed request is no refusal');
        await assert.rejects(limiter.consume('client'), refusal);
        await assert.rejects(limiter.consume('client'), refusal);
        assert.equal(store.rateLimits.rejections()[keyPrefix], 2);
      }));
  });
}

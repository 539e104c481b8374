import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { openStore } from '../../src/store/open.ts';
import { migratedPostgresDatabase, skipWithoutPostgres } from '../helpers/postgres.ts';
import { defineStoreContract } from './contract/index.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-postgres-'));
describe('store/postgres', () => {
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  describe('postgres', { skip: skipWithoutPostgres }, () => {
    // Every store gets its own empty database on the test cluster.
    defineStoreContract('postgres', async () => openStore({ dataDir, databaseUrl: await migratedPostgresDatabase() }));

    describe('postgres rate limits', () => {
      test('the counters are rows of the rate_limits table keyed prefix:key, so counts made before an upgrade still count', async () => {
        const store = await openStore({ dataDir, databaseUrl: await migratedPostgresDatabase() });
        try {
          const limiter = store.rateLimits.limiter({ keyPrefix: 'read', points: 5, duration: 60 });
          await limiter.consume('user:new');
          const rows = await sql<{ key: string; points: number }>`select key, points from rate_limits`.execute(store.db);
          assert.deepEqual(rows.rows, [{ key: 'read:user:new', points: 1 }]);

          // A budget spent by an earlier version of the service, in the same table under the same key.
          await sql`insert into rate_limits (key, points, expire) values ('read:user:old', 5, ${Date.now() + 60_000})`.execute(store.db);
          await assert.rejects(limiter.consume('user:old'), (rejection: unknown) => rejection instanceof RateLimiterRes);
        } finally {
          await store.close();
        }
      });

      test('two stores on one database count one budget together', async () => {
        const databaseUrl = await migratedPostgresDatabase();
        const first = await openStore({ dataDir, databaseUrl });
        const second = await openStore({ dataDir, databaseUrl });
        try {
          const budget = { keyPrefix: 'web-page', points: 2, duration: 60 };
          await first.rateLimits.limiter(budget).consume('203.0.113.9');
          assert.equal((await second.rateLimits.limiter(budget).consume('203.0.113.9')).remainingPoints, 0);
          await assert.rejects(first.rateLimits.limiter(budget).consume('203.0.113.9'), (rejection: unknown) => rejection instanceof RateLimiterRes);
        } finally {
          await Promise.all([first.close(), second.close()]);
        }
      });
    });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import { freshPostgresDatabase, skipWithoutPostgres } from '../helpers/postgres.ts';
import { defineStoreContract } from './contract/index.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-postgres-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('postgres', { skip: skipWithoutPostgres }, () => {
  // Every store gets its own empty database on the test cluster.
  defineStoreContract('postgres', async () => openStore({ dataDir, databaseUrl: await freshPostgresDatabase() }));
});

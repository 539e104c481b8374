import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import { freshPostgresDatabase, skipWithoutPostgres } from '../helpers/postgres.ts';
import { defineStoreContract } from './contract.ts';

describe('postgres', { skip: skipWithoutPostgres }, () => {
  defineStoreContract('postgres', async () =>
    openStore({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-')), databaseUrl: await freshPostgresDatabase() }),
  );
});

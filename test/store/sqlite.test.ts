import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import { defineStoreContract } from './contract/index.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-sqlite-'));
describe('store/sqlite', () => {
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  // Every store gets its own database file in a fresh directory.
  defineStoreContract('sqlite', () => openStore({ dataDir: fs.mkdtempSync(path.join(root, 'db-')) }));
});

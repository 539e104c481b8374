import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/open.ts';
import { defineStoreContract } from './contract.ts';

defineStoreContract('sqlite', () => openStore({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-store-')) }));

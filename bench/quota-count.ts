/**
 * `npm run bench:count`: what a create's quota check costs on SQLite for an
 * owner of 4,000 diagrams of 100 elements each (a 110 MB database): the count
 * of their active diagrams with the index migration 0009 adds, beside the
 * same count without it (every row read, scene and all), in one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { openStore } from '../src/store/open.ts';
import { percentile } from './service-spec.ts';

const DIAGRAMS = Number(process.env.DIAGRAMS ?? 4000);
const RUNS = 30;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-bench-count-'));
const store = await openStore({ dataDir });
const db = store.db as Kysely<any>;
try {
  await db.insertInto('users').values({ id: 'owner', email: 'owner@example.com', email_verified: 1, created_at: 'x', quota: 100_000 }).execute();
  const scene = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: `e${i}`, type: 'rectangle', x: i, y: i, width: 100, height: 50, text: 'x'.repeat(200) })));
  const now = new Date().toISOString();
  for (let i = 0; i < DIAGRAMS; i++) {
    await db.insertInto('diagrams').values({ id: `d${i}`, owner_id: 'owner', title: `T${i}`, title_key: `t${i}`, folder_id: null, workspace_id: null, starred: 0, elements: scene, element_count: 100, created_at: now, updated_at: now, doc_updated_at: now, deleted_at: null }).execute();
  }
  const count = async () => {
    const times: number[] = [];
    for (let k = 0; k < RUNS; k++) {
      const start = performance.now();
      await sql`select count(*) from diagrams where owner_id = ${'owner'} and deleted_at is null`.execute(db);
      times.push(performance.now() - start);
    }
    return percentile(times.sort((a, b) => a - b), 0.5);
  };
  const indexed = await count();
  await sql`drop index diagrams_owner_active`.execute(db);
  const scanned = await count();
  console.log(`# the quota's count for an owner of ${DIAGRAMS} diagrams of 100 elements, SQLite, node ${process.version}, p50 of ${RUNS}`);
  console.log(`with diagrams_owner_active      ${indexed.toFixed(2).padStart(7)} ms   ${(indexed / scanned).toFixed(3)}× the scan`);
  console.log(`without it (reads every row)    ${scanned.toFixed(2).padStart(7)} ms`);
} finally {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

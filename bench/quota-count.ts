/**
 * `npm run bench:count`: what an owner of 4,000 diagrams of 100 elements each
 * (a 110 MB database) costs on SQLite, each figure beside the same without its
 * index, in one run:
 * - a create's quota check: the count of their active diagrams, with the index
 *   migration 0009 adds;
 * - their listing filtered (a title matching nothing, starred, the trash) and
 *   the dashboard's counts, with the index migration 0010 adds in place of
 *   0001's listing index.
 * Without an index each reads every row, scene and all, on the event loop.
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
    const at = new Date(Date.parse(now) - i * 1000).toISOString();
    await db.insertInto('diagrams').values({ id: `d${i}`, owner_id: 'owner', title: `T${i}`, title_key: `t${i}`, folder_id: null, workspace_id: null, starred: 0, elements: scene, element_count: 100, created_at: at, updated_at: at, doc_updated_at: at, deleted_at: null }).execute();
  }
  const listings: Array<[string, () => Promise<unknown>]> = [
    ['a page of 50, newest first', () => store.diagrams.listOwned({ ownerId: 'owner', trashed: false, after: null, limit: 50 })],
    ['title containing "zzz" (none)', () => store.diagrams.listOwned({ ownerId: 'owner', trashed: false, after: null, limit: 50, titleContains: 'zzz' })],
    ['starred (none)', () => store.diagrams.listOwned({ ownerId: 'owner', trashed: false, after: null, limit: 50, starred: true })],
    ['the trash (empty)', () => store.diagrams.listOwned({ ownerId: 'owner', trashed: true, after: null, limit: 50 })],
    ['the dashboard counts', () => store.diagrams.countOwned('owner')],
  ];
  const timeAll = async () => {
    const out: number[] = [];
    for (const [, run] of listings) {
      await run();
      const times: number[] = [];
      for (let k = 0; k < RUNS; k++) {
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      out.push(percentile(times.sort((a, b) => a - b), 0.5));
    }
    return out;
  };
  const withFilters = await timeAll();
  // 0001's listing index alone (0010's holds the columns the quota's count could read instead of 0009's).
  await sql`drop index diagrams_owner_listing_filters`.execute(db);
  await sql`create index diagrams_owner_listing on diagrams (owner_id, created_at, id)`.execute(db);
  const withListingOnly = await timeAll();
  console.log(`# the listing of an owner of ${DIAGRAMS} diagrams of 100 elements, SQLite, node ${process.version}, p50 of ${RUNS}: with diagrams_owner_listing_filters (0010), and with 0001's diagrams_owner_listing alone`);
  for (const [i, [label]] of listings.entries()) {
    console.log(`${label.padEnd(32)} ${withFilters[i]!.toFixed(2).padStart(7)} ms   ${withListingOnly[i]!.toFixed(2).padStart(7)} ms   ${(withFilters[i]! / withListingOnly[i]!).toFixed(3)}×`);
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
  console.log('');
  console.log(`# the quota's count for an owner of ${DIAGRAMS} diagrams of 100 elements, SQLite, node ${process.version}, p50 of ${RUNS}`);
  console.log(`with diagrams_owner_active      ${indexed.toFixed(2).padStart(7)} ms   ${(indexed / scanned).toFixed(3)}× the scan`);
  console.log(`without it (reads every row)    ${scanned.toFixed(2).padStart(7)} ms`);

} finally {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

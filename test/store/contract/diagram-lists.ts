import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type DiagramMeta, type DiagramRecord, type ListPosition, type Store } from '../../../src/store/store.ts';
import { at, type ContractContext, createDiagram, createUser, diagramRecord, folderRecord, metaOf, newestFirst, TEST_AUTHOR } from './fixtures.ts';
import { BASELINE_REVISION } from '../../../src/app/history/recording.ts';

/** An owner's diagram listings (order, keyset pages, filters) and counts. */
export function diagramListsContract({ withStore }: ContractContext): void {
  describe('diagram lists', () => {
    test('owned diagrams are listed newest first by createdAt, then id', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const stranger = await createUser(store);
        // Pairs share a createdAt so the id tie-break decides; insertion order is scrambled.
        const offsets = [3, 0, 5, 1, 3, 4, 0, 2, 5, 1];
        const diagrams = offsets.map((offset) => diagramRecord(user.id, { createdAt: at(offset * 1000) }));
        for (const d of diagrams) await createDiagram(store, d);
        await createDiagram(store, diagramRecord(stranger.id, { createdAt: at(9000) }));

        const listed = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
        assert.deepEqual(listed, [...diagrams].sort(newestFirst).map(metaOf));
        const limited = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 4 });
        assert.deepEqual(limited, [...diagrams].sort(newestFirst).slice(0, 4).map(metaOf));
      }));

    test('keyset pagination with after has no duplicates or gaps even when diagrams are inserted between pages', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        // Three diagrams per millisecond, so page boundaries fall inside ties.
        const initial = Array.from({ length: 13 }, (_, i) => diagramRecord(user.id, { createdAt: at(1000 + Math.floor(i / 3)) }));
        for (const d of initial) await createDiagram(store, d);
        const olderInserted: DiagramRecord[] = [];

        const seen: string[] = [];
        let after: ListPosition | null = null;
        for (let page = 0; page < 20; page++) {
          const items: DiagramMeta[] = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after, limit: 4 });
          if (items.length === 0) break;
          seen.push(...items.map((d) => d.id));
          const last = items[items.length - 1]!;
          after = { createdAt: last.createdAt, id: last.id };
          // Newer diagrams (ahead of the cursor) must not shift later pages; an older one must still be reached.
          await createDiagram(store, diagramRecord(user.id, { createdAt: at(5000 + page) }));
          if (page === 0) {
            const older = diagramRecord(user.id, { createdAt: at(10) });
            await createDiagram(store, older);
            olderInserted.push(older);
          }
        }

        const expected = [...initial, ...olderInserted].sort(newestFirst).map((d) => d.id);
        assert.equal(new Set(seen).size, seen.length, 'no diagram is listed twice');
        assert.deepEqual(seen, expected);
      }));

    test('a trashed listing lists only trashed diagrams, and an active listing only active ones', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const stranger = await createUser(store);
        const diagrams = Array.from({ length: 5 }, (_, i) => diagramRecord(user.id, { createdAt: at(i) }));
        for (const d of diagrams) await createDiagram(store, d);
        const strangers = await createDiagram(store, diagramRecord(stranger.id));
        await store.diagrams.setTrashed(strangers.id, true, at(50));
        await store.diagrams.setTrashed(diagrams[1]!.id, true, at(100));
        await store.diagrams.setTrashed(diagrams[3]!.id, true, at(101));

        const active = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
        assert.deepEqual(
          active.map((d) => d.id),
          [diagrams[4]!, diagrams[2]!, diagrams[0]!].map((d) => d.id),
        );
        const trashed = await store.diagrams.listOwned({ ownerId: user.id, trashed: true, after: null, limit: 100 });
        assert.deepEqual(
          trashed.map((d) => [d.id, d.deletedAt]),
          [
            [diagrams[3]!.id, at(101)],
            [diagrams[1]!.id, at(100)],
          ],
        );
      }));

    test('a listing narrows by folder, star and title substring ignoring case, combined and paged', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const stranger = await createUser(store);
        const folder = await store.folders.create(folderRecord(user.id));
        const make = (title: string, i: number, extra: Partial<DiagramRecord> = {}) =>
          createDiagram(store, diagramRecord(user.id, { title, createdAt: at(i), ...extra }));
        const payments = await make('Payments flow', 1, { folderId: folder.id });
        const refunds = await make('PAYMENT refunds', 2, { starred: true });
        const filedStarred = await make('payment retries', 3, { folderId: folder.id, starred: true });
        await make('Login', 4, { folderId: folder.id });
        const percent = await make('100% done_ok', 5);
        const percent100 = await make('100 percent', 6);
        await createDiagram(store, diagramRecord(stranger.id, { title: 'Payments', folderId: folder.id, starred: true }));
        const trashedPayment = await make('payment (old)', 7);
        await store.diagrams.setTrashed(trashedPayment.id, true, at(100));

        const list = async (filters: Partial<Parameters<Store['diagrams']['listOwned']>[0]>) =>
          (await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100, ...filters })).map((d) => d.title);
        assert.deepEqual(await list({ titleContains: 'pAyMeNt' }), [filedStarred.title, refunds.title, payments.title]);
        assert.deepEqual(await list({ folderId: folder.id }), ['Login', filedStarred.title, payments.title]);
        assert.deepEqual(await list({ starred: true }), [filedStarred.title, refunds.title]);
        assert.deepEqual(await list({ starred: false }), [percent100.title, percent.title, 'Login', payments.title]);
        assert.deepEqual(await list({ folderId: null }), [percent100.title, percent.title, refunds.title]);
        assert.deepEqual(await list({ folderId: null, starred: false }), [percent100.title, percent.title]);
        assert.deepEqual(await list({ titleContains: 'payment', folderId: folder.id, starred: true }), [filedStarred.title]);
        assert.deepEqual(await list({ titleContains: '%' }), [percent.title], '% is a literal character, not a wildcard');
        assert.deepEqual(await list({ titleContains: 'e_o' }), [percent.title], '_ is a literal character, not a wildcard');
        assert.deepEqual(await list({ titleContains: 'payment', trashed: true }), [trashedPayment.title]);

        const first = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 2, titleContains: 'payment' });
        const last = first.at(-1)!;
        const rest = await store.diagrams.listOwned({
          ownerId: user.id,
          trashed: false,
          after: { createdAt: last.createdAt, id: last.id },
          limit: 2,
          titleContains: 'payment',
        });
        assert.deepEqual([...first, ...rest].map((d) => d.id), [filedStarred.id, refunds.id, payments.id]);
      }));

    test('a title search folds Unicode case and compatibility forms alike on every engine, and follows renames', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const make = (title: string, i: number) => createDiagram(store, diagramRecord(user.id, { title, createdAt: at(i) }));
        const ecole = await make('ÉCOLE Straße', 1);
        const sigma = await make('ΟΔΟΣ plan', 2);
        const decomposed = await make('cafe\u0301 menu', 3);
        const wide = await make('ＡＰＩ gateway', 4);
        const list = async (titleContains: string) =>
          (await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100, titleContains })).map((d) => d.id);
        assert.deepEqual(await list('école'), [ecole.id]);
        assert.deepEqual(await list('STRASSE'), [ecole.id], 'ß and SS fold to the same letters');
        assert.deepEqual(await list('οδος'), [sigma.id], 'a final sigma is a sigma');
        assert.deepEqual(await list('Café'), [decomposed.id], 'a composed é finds a decomposed one');
        assert.deepEqual(await list('api'), [wide.id], 'full-width letters are letters');
        assert.deepEqual(await list('%'), []);

        await store.diagrams.updateMeta(ecole.id, { title: 'Über uns', updatedAt: at(10) }, TEST_AUTHOR);
        assert.deepEqual(await list('école'), []);
        assert.deepEqual(await list('ÜBER'), [ecole.id]);
        const written = await store.diagrams.writeContent({
    revision: { kind: 'patch', userId: null, via: null, summary: 'written by a test', delta: null, baseline: BASELINE_REVISION },
          id: sigma.id,
          elementsJson: '[]',
          elementCount: 0,
          elementIds: new Set(),
          expectedDocUpdatedAt: null,
          now: new Date(at(20)),
          title: 'Ärger',
        });
        assert.equal(written.status, 'written');
        assert.deepEqual(await list('ärger'), [sigma.id]);
      }));

    test("an owner's counts are active, starred, trashed and active per folder, theirs only", () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const stranger = await createUser(store);
        const [a, b] = [await store.folders.create(folderRecord(user.id)), await store.folders.create(folderRecord(user.id))];
        await createDiagram(store, diagramRecord(user.id, { folderId: a.id, starred: true }));
        await createDiagram(store, diagramRecord(user.id, { folderId: a.id }));
        await createDiagram(store, diagramRecord(user.id, { starred: true }));
        const trashed = await createDiagram(store, diagramRecord(user.id, { folderId: b.id, starred: true }));
        await store.diagrams.setTrashed(trashed.id, true, at(10));
        await createDiagram(store, diagramRecord(stranger.id, { folderId: a.id, starred: true }));

        assert.deepEqual(await store.diagrams.countOwned(user.id), { active: 3, starred: 2, trashed: 1, byFolder: { [a.id]: 2 } });
        const nobody = await createUser(store);
        assert.deepEqual(await store.diagrams.countOwned(nobody.id), { active: 0, starred: 0, trashed: 0, byFolder: {} });
      }));
  });
}

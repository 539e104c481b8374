import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { at, type ContractContext, createDiagram, createUser, diagramRecord, RACE_ROUNDS, warmUp } from './fixtures.ts';

/** Public links: one per diagram, versioned, found by slug. */
export function publicLinksContract({ withStore }: ContractContext): void {
  describe('public links', () => {
    test('the first update creates the link with version 1 and the given slug', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id));
        const plain = await createDiagram(store, diagramRecord(user.id));
        assert.equal(await store.publicLinks.find(diagram.id), null);

        const created = await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: 'pw-hash' }, 'slug-first', at(10));
        const expected = { diagramId: diagram.id, slug: 'slug-first', enabled: true, passwordHash: 'pw-hash', version: 1, updatedAt: at(10) };
        assert.deepEqual(created, expected);
        assert.deepEqual(await store.publicLinks.find(diagram.id), expected);

        const withoutPassword = await store.publicLinks.update(plain.id, { enabled: false }, 'slug-plain', at(20));
        assert.deepEqual(withoutPassword, { diagramId: plain.id, slug: 'slug-plain', enabled: false, passwordHash: null, version: 1, updatedAt: at(20) });
      }));

    test('each update increments the version by one and keeps the first slug', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id));
        await store.publicLinks.update(diagram.id, { enabled: true }, 'slug-kept', at(1));
        for (let call = 2; call <= 5; call++) {
          const link = await store.publicLinks.update(diagram.id, { enabled: call % 2 === 0 }, `slug-ignored-${call}`, at(call));
          assert.deepEqual(link, {
            diagramId: diagram.id,
            slug: 'slug-kept',
            enabled: call % 2 === 0,
            passwordHash: null,
            version: call,
            updatedAt: at(call),
          });
        }
        assert.equal((await store.publicLinks.find(diagram.id))?.version, 5);
        assert.equal(await store.publicLinks.findBySlug('slug-ignored-3'), null);
      }));

    test('an update without a password hash keeps it, and one with null clears it', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id));
        await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: 'hash-1' }, 'slug-pw', at(1));
        const kept = await store.publicLinks.update(diagram.id, { enabled: false }, 'slug-pw', at(2));
        assert.equal(kept.passwordHash, 'hash-1');
        assert.equal(kept.enabled, false);
        const replaced = await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: 'hash-2' }, 'slug-pw', at(3));
        assert.equal(replaced.passwordHash, 'hash-2');
        const cleared = await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: null }, 'slug-pw', at(4));
        assert.equal(cleared.passwordHash, null);
        const stillCleared = await store.publicLinks.update(diagram.id, { enabled: true }, 'slug-pw', at(5));
        assert.equal(stillCleared.passwordHash, null);
        assert.deepEqual(await store.publicLinks.find(diagram.id), stillCleared);
        assert.equal(stillCleared.version, 5);
      }));

    for (const prior of [0, 2]) {
      test(`concurrent updates get distinct versions and end at ${prior} + 5`, () =>
        withStore(async (store) => {
          await warmUp(store);
          const user = await createUser(store);
          for (let round = 0; round < RACE_ROUNDS; round++) {
            const diagram = await createDiagram(store, diagramRecord(user.id));
            for (let i = 1; i <= prior; i++) await store.publicLinks.update(diagram.id, { enabled: true }, `slug-race-${round}`, at(i));

            const results = await Promise.all(
              Array.from({ length: 5 }, (_, i) => store.publicLinks.update(diagram.id, { enabled: true }, `slug-race-${round}-${i}`, at(100 + i))),
            );
            const versions = results.map((r) => r.version).sort((a, b) => a - b);
            assert.deepEqual(versions, [prior + 1, prior + 2, prior + 3, prior + 4, prior + 5], `round ${round}: versions`);
            const final = await store.publicLinks.find(diagram.id);
            assert.equal(final?.version, prior + 5, `round ${round}: final version`);
            assert.equal(new Set(results.map((r) => r.slug)).size, 1, `round ${round}: every caller sees the one slug`);
            assert.equal(final?.slug, results[0]!.slug, `round ${round}: stored slug`);
          }
        }));
    }

    test('a link is found by its slug, with its diagram', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const elementsJson = '[{"id":"n1","type":"rectangle", "label":"\u00fc"}]';
        const diagram = await createDiagram(store, diagramRecord(user.id, { title: 'Published', elementsJson, elementCount: 1, updatedAt: at(3) }));
        const other = await createDiagram(store, diagramRecord(user.id));
        const link = await store.publicLinks.update(diagram.id, { enabled: true, passwordHash: 'h' }, 'slug-find', at(7));
        await store.publicLinks.update(other.id, { enabled: true }, 'slug-other', at(8));

        const found = await store.publicLinks.findBySlug('slug-find');
        // Both tables have an updated_at column; the link must carry its own.
        assert.equal(found?.link.updatedAt, at(7), "the link's own updatedAt, not the diagram's");
        assert.deepEqual(found, { link, diagram });
        assert.equal(found?.diagram.elementsJson, elementsJson);
        assert.equal((await store.publicLinks.findBySlug('slug-other'))?.diagram.id, other.id);
        assert.equal(await store.publicLinks.findBySlug('slug-missing'), null);
      }));
  });
}

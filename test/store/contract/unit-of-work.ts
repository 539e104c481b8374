import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { CommentRecord } from '../../../src/store/store.ts';
import {
  at,
  contentWrite,
  type ContractContext,
  createDiagram,
  createUser,
  diagramRecord,
  folderRecord,
  RACE_ROUNDS,
  TEST_CREATED,
  userRecord,
  warmUp,
} from './fixtures.ts';

const comment = (diagramId: string, authorId: string, elementId: string | null): CommentRecord => ({
  id: randomUUID(),
  diagramId,
  elementId,
  body: 'a note',
  authorId,
  createdAt: at(1),
  resolved: false,
  resolvedReason: null,
});

/** The unit of work: `store.transaction(work)` commits all of what `work` wrote through its aggregates, or none of it. */
export function unitOfWorkContract({ withStore }: ContractContext): void {
  describe('unit of work', () => {
    test('work that throws midway leaves nothing written in any aggregate, and its error reaches the caller', () =>
      withStore(async (store) => {
        const owner = await createUser(store);
        const existing = await createDiagram(store, diagramRecord(owner.id, { docUpdatedAt: at(5), elementsJson: '[{"id":"gone"}]', elementCount: 1 }));
        const note = await store.comments.add(comment(existing.id, owner.id, 'gone'));
        const newcomer = userRecord();
        const diagram = diagramRecord(owner.id);
        const folder = folderRecord(owner.id);
        const session = { idHash: `s-${randomUUID()}`, userId: owner.id, csrfToken: 'c', createdAt: at(0), expiresAt: at(10_000) };
        const failure = new Error('midway');

        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.accounts.create(newcomer);
            assert.equal(await tx.diagrams.create(diagram, 1000, TEST_CREATED), 'created');
            await tx.folders.create(folder);
            const written = await tx.diagrams.writeContent(contentWrite(existing.id, at(5), ['new'], new Date(at(10))));
            assert.equal(written.status === 'written' && written.orphanedComments, 1);
            await tx.publicLinks.update(existing.id, { enabled: true }, 'slug-rolled-back', at(11));
            await tx.sessions.create(session);
            await tx.operations.setApiEnabled(false);
            // Inside, the work reads what it wrote.
            assert.deepEqual(await tx.accounts.findById(newcomer.id), newcomer);
            assert.equal(await tx.operations.isApiEnabled(), false);
            throw failure;
          }),
          (error: unknown) => error === failure,
        );

        assert.equal(await store.accounts.findById(newcomer.id), null);
        assert.equal(await store.diagrams.find(diagram.id), null);
        assert.equal(await store.folders.find(folder.id), null);
        assert.deepEqual((await store.diagrams.findForUser(existing.id, owner.id))?.diagram, existing);
        assert.deepEqual(await store.comments.list(existing.id), [note], 'the comment is still open');
        assert.equal(await store.publicLinks.find(existing.id), null);
        assert.equal(await store.sessions.find(session.idHash, at(1)), null);
        assert.equal(await store.operations.isApiEnabled(), true);
      }));

    test('work that resolves commits everything it wrote across aggregates, and its value is returned', () =>
      withStore(async (store) => {
        const user = userRecord();
        const diagram = diagramRecord(user.id, { title: 'Together' });
        const note = comment(diagram.id, user.id, null);
        const link = await store.transaction(async (tx) => {
          await tx.accounts.create(user);
          assert.equal(await tx.diagrams.create(diagram, 1, TEST_CREATED), 'created');
          await tx.comments.add(note);
          return tx.publicLinks.update(diagram.id, { enabled: true }, 'slug-unit-of-work', at(3));
        });
        assert.deepEqual(link, { diagramId: diagram.id, slug: 'slug-unit-of-work', enabled: true, passwordHash: null, version: 1, updatedAt: at(3) });
        assert.deepEqual(await store.accounts.findById(user.id), user);
        assert.deepEqual(await store.publicLinks.findBySlug('slug-unit-of-work'), { link, diagram });
        assert.deepEqual(await store.comments.list(diagram.id), [note]);
      }));

    test('a content write rolled back with its unit of work is never read back, even when a later write gets the same revision', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5), elementsJson: '[]' }));
        const now = new Date(at(10));
        let abandoned: string | null = null;
        await assert.rejects(
          store.transaction(async (tx) => {
            const written = await tx.diagrams.writeContent(contentWrite(diagram.id, at(5), ['abandoned'], now));
            assert.equal(written.status, 'written');
            abandoned = written.status === 'written' ? written.docUpdatedAt : null;
            assert.equal((await tx.diagrams.findForUser(diagram.id, user.id))?.diagram.elementsJson, '[{"id":"abandoned","type":"rectangle"}]');
            throw new Error('abandon');
          }),
          /abandon/,
        );
        assert.deepEqual((await store.diagrams.findForUser(diagram.id, user.id))?.diagram, diagram);

        // Written from the same revision at the same time, the next write gets the abandoned write's revision.
        const kept = await store.diagrams.writeContent(contentWrite(diagram.id, at(5), ['kept'], now));
        assert.equal(kept.status === 'written' && kept.docUpdatedAt, abandoned);
        assert.equal((await store.diagrams.findForUser(diagram.id, user.id))?.diagram.elementsJson, '[{"id":"kept","type":"rectangle"}]');
      }));

    test('the methods a unit of work calls keep their rules: the quota refuses and a stale content write writes nothing', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5) }));
        const refused = diagramRecord(user.id);
        await store.transaction(async (tx) => {
          assert.equal(await tx.diagrams.create(refused, 1, TEST_CREATED), 'quota_exceeded');
          assert.deepEqual(await tx.diagrams.writeContent(contentWrite(diagram.id, at(4), ['x'], new Date(at(10)))), { status: 'stale', docUpdatedAt: at(5) });
        });
        assert.equal(await store.diagrams.find(refused.id), null);
        assert.deepEqual((await store.diagrams.findForUser(diagram.id, user.id))?.diagram, diagram);
      }));

    test('concurrent units of work that create under the quota never overshoot it', () =>
      withStore(async (store) => {
        await warmUp(store);
        for (let round = 0; round < RACE_ROUNDS; round++) {
          const user = await createUser(store);
          const quota = 3;
          const attempts = Array.from({ length: 8 }, (_, i) => diagramRecord(user.id, { createdAt: at(i) }));
          const outcomes = await Promise.all(
            attempts.map((d) =>
              store.transaction(async (tx) => {
                const outcome = await tx.diagrams.create(d, quota, TEST_CREATED);
                // A second write in the same unit, committed with the diagram or not at all.
                if (outcome === 'created') await tx.folders.create(folderRecord(user.id, { id: randomUUID(), name: d.id }));
                return outcome;
              }),
            ),
          );
          assert.equal(outcomes.filter((o) => o === 'created').length, quota, `round ${round}: created count`);
          const stored = await store.diagrams.listOwned({ ownerId: user.id, trashed: false, after: null, limit: 100 });
          assert.equal(stored.length, quota, `round ${round}: stored diagrams`);
          assert.deepEqual(
            new Set((await store.folders.list(user.id)).map((f) => f.name)),
            new Set(stored.map((d) => d.id)),
            `round ${round}: one folder per created diagram`,
          );
        }
      }));
  });
}

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { at, contentWrite, type ContractContext, createDiagram, createUser, diagramRecord, warmUp } from './fixtures.ts';

/** Content writes: the revision check, the revision clock and the comments a write orphans. */
export function contentWritesContract({ withStore }: ContractContext): void {
  describe('content writes', () => {
    test('a content write replaces the elements, and every write gets a distinct, increasing docUpdatedAt, even in one millisecond', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5) }));
        const now = new Date(at(10));
        const revisions: string[] = [];
        for (let i = 0; i < 5; i++) {
          const result = await store.diagrams.writeContent(contentWrite(diagram.id, null, [`e${i}`], now));
          assert.equal(result.status, 'written');
          revisions.push((result as { docUpdatedAt: string }).docUpdatedAt);
        }
        assert.deepEqual(revisions, [...revisions].sort());
        assert.equal(new Set(revisions).size, 5);
        const read = await store.diagrams.findForUser(diagram.id, user.id);
        assert.equal(read?.diagram.elementsJson, '[{"id":"e4","type":"rectangle"}]');
        assert.equal(read?.diagram.docUpdatedAt, revisions[4]);
        assert.equal(read?.diagram.elementCount, 1);
      }));

    test('a content write with a stale expected revision writes nothing, and one to a missing diagram is missing', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5), elementsJson: '[]' }));
        const stale = await store.diagrams.writeContent(contentWrite(diagram.id, at(4), ['x'], new Date(at(10))));
        assert.deepEqual(stale, { status: 'stale', docUpdatedAt: at(5) });
        assert.equal((await store.diagrams.findForUser(diagram.id, user.id))?.diagram.elementsJson, '[]');
        assert.deepEqual(await store.diagrams.writeContent(contentWrite(randomUUID(), null, [], new Date(at(10)))), { status: 'missing' });
      }));

    test('of concurrent writes expecting the same revision exactly one is written', () =>
      withStore(async (store) => {
        await warmUp(store);
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5) }));
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.diagrams.writeContent(contentWrite(diagram.id, at(5), [`w${i}`], new Date(at(10))))));
        assert.equal(results.filter((r) => r.status === 'written').length, 1);
        assert.equal(results.filter((r) => r.status === 'stale').length, 7);
      }));

    test('comments on elements a write removes are resolved once and counted', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5) }));
        const comment = (elementId: string | null, n: number) => ({
          id: randomUUID(),
          diagramId: diagram.id,
          elementId,
          body: `c${n}`,
          authorId: user.id,
          createdAt: at(n),
          resolved: false,
          resolvedReason: null,
        });
        await store.comments.add(comment('keep', 1));
        await store.comments.add(comment('gone', 2));
        await store.comments.add(comment(null, 3));
        const first = await store.diagrams.writeContent(contentWrite(diagram.id, null, ['keep'], new Date(at(10))));
        assert.equal(first.status === 'written' && first.orphanedComments, 1);
        const second = await store.diagrams.writeContent(contentWrite(diagram.id, null, [], new Date(at(11))));
        assert.equal(second.status === 'written' && second.orphanedComments, 1);
        const listed = await store.comments.list(diagram.id);
        assert.deepEqual(
          listed.map((c) => [c.body, c.resolved, c.resolvedReason]),
          [
            ['c1', true, 'element_removed'],
            ['c2', true, 'element_removed'],
            ['c3', false, null],
          ],
        );
      }));
  });
}

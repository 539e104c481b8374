import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { SceneElement } from '../../../src/domain/edit/types.ts';
import { sceneDelta } from '../../../src/domain/history/delta.ts';
import { BASELINE_REVISION, changeRecording, contributorsOf, joinSaveBurst, retention } from '../../../src/app/history/recording.ts';
import type { ContentRevision, Store, Via } from '../../../src/store/store.ts';
import { at, type ContractContext, createDiagram, createUser, diagramRecord, folderRecord } from './fixtures.ts';

const BOT: Via = { kind: 'token', name: 'agent-bot', token: { id: 'tok-1', name: 'agent-bot' } };

const box = (id: string, x = 0, label = id): SceneElement => ({ id, type: 'rectangle', x, y: 0, width: 100, height: 40, version: 1, label });

/** Writes `elements` over the diagram's current content, recording the delta from `before` as the app does. */
async function write(store: Store, diagramId: string, before: SceneElement[], elements: SceneElement[], now: string, revision: Partial<ContentRevision> = {}) {
  const current = await store.diagrams.find(diagramId);
  const result = await store.diagrams.writeContent({
    id: diagramId,
    elementsJson: JSON.stringify(elements),
    elementCount: elements.length,
    elementIds: new Set(elements.map((e) => e.id)),
    expectedDocUpdatedAt: current!.docUpdatedAt,
    now: new Date(now),
    revision: { kind: 'patch', userId: null, via: null, summary: 'a write', delta: sceneDelta(before, elements), baseline: BASELINE_REVISION, ...revision },
  });
  assert.equal(result.status, 'written');
  return result as Extract<typeof result, { status: 'written' }>;
}

/** History: one revision per change, attributed, each scene read back exactly, and pruning by the retention policy. */
export function historyContract({ withStore }: ContractContext): void {
  describe('history', () => {
    test('a create and each content write record one revision with its author and via, listed newest first', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const first = [box('a')];
        const diagram = await createDiagram(store, diagramRecord(user.id, { elementsJson: JSON.stringify(first), elementCount: 1, docUpdatedAt: at(1) }));
        const second = [box('a', 50), box('b')];
        const written = await write(store, diagram.id, first, second, at(10), { userId: user.id, via: BOT, summary: 'moved a, added b' });
        assert.equal(written.revision, 2);

        const items = await store.history.list(diagram.id, { beforeSeq: null, limit: 10 });
        assert.deepEqual(
          items.map((r) => [r.seq, r.kind, r.hasScene, r.elementCount]),
          [
            [2, 'patch', true, 2],
            [1, 'create', true, 1],
          ],
        );
        assert.deepEqual(items[0]!.author, { id: user.id, email: user.email });
        assert.deepEqual(items[0]!.via, BOT);
        assert.equal(items[0]!.summary, 'moved a, added b');
        assert.equal(items[0]!.docUpdatedAt, written.docUpdatedAt);
        assert.equal(await store.history.scene(diagram.id, 1), JSON.stringify(first));
        assert.equal(await store.history.scene(diagram.id, 2), JSON.stringify(second));
        assert.deepEqual((await store.history.list(diagram.id, { beforeSeq: 2, limit: 10 })).map((r) => r.seq), [1]);
        assert.equal((await store.history.previous(diagram.id, 2))?.seq, 1);
        assert.equal(await store.history.previous(diagram.id, 1), null);
        assert.equal(await store.history.scene(diagram.id, 3), null);
        assert.equal(await store.history.find(randomUUID(), 1), null);
      }));

    test('a stale content write records no revision', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const diagram = await createDiagram(store, diagramRecord(user.id, { docUpdatedAt: at(5), elementsJson: '[]', elementCount: 0 }));
        const stale = await store.diagrams.writeContent({
          id: diagram.id,
          elementsJson: '[]',
          elementCount: 0,
          elementIds: new Set(),
          expectedDocUpdatedAt: at(4),
          now: new Date(at(10)),
          revision: { kind: 'patch', userId: null, via: null, summary: 'stale', delta: null, baseline: BASELINE_REVISION },
        });
        assert.equal(stale.status, 'stale');
        assert.deepEqual((await store.history.list(diagram.id, { beforeSeq: null, limit: 10 })).map((r) => r.kind), ['create']);
      }));

    test('every revision of a long history reads back exactly the scene written then, across snapshots and deltas', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.record({ move: fc.nat(9), drop: fc.nat(12), add: fc.boolean(), reverse: fc.boolean(), whole: fc.boolean() }),
              { minLength: 45, maxLength: 60 },
            ),
            async (steps) => {
              let scene = Array.from({ length: 10 }, (_, i) => box(`e${i}`, i * 10));
              const diagram = await createDiagram(store, diagramRecord(user.id, { elementsJson: JSON.stringify(scene), elementCount: scene.length, docUpdatedAt: at(1) }));
              const written = [JSON.stringify(scene)];
              for (const [i, step] of steps.entries()) {
                const before = scene;
                let next = scene.map((e, j) => (j === step.move ? { ...e, x: Number(e.x) + 7, version: Number(e.version) + 1 } : e));
                if (step.drop < next.length && next.length > 2) next = next.filter((_, j) => j !== step.drop);
                if (step.add) next = [...next, box(`n${i}`, i, `new ${i}`)];
                if (step.reverse) next = [...next].reverse();
                if (step.whole) next = next.map((e) => ({ ...e, label: `${e.label}!` }));
                scene = next;
                await write(store, diagram.id, before, scene, at(10 + i));
                written.push(JSON.stringify(scene));
              }
              for (const [i, json] of written.entries()) assert.equal(await store.history.scene(diagram.id, i + 1), json, `revision ${i + 1}`);
            },
          ),
          { numRuns: 3 },
        );
      }));

    test('renames and moves are events: no scene of their own, the content current then', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const folder = await store.folders.create(folderRecord(user.id, { name: 'Archive' }));
        const first = [box('a')];
        const diagram = await createDiagram(store, diagramRecord(user.id, { title: 'Before', elementsJson: JSON.stringify(first), elementCount: 1 }));
        const recording = changeRecording({ userId: user.id, via: BOT });
        await store.diagrams.updateMeta(diagram.id, { title: 'After', updatedAt: at(10) }, recording);
        await store.diagrams.updateMeta(diagram.id, { folderId: folder.id, updatedAt: at(20) }, recording);
        await store.diagrams.updateMeta(diagram.id, { title: 'After', updatedAt: at(30) }, recording);
        const items = await store.history.list(diagram.id, { beforeSeq: null, limit: 10 });
        assert.deepEqual(
          items.map((r) => [r.kind, r.hasScene, r.summary]),
          [
            ['move', false, 'moved into "Archive"'],
            ['rename', false, 'renamed "Before" to "After"'],
            ['create', true, items[2]!.summary],
          ],
          'a rename to the same title is no event',
        );
        assert.deepEqual(items[1]!.detail, { title: { from: 'Before', to: 'After' } });
        assert.equal(await store.history.scene(diagram.id, 3), JSON.stringify(first));
      }));

    test('moves between workspaces are move events naming the workspaces; no move, no event; without attribution, none', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const team = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Platform', ownerId: user.id, createdAt: at(1) });
        const other = await store.sharing.createWorkspace({ id: randomUUID(), name: 'Data', ownerId: user.id, createdAt: at(1) });
        const diagram = await createDiagram(store, diagramRecord(user.id, { elementsJson: JSON.stringify([box('a')]), elementCount: 1 }));
        const by = (seconds: number) => ({ recording: changeRecording({ userId: user.id, via: BOT }), at: at(seconds) });
        await store.sharing.setDiagramWorkspace(diagram.id, team.id, by(10));
        await store.sharing.setDiagramWorkspace(diagram.id, team.id, by(15));
        await store.sharing.setDiagramWorkspace(diagram.id, other.id, by(20));
        await store.sharing.setDiagramWorkspace(diagram.id, null, by(30));
        await store.sharing.setDiagramWorkspace(diagram.id, team.id);
        assert.equal((await store.diagrams.find(diagram.id))?.workspaceId, team.id);
        const items = await store.history.list(diagram.id, { beforeSeq: null, limit: 10 });
        assert.deepEqual(
          items.map((r) => [r.kind, r.hasScene, r.summary]),
          [
            ['move', false, 'moved out of workspace "Data"'],
            ['move', false, 'moved from workspace "Platform" to "Data"'],
            ['move', false, 'moved into workspace "Platform"'],
            ['create', true, items[3]!.summary],
          ],
        );
        assert.deepEqual(items[2]!.detail, { workspace: { from: null, to: team.id } });
      }));

    test('a restoring write opens again the comments resolved because their element was removed, when it is back', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const first = [box('a'), box('b')];
        const diagram = await createDiagram(store, diagramRecord(user.id, { elementsJson: JSON.stringify(first), elementCount: 2 }));
        const comment = { id: randomUUID(), diagramId: diagram.id, elementId: 'b', body: 'check b', authorId: user.id, createdAt: at(2), resolved: false, resolvedReason: null };
        await store.comments.add(comment);
        const removed = await write(store, diagram.id, first, [box('a')], at(10));
        assert.equal(removed.orphanedComments, 1);
        const back = await store.diagrams.writeContent({
          id: diagram.id,
          elementsJson: JSON.stringify(first),
          elementCount: 2,
          elementIds: new Set(['a', 'b']),
          expectedDocUpdatedAt: removed.docUpdatedAt,
          now: new Date(at(20)),
          revision: { kind: 'restore', userId: user.id, via: BOT, summary: 'restored r1', delta: sceneDelta([box('a')], first), detail: { restoredFrom: 1 }, baseline: BASELINE_REVISION },
          reopenComments: true,
        });
        assert.equal(back.status === 'written' && back.reopenedComments, 1);
        const [reopened] = await store.comments.list(diagram.id);
        assert.equal(reopened?.resolved, false);
        assert.equal(reopened?.resolvedReason, null);
        assert.deepEqual((await store.history.find(diagram.id, 3))?.detail, { restoredFrom: 1 });
      }));

    test("a web editor's saves in one burst of work are one revision, which says what the whole burst changed and reads back the last save", () =>
      withStore(async (store) => {
        const user = await createUser(store);
        const other = await createUser(store);
        const web: Via = { kind: 'web', name: 'web editor' };
        let scene = [box('a'), box('b')];
        const diagram = await createDiagram(store, diagramRecord(user.id, { elementsJson: JSON.stringify(scene), elementCount: 2, docUpdatedAt: '2026-05-01T10:00:00.000Z' }));
        const save = async (next: SceneElement[], at: string, by = user.id, kind: 'save' | 'patch' = 'save') => {
          // As the service records a web save: its contributors, and the rule by which it joins the saves of a moment ago.
          const joins = kind === 'save' ? { detail: { contributors: contributorsOf(by) }, join: joinSaveBurst({ userId: by, via: web, contributorIds: [], elementsJson: JSON.stringify(next) }) } : {};
          const result = await write(store, diagram.id, scene, next, at, { kind, userId: by, via: kind === 'save' ? web : BOT, summary: 'one save', ...joins });
          scene = next;
          return result.revision!;
        };
        const minute = (m: number, s = 0) => new Date(Date.parse('2026-05-01T10:00:00.000Z') + m * 60_000 + s * 1000).toISOString();
        assert.equal(await save([box('a', 10), box('b')], minute(1)), 2);
        assert.equal(await save([box('a', 20), box('b')], minute(1, 30)), 2, 'half a minute later: the same revision');
        assert.equal(await save([box('a', 20)], minute(2)), 2);
        const joined = await store.history.find(diagram.id, 2);
        assert.equal(joined?.summary, 'moved a rectangle, deleted a rectangle');
        assert.deepEqual(joined?.detail, { contributors: [user.id], saves: { count: 3, since: minute(1) } });
        assert.deepEqual(joined?.contributors, [{ id: user.id, email: user.email }]);
        assert.equal(await store.history.scene(diagram.id, 2), JSON.stringify(scene));
        assert.equal(await store.history.scene(diagram.id, 1), JSON.stringify([box('a'), box('b')]), 'the revision before is untouched');

        assert.equal(await save([box('a', 30)], minute(5)), 3, 'after a pause of more than two minutes: a new revision');
        assert.equal(await save([box('a', 40)], minute(5, 10), other.id), 3, "another person's save in the same burst joins it (people editing live together)");
        assert.deepEqual((await store.history.find(diagram.id, 3))?.contributors, [{ id: user.id, email: user.email }, { id: other.id, email: other.email }], 'the revision lists both, its author first');
        assert.equal((await store.history.find(diagram.id, 3))?.author?.id, user.id);
        assert.equal(await save([box('a', 50)], minute(5, 20), user.id, 'patch'), 4, 'a patch: a new revision');
        assert.equal(await save([box('a', 60)], minute(5, 30)), 5, 'a save after a patch: a new revision');
        let last = 5;
        for (let m = 6; m <= 17; m++) last = await save([box('a', 60 + m)], minute(m));
        assert.equal(last, 6, 'saves every minute for twelve minutes: the ten-minute burst ends and a new one begins');
        for (let seq = 1; seq <= 6; seq++) assert.ok((await store.history.scene(diagram.id, seq)) !== null);
        assert.equal(await store.history.scene(diagram.id, 6), JSON.stringify(scene));
      }));

    test('pruning keeps every recent revision, the last of each older day and the newest few, and the kept scenes still read back exactly', () =>
      withStore(async (store) => {
        const user = await createUser(store);
        let scene = [box('a'), box('b')];
        const diagram = await createDiagram(store, diagramRecord(user.id, { elementsJson: JSON.stringify(scene), elementCount: 2, docUpdatedAt: '2026-01-01T09:00:00.000Z', createdAt: '2026-01-01T09:00:00.000Z' }));
        const written = new Map<number, string>([[1, JSON.stringify(scene)]]);
        // Three writes a day on 1–4 January, then three on 1 March.
        const days = ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-03-01'];
        let seq = 1;
        for (const day of days) {
          for (const hour of ['10', '12', '14']) {
            const before = scene;
            scene = [...scene.map((e) => ({ ...e, x: Number(e.x) + 1 })), box(`${day}-${hour}`)];
            const result = await write(store, diagram.id, before, scene, `${day}T${hour}:00:00.000Z`);
            seq = result.revision!;
            written.set(seq, JSON.stringify(scene));
          }
        }
        const now = new Date('2026-03-02T00:00:00.000Z');
        const candidates = (afterId: string | null) => store.history.diagramsWithOldRevisions({ before: '2026-01-31T00:00:00.000Z', keepLatest: 2, afterId, limit: 10 });
        assert.deepEqual(await candidates(null), [diagram.id]);
        assert.deepEqual(await candidates(diagram.id), []);
        const dropped = await store.history.prune(diagram.id, retention({ keepAllDays: 30, keepDailyDays: Infinity, keepLatest: 2 }, now));
        const kept = (await store.history.list(diagram.id, { beforeSeq: null, limit: 100 })).map((r) => r.seq).reverse();
        // 1 Jan: create (09:00) + 10:00, 12:00, 14:00 → 14:00 (seq 4) kept; each later January day's 14:00; every March revision.
        assert.deepEqual(kept, [4, 7, 10, 13, 14, 15, 16]);
        assert.equal(dropped, 16 - kept.length);
        for (const s of kept) assert.equal(await store.history.scene(diagram.id, s), written.get(s), `revision ${s}`);
        // The newest is kept even when the policy keeps nothing else.
        await store.history.prune(diagram.id, retention({ keepAllDays: 0, keepDailyDays: 0, keepLatest: 0 }, new Date('2027-01-01T00:00:00.000Z')));
        assert.deepEqual((await store.history.list(diagram.id, { beforeSeq: null, limit: 100 })).map((r) => r.seq), [seq]);
        assert.equal(await store.history.scene(diagram.id, seq), JSON.stringify(scene));
        // A write after pruning still chains onto the kept revision.
        const next = [...scene, box('late')];
        const after = await write(store, diagram.id, scene, next, '2027-01-01T01:00:00.000Z');
        assert.equal(await store.history.scene(diagram.id, after.revision!), JSON.stringify(next));
      }));
  });
}

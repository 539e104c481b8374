import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../src/errors.ts';
import type { ServiceDeps } from '../../src/app/deps.ts';
import { sceneWork } from '../../src/app/diagrams/content.ts';
import { WorkerFailure } from '../../src/workers/pool.ts';
import type { SceneOutput } from '../../src/workers/scene-worker.ts';

/** sceneWork over scene workers that answer (or fail) as given; records the caller's share key. */
function workers(answer: () => Promise<SceneOutput>) {
  const callers: Array<string | undefined> = [];
  const deps = { scenes: { run: (_job: unknown, caller?: string) => (callers.push(caller), answer()) } } as unknown as ServiceDeps;
  return { deps, callers };
}
const caller = { user: { id: 'u1' } } as Parameters<typeof sceneWork>[2];
const job = { task: 'lint', elementsJson: '[]' } as const;
const rejectsWith = (promise: Promise<unknown>, code: string, check: (error: ApiError) => void = () => {}) =>
  assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, code);
    check(error);
    return true;
  });

test('a refusal in the worker is thrown as the ApiError it was', async () => {
  const { deps } = workers(async () => ({ refused: { code: 'INVALID_SPEC', message: 'ops[3]: no element has id "x"' } }));
  await rejectsWith(sceneWork(deps, job, caller), 'INVALID_SPEC', (error) => assert.equal(error.message, 'ops[3]: no element has id "x"'));
});

test('a job that runs out of time or heap is the client\'s scene being too large: 413 SCENE_TOO_LARGE', async () => {
  for (const reason of ['timeout', 'crashed'] as const) {
    const { deps } = workers(async () => {
      throw new WorkerFailure('worker failed', reason);
    });
    await rejectsWith(sceneWork(deps, job, caller), 'SCENE_TOO_LARGE', (error) => assert.match(error.message, /30 s, 256 MB/));
  }
});

test('no free worker, a closed pool or a worker that cannot start is 503 service_busy with Retry-After', async () => {
  for (const reason of ['busy', 'closed', 'start'] as const) {
    const { deps } = workers(async () => {
      throw new WorkerFailure('no worker', reason);
    });
    await rejectsWith(sceneWork(deps, job, caller), 'service_busy', (error) => assert.ok(Number(error.headers['retry-after']) > 0));
  }
});

test('each job is counted against its caller\'s share', async () => {
  const { deps, callers } = workers(async () => ({ issues: [], counts: {}, complete: true }));
  assert.deepEqual(await sceneWork(deps, job, caller), { issues: [], counts: {}, complete: true });
  assert.deepEqual(callers, ['user:u1']);
});

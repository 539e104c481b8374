import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FairShare } from '../../src/workers/fair-share.ts';

/** A task that runs until the test finishes it, recording when it started. */
function controlledTask(started: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => ((finish = resolve), (fail = reject)));
  const task = () => {
    started.push(name);
    return done;
  };
  return { task, finish: () => finish(name), fail: () => fail(new Error(`${name} failed`)) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test("a caller's task past their share waits for one of theirs to finish, while another caller's task starts at once", async () => {
  const share = new FairShare(2);
  const started: string[] = [];
  const [a1, a2, a3, b1] = ['a1', 'a2', 'a3', 'b1'].map((name) => controlledTask(started, name));
  const runs = [share.run('a', a1!.task), share.run('a', a2!.task), share.run('a', a3!.task), share.run('b', b1!.task)];
  await settle();
  assert.deepEqual(started, ['a1', 'a2', 'b1']);
  a2!.finish();
  await settle();
  assert.deepEqual(started, ['a1', 'a2', 'b1', 'a3']);
  a1!.finish();
  a3!.finish();
  b1!.finish();
  assert.deepEqual(await Promise.all(runs), ['a1', 'a2', 'a3', 'b1']);
});

test("a caller's waiting tasks start in the order they came", async () => {
  const share = new FairShare(1);
  const started: string[] = [];
  const tasks = ['first', 'second', 'third', 'fourth'].map((name) => controlledTask(started, name));
  const runs = tasks.map(({ task }) => share.run('a', task));
  for (const { finish } of tasks) {
    await settle();
    finish();
  }
  await Promise.all(runs);
  assert.deepEqual(started, ['first', 'second', 'third', 'fourth']);
});

test("a failed task gives its place to the caller's next one, and its failure reaches its own caller only", async () => {
  const share = new FairShare(1);
  const started: string[] = [];
  const [failing, next] = ['failing', 'next'].map((name) => controlledTask(started, name));
  const first = share.run('a', failing!.task);
  const second = share.run('a', next!.task);
  await settle();
  failing!.fail();
  await assert.rejects(first, /failing failed/);
  await settle();
  assert.deepEqual(started, ['failing', 'next']);
  next!.finish();
  assert.equal(await second, 'next');
});

test('tasks without a caller are never held back', async () => {
  const share = new FairShare(1);
  const started: string[] = [];
  const tasks = ['x', 'y', 'z'].map((name) => controlledTask(started, name));
  const runs = tasks.map(({ task }) => share.run(undefined, task));
  await settle();
  assert.deepEqual(started, ['x', 'y', 'z']);
  for (const { finish } of tasks) finish();
  await Promise.all(runs);
});

test('once all of a caller\'s tasks are done, their share is whole again', async () => {
  const share = new FairShare(2);
  for (let round = 0; round < 3; round++) {
    const started: string[] = [];
    const tasks = ['one', 'two'].map((name) => controlledTask(started, `${name}-${round}`));
    const runs = tasks.map(({ task }) => share.run('a', task));
    await settle();
    assert.equal(started.length, 2, `round ${round}: both tasks start at once`);
    for (const { finish } of tasks) finish();
    await Promise.all(runs);
  }
});

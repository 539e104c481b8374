// The live socket's budgets (src/domain/live/budget.ts) and the relays' batching
// (src/app/live/relay-outbox.ts), with the clock passed in and the bus a list.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LiveBudget, type LiveBudgetLimits, SharedBudgets, TokenBucket } from '../../src/domain/live/budget.ts';
import { RelayOutbox } from '../../src/app/live/relay-outbox.ts';
import type { LiveNotice } from '../../src/store/store.ts';
import type { Peer } from '../../src/app/live/protocol.ts';

const LIMITS: LiveBudgetLimits = { messagesPerSecond: 10, messageBurst: 5, bytesPerSecond: 1000, byteBurst: 4000, refusalsPerSecond: 2, refusalBurst: 3 };

describe('live budgets', () => {
  test('a bucket pays whole costs from its tokens, refills at its rate and holds no more than its capacity', () => {
    const bucket = new TokenBucket(10, 5, 0);
    assert.equal(bucket.take(10, 0), true);
    assert.equal(bucket.take(1, 0), false);
    assert.equal(bucket.take(5, 1000), true, 'a second later, 5 more');
    assert.equal(bucket.level(60_000), 10, 'never more than the capacity');
  });

  test('past its burst a connection is refused; past the refusals it may take, it is told to go; a pause brings it back', () => {
    const budget = new LiveBudget(LIMITS, 0);
    const verdicts = Array.from({ length: 9 }, () => budget.admit(10, 0));
    assert.deepEqual(verdicts, ['accept', 'accept', 'accept', 'accept', 'accept', 'refuse', 'refuse', 'refuse', 'close']);
    assert.equal(budget.admit(10, 1000), 'accept', 'a second later');
  });

  test('bytes count as much as messages: a large message waits for the byte budget', () => {
    const budget = new LiveBudget(LIMITS, 0);
    assert.equal(budget.admit(4000, 0), 'accept');
    assert.equal(budget.admit(1, 0), 'refuse');
    assert.equal(budget.admit(1000, 1000), 'accept');
  });

  test("one person's connections share a budget, a reconnect does not refill it, and someone gone long enough is forgotten", () => {
    const budgets = new SharedBudgets(LIMITS);
    const first = budgets.take('ada', 0);
    for (let i = 0; i < 5; i++) assert.equal(first.admit(1, 0), 'accept');
    budgets.release('ada', 0);
    const again = budgets.take('ada', 0);
    assert.equal(again, first, 'the same budget');
    assert.equal(again.admit(1, 0), 'refuse');
    assert.equal(budgets.take('bob', 0).admit(1, 0), 'accept', 'another person has their own');
    budgets.release('ada', 0);
    budgets.release('bob', 0);
    budgets.take('cy', 4000);
    assert.equal(budgets.size, 1, 'ada and bob, their budgets full again by now, are forgotten');
  });
});

describe('relays to the other instances', () => {
  const peer = (peerId: string, x: number) => ({ peerId, pointer: { x, y: 0, tool: 'pointer' } }) as unknown as Peer;

  test('one batch at a time; what comes meanwhile is folded: the latest presence of a peer, the latest copy of each element', async () => {
    const sent: LiveNotice[][] = [];
    let release: () => void = () => undefined;
    const outbox = new RelayOutbox('here', (notices) => {
      sent.push(notices);
      return new Promise((resolve) => (release = resolve));
    }, (error) => assert.fail(String(error)));
    outbox.add('d', { kind: 'presence', peer: peer('p', 0) });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sent.length, 1, 'the first batch is on its way');
    for (let x = 1; x <= 100; x++) {
      outbox.add('d', { kind: 'presence', peer: peer('p', x) });
      outbox.add('d', { kind: 'elements', from: 'p', elements: [{ id: 'a', version: x }, { id: `b${x % 2}`, version: x }] as never });
    }
    assert.deepEqual(outbox.stats(), { waiting: 2, sending: true }, 'a hundred of each wait as one of each');
    release();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sent.length, 2);
    const [presence, elements] = sent[1]!.map((notice) => (notice as Extract<LiveNotice, { type: 'relay' }>).event) as Array<Record<string, any>>;
    assert.equal(presence!.peer.pointer.x, 100);
    assert.deepEqual(elements!.elements, [{ id: 'a', version: 100 }, { id: 'b1', version: 99 }, { id: 'b0', version: 100 }]);
    release();
    await outbox.drain();
    assert.deepEqual(outbox.stats(), { waiting: 0, sending: false });
  });
});

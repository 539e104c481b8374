/**
 * scripts/compare-builds.ts, which runs two builds side by side and lists the answers that differ: its
 * preload gives every process the same random numbers and clock (so that a build compared with itself agrees
 * on every id, token and timestamp), and its comparison reports each difference but masks what no two builds
 * share (the `date` header, the OAuth signing key, cookie signatures, the asset build id).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { compareExchanges } from '../scripts/compare-builds/compare.ts';

const PRELOAD = './scripts/compare-builds/determinism.mjs';

/** What a process sees with the preload: random values, the time, and both again after the scenario's steps. */
function draws(env: Record<string, string> = {}) {
  const script = `
    const crypto = await import('node:crypto');
    const clock = globalThis[Symbol.for('drawbridge.compare-builds.clock')];
    const sample = () => [crypto.randomUUID(), crypto.randomBytes(6).toString('hex'), Math.random(), globalThis.crypto.getRandomValues(new Uint8Array(2)).join(), new Date().toISOString(), Date.now()];
    const first = sample();
    clock.now += 1000;
    clock.reseed(7);
    console.log(JSON.stringify({ first, stepped: sample(), again: sample() }));`;
  const result = spawnSync(process.execPath, ['--import', PRELOAD, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as Record<'first' | 'stepped' | 'again', [string, string, number, string, string, number]>;
}

test('the preload gives two processes the same random numbers and clock, and a reseed starts them over', () => {
  const one = draws();
  const two = draws();
  assert.deepEqual(one, two);
  assert.match(one.first[0], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(one.first[4], '2026-01-01T00:00:00.000Z');
  assert.equal(one.stepped[4], '2026-01-01T00:00:01.000Z');
  assert.equal(one.stepped[5], Date.parse('2026-01-01T00:00:01.000Z'));
  // Each draw moves on, and another seed or start gives other values.
  assert.notDeepEqual(one.stepped.slice(0, 4), one.again.slice(0, 4));
  assert.notDeepEqual(one.first.slice(0, 4), one.stepped.slice(0, 4));
  const otherSeed = draws({ COMPARE_SEED: '2', COMPARE_START: '2030-05-01T00:00:00.000Z' });
  assert.notDeepEqual(otherSeed.first.slice(0, 4), one.first.slice(0, 4));
  assert.equal(otherSeed.first[4], '2030-05-01T00:00:00.000Z');
  // After the same reseed, the same values whatever came before.
  assert.deepEqual(otherSeed.stepped.slice(0, 4), one.stepped.slice(0, 4));
});

const exchange = (step: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    step,
    request: { method: 'GET', url: `/api/v1/${step}`, as: 'owner' },
    status: 200,
    headers: { 'content-type': 'application/json', date: 'Thu, 01 Jan 2026 00:00:00 GMT' },
    body: { json: { id: 'a', items: [1, 2] } },
    ...fields,
  });

test('the comparison reports each difference by status, header and JSON path, and masks what no two builds share', () => {
  const old = [
    exchange('same'),
    exchange('status'),
    exchange('body'),
    exchange('date', { headers: { date: 'Thu, 01 Jan 2026 00:00:00 GMT' } }),
    exchange('jwks', { request: { method: 'GET', url: '/oauth/jwks', as: 'anonymous' }, body: { json: { keys: [{ kty: 'RSA', n: 'abc', e: 'AQAB', kid: 'k1' }] } } }),
    exchange('page', { headers: { 'set-cookie': ['_interaction.sig=old; path=/'] }, body: { text: '<link href="/assets/0123456789abcdef/app.css">\n<p>one</p>' } }),
    exchange('text', { body: { text: 'line one\nline two' } }),
    exchange('gone'),
  ].join('\n');
  const fresh = [
    exchange('same'),
    exchange('status', { status: 405, headers: { 'content-type': 'application/json', allow: 'GET' } }),
    exchange('body', { body: { json: { id: 'a', items: [1, 3] } } }),
    exchange('date', { headers: { date: 'Mon, 30 Nov 2026 12:00:00 GMT' } }),
    exchange('jwks', { request: { method: 'GET', url: '/oauth/jwks', as: 'anonymous' }, body: { json: { keys: [{ kty: 'RSA', n: 'xyz', e: 'AQAB', kid: 'k2' }] } } }),
    exchange('page', { headers: { 'set-cookie': ['_interaction.sig=new; path=/'] }, body: { text: '<link href="/assets/fedcba9876543210/app.css">\n<p>one</p>' } }),
    exchange('text', { body: { text: 'line one\nline 2' } }),
    exchange('added'),
  ].join('\n');
  const { same, lines } = compareExchanges(old, fresh);
  assert.equal(same, 4, lines.join('\n'));
  assert.deepEqual(lines, [
    '- status (GET /api/v1/status):\n    status: 200 → 405\n    headers.allow: (absent) → "GET"',
    '- body (GET /api/v1/body):\n    body.json.items[1]: 2 → 3',
    '- text (GET /api/v1/text):\n    body line 2 of 2 → 2: "line two" → "line 2"',
    '- gone: only in old',
    '- added: only in new',
  ]);
});

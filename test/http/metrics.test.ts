import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { buildServer } from '../../src/server.ts';
import { openStore } from '../../src/store/open.ts';
import { type Engine, type Harness, startHarness } from '../helpers/harness.ts';
import { freePort } from '../helpers/ports.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

const TOKEN = 'metrics-test-token-0123456789';

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum += Number(match[3]);
  }
  return sum;
}

/** Whether the exposition declares the family with this type. */
const declares = (text: string, name: string, type: string) => text.includes(`# TYPE ${name} ${type}\n`);

const SPEC = { nodes: [{ id: 'a', label: 'Metrics' }, { id: 'b', label: 'Scrape' }], edges: ['a -> b'] };

test('without METRICS_TOKEN, /metrics on the main port answers exactly as an unknown path does', async () => {
  const h = await startHarness();
  try {
    const metrics = await h.call('GET', '/metrics');
    const unknown = await h.call('GET', '/no-such-path');
    assert.equal(metrics.statusCode, 404);
    assert.deepEqual(metrics.json(), unknown.json());
    assert.equal(metrics.headers['content-type'], unknown.headers['content-type']);
    assert.equal((await h.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 404, 'a token changes nothing');
  } finally {
    await h.close();
  }
});

for (const engine of ['sqlite', 'postgres'] as Engine[]) {
  describe(`${engine}: /metrics with METRICS_TOKEN`, { skip: engine === 'postgres' && skipWithoutPostgres }, () => {
    let h: Harness;
    const scrape = async () => {
      const response = await h.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(response.statusCode, 200, response.body);
      return response.body;
    };

    before(async () => {
      // Without the faithful renderer (no editor to load), a faithful render falls back to the fast one.
      h = await startHarness({ engine, env: { METRICS_TOKEN: TOKEN, RENDER_FAITHFUL: 'off', RATE_LIMIT_WRITE_PER_MIN: '5', RATE_LIMIT_PAGES_PER_MIN: '3' } });
    });
    after(() => h.close());

    test('without the token, or with another, the answer is 401 unauthorized in the error envelope', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`]) {
        const response = await h.call('GET', '/metrics', { headers: authorization ? { authorization } : {} });
        assert.equal(response.statusCode, 401, `${authorization}`);
        assert.equal(response.json().error, 'unauthorized');
        assert.match(response.json().message, /METRICS_TOKEN/);
        assert.match(response.headers['www-authenticate'] as string, /^Bearer /);
      }
      const user = await h.user();
      assert.equal((await h.call('GET', '/metrics', { token: user.token })).statusCode, 401, 'an API token is not the metrics token');
    });

    test('with the token, every family is exposed in the Prometheus text format', async () => {
      const response = await h.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(response.statusCode, 200);
      assert.match(response.headers['content-type'] as string, /^text\/plain; version=0\.0\.4/);
      const text = response.body;
      const families: Array<[string, string]> = [
        ['drawbridge_http_requests_total', 'counter'],
        ['drawbridge_http_request_duration_seconds', 'histogram'],
        ['drawbridge_rate_limit_rejections_total', 'counter'],
        ['drawbridge_render_jobs_total', 'counter'],
        ['drawbridge_render_queue_duration_seconds', 'histogram'],
        ['drawbridge_render_run_duration_seconds', 'histogram'],
        ['drawbridge_render_cache_lookups_total', 'counter'],
        ['drawbridge_render_cache_bytes', 'gauge'],
        ['drawbridge_worker_pool_workers', 'gauge'],
        ['drawbridge_worker_pool_max_workers', 'gauge'],
        ['drawbridge_worker_pool_queued_jobs', 'gauge'],
        ['drawbridge_worker_pool_restarts_total', 'counter'],
        ['drawbridge_db_queries_total', 'counter'],
        ['drawbridge_db_errors_total', 'counter'],
        ['nodejs_eventloop_lag_seconds', 'gauge'],
        ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
        ['nodejs_heap_size_used_bytes', 'gauge'],
        ['process_resident_memory_bytes', 'gauge'],
      ];
      for (const [name, type] of families) assert.ok(declares(text, name, type), `${name} is a ${type}`);
      const pgPool: Array<[string, string]> = [
        ['drawbridge_db_pool_connections', 'gauge'],
        ['drawbridge_db_pool_max_connections', 'gauge'],
        ['drawbridge_db_pool_waiting_requests', 'gauge'],
      ];
      for (const [name, type] of pgPool) assert.equal(declares(text, name, type), engine === 'postgres', `${name} only on PostgreSQL`);
      if (engine === 'postgres') assert.equal(sample(text, 'drawbridge_db_pool_max_connections'), 10);
      assert.ok(sample(text, 'process_resident_memory_bytes') > 0);
      for (const pool of ['scene', 'fast']) assert.ok(sample(text, 'drawbridge_worker_pool_max_workers', { pool }) >= 1, pool);
      assert.equal(sample(text, 'drawbridge_worker_pool_max_workers', { pool: 'faithful' }), 0, 'no faithful pool when RENDER_FAITHFUL is off');
      for (const kind of ['busy', 'connection', 'constraint', 'other']) assert.match(text, new RegExp(`drawbridge_db_errors_total\\{engine="${engine}",kind="${kind}"\\} \\d+`));
      for (const limit of ['read', 'write', 'web-page', 'oauth-register', 'public-page']) {
        assert.match(text, new RegExp(`drawbridge_rate_limit_rejections_total\\{limit="${limit}"\\} \\d+`), limit);
      }
      assert.ok(!h.logs().includes(TOKEN), 'the token is never logged');
    });

    test('the sample Grafana dashboard queries only series the server exposes, through its one Prometheus input', async () => {
      const dashboard = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../docs/grafana-dashboard.json'), 'utf8'));
      assert.deepEqual(dashboard.__inputs.map((input: { name: string; pluginId: string }) => [input.name, input.pluginId]), [['DS_PROMETHEUS', 'prometheus']]);
      const panels = dashboard.panels.filter((panel: { type: string }) => panel.type !== 'row');
      const text = await scrape();
      const queried = new Set<string>();
      for (const panel of panels) {
        assert.equal(panel.datasource.uid, '${DS_PROMETHEUS}', panel.title);
        for (const target of panel.targets) {
          for (const [name] of target.expr.matchAll(/\b(?:drawbridge|nodejs|process)_\w+/g)) queried.add(name.replace(/_(bucket|count|sum)$/, ''));
        }
      }
      for (const name of queried) {
        if (engine === 'sqlite' && name.startsWith('drawbridge_db_pool_')) continue;
        assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `the dashboard queries ${name}`);
      }
      const exposed = [...text.matchAll(/^# TYPE (drawbridge_\w+) /gm)].map((m) => m[1]!);
      assert.deepEqual(exposed.filter((name) => !queried.has(name)), [], 'every drawbridge series has a panel');
    });

    test('requests are counted under their route pattern, never their URL; unknown paths share one label', async () => {
      const user = await h.user();
      const created = await h.call('POST', '/api/v1/diagrams', { token: user.token, body: { title: 'counted', spec: SPEC } });
      assert.equal(created.statusCode, 201, created.body);
      const id: string = created.json().id;
      const route = { method: 'GET', route: '/api/v1/diagrams/:id', status: '200' };
      const before = await scrape();
      for (let i = 0; i < 3; i++) assert.equal((await h.call('GET', `/api/v1/diagrams/${id}`, { token: user.token })).statusCode, 200);
      await h.call('GET', `/nothing-here-${id}`);
      const after = await scrape();
      assert.equal(sample(after, 'drawbridge_http_requests_total', route) - sample(before, 'drawbridge_http_requests_total', route), 3);
      const timed = { method: 'GET', route: '/api/v1/diagrams/:id' };
      assert.equal(sample(after, 'drawbridge_http_request_duration_seconds_count', timed) - sample(before, 'drawbridge_http_request_duration_seconds_count', timed), 3);
      const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
      assert.equal(sample(after, 'drawbridge_http_requests_total', unmatched) - sample(before, 'drawbridge_http_requests_total', unmatched), 1);
      assert.ok(!after.includes(id), 'no URL (nor id) becomes a label');
      assert.ok(sample(after, 'drawbridge_db_queries_total', { engine }) > sample(before, 'drawbridge_db_queries_total', { engine }), 'the reads ran queries');
    });

    test('a render counts a job and a cache miss; the same render again counts a cached job and a hit; a faithful one falls back', async () => {
      const user = await h.user();
      const created = await h.call('POST', '/api/v1/diagrams', { token: user.token, body: { title: 'rendered', spec: SPEC } });
      assert.equal(created.statusCode, 201, created.body);
      const render = (quality: string) => h.call('GET', `/api/v1/diagrams/${created.json().id}/render?format=svg&quality=${quality}`, { token: user.token });
      const jobs = (text: string, quality: string, outcome: string) => sample(text, 'drawbridge_render_jobs_total', { quality, format: 'svg', outcome });
      const lookups = (text: string, result: string) => sample(text, 'drawbridge_render_cache_lookups_total', { result });
      const fastTimings = (text: string, name: string) => sample(text, name, { quality: 'fast' });

      const start = await scrape();
      assert.equal((await render('fast')).statusCode, 200);
      const first = await scrape();
      assert.equal(jobs(first, 'fast', 'ok') - jobs(start, 'fast', 'ok'), 1);
      assert.equal(lookups(first, 'miss') - lookups(start, 'miss'), 1);
      assert.equal(fastTimings(first, 'drawbridge_render_queue_duration_seconds_count') - fastTimings(start, 'drawbridge_render_queue_duration_seconds_count'), 1);
      assert.equal(fastTimings(first, 'drawbridge_render_run_duration_seconds_count') - fastTimings(start, 'drawbridge_render_run_duration_seconds_count'), 1);
      assert.ok(sample(first, 'drawbridge_render_cache_bytes') > 0, 'the render was cached');
      assert.ok(sample(first, 'drawbridge_worker_pool_workers', { pool: 'fast' }) >= 1, 'the fast pool has a worker');

      assert.equal((await render('fast')).statusCode, 200);
      const second = await scrape();
      assert.equal(jobs(second, 'fast', 'cached') - jobs(first, 'fast', 'cached'), 1);
      assert.equal(jobs(second, 'fast', 'ok'), jobs(first, 'fast', 'ok'));
      assert.equal(lookups(second, 'hit') - lookups(first, 'hit'), 1);
      assert.equal(fastTimings(second, 'drawbridge_render_run_duration_seconds_count'), fastTimings(first, 'drawbridge_render_run_duration_seconds_count'), 'no worker ran');

      const faithful = await render('faithful');
      assert.equal(faithful.headers['x-render-quality'], 'fast');
      const third = await scrape();
      assert.equal(jobs(third, 'faithful', 'fallback') - jobs(second, 'faithful', 'fallback'), 1);
    });

    test('a request refused by a rate limit is counted under that limit: the API\'s writes, the pages\' budget', async () => {
      const user = await h.user();
      const before = await scrape();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await h.call('POST', '/api/v1/folders', { token: user.token, body: { name: `f${i}` } })).statusCode);
      assert.deepEqual(statuses, [201, 201, 201, 201, 201, 429]);
      const after = await scrape();
      const refused = (text: string, limit: string) => sample(text, 'drawbridge_rate_limit_rejections_total', { limit });
      assert.equal(refused(after, 'write') - refused(before, 'write'), 1);
      assert.equal(refused(after, 'read'), refused(before, 'read'));
      const status429 = { method: 'POST', route: '/api/v1/folders', status: '429' };
      assert.equal(sample(after, 'drawbridge_http_requests_total', status429) - sample(before, 'drawbridge_http_requests_total', status429), 1);

      const pages: number[] = [];
      for (let i = 0; i < 4; i++) pages.push((await h.call('GET', '/login')).statusCode);
      assert.deepEqual(pages, [200, 200, 200, 429]);
      const later = await scrape();
      assert.equal(refused(later, 'web-page') - refused(after, 'web-page'), 1, 'the pages\' budget has its own label');
      assert.equal(refused(later, 'write'), refused(after, 'write'));
    });

    test('a write the database refused (a second account with one address) counts as a constraint error', async () => {
      const user = await h.user();
      const before = await scrape();
      const existing = (await h.store.accounts.findByEmail(user.email))!;
      await assert.rejects(h.store.accounts.create({ ...existing, id: randomUUID() }), /already exists/);
      const after = await scrape();
      const constraint = { engine, kind: 'constraint' };
      assert.equal(sample(after, 'drawbridge_db_errors_total', constraint) - sample(before, 'drawbridge_db_errors_total', constraint), 1);
    });

    test('spec layout runs in the scene pool, which the pool series show', async () => {
      const text = await scrape();
      const workers = ['starting', 'idle', 'busy'].reduce((sum, state) => sum + sample(text, 'drawbridge_worker_pool_workers', { pool: 'scene', state }), 0);
      assert.ok(workers >= 1, 'the diagrams made from specs started a scene worker');
      assert.match(text, /drawbridge_worker_pool_queued_jobs\{pool="scene",queue="fair_share"\} 0/);
      assert.match(text, /drawbridge_worker_pool_restarts_total\{pool="scene",reason="timeout"\} 0/);
    });
  });
}

describe('METRICS_ADDR', () => {
  let h: Harness;
  let port: number;
  before(async () => {
    port = await freePort();
    h = await startHarness({ env: { METRICS_ADDR: `127.0.0.1:${port}`, RENDER_FAITHFUL: 'off' } });
  });
  after(() => h.close());

  test('serves the metrics without a token on its own listener, and nothing else there', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    assert.ok(declares(text, 'drawbridge_http_requests_total', 'counter'));
    assert.ok(declares(text, 'drawbridge_db_queries_total', 'counter'));
    const other = await fetch(`http://127.0.0.1:${port}/api/v1/me`);
    assert.equal(other.status, 404);
    assert.equal((await other.json()).error, 'not_found');
  });

  test('the main port has no /metrics unless METRICS_TOKEN is set too, but its requests are counted', async () => {
    assert.equal((await h.call('GET', '/metrics')).statusCode, 404);
    assert.equal((await h.call('GET', '/healthz')).statusCode, 200);
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    assert.ok(sample(text, 'drawbridge_http_requests_total', { method: 'GET', route: '/healthz', status: '200' }) >= 1);
    assert.ok(sample(text, 'drawbridge_http_requests_total', { route: 'unmatched', status: '404' }) >= 1);
  });

  test('with both settings, each place serves: the listener without a token, the main port with it', async () => {
    const both = await startHarness({ env: { METRICS_ADDR: `127.0.0.1:${await freePort()}`, METRICS_TOKEN: TOKEN, RENDER_FAITHFUL: 'off' } });
    try {
      const { host, port: bothPort } = both.config.metricsAddress!;
      assert.equal((await fetch(`http://${host}:${bothPort}/metrics`)).status, 200);
      assert.equal((await both.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200);
      assert.equal((await both.call('GET', '/metrics')).statusCode, 401);
    } finally {
      await both.close();
    }
  });

  test('the listener closes with the server', async () => {
    const own = await freePort();
    const closing = await startHarness({ env: { METRICS_ADDR: `127.0.0.1:${own}`, RENDER_FAITHFUL: 'off' } });
    assert.equal((await fetch(`http://127.0.0.1:${own}/metrics`)).status, 200);
    await closing.close();
    await assert.rejects(fetch(`http://127.0.0.1:${own}/metrics`));
  });
});

describe('metrics settings', () => {
  test('METRICS_TOKEN must be a usable secret', () => {
    for (const token of ['short', 'has a space in it 0123456789', 'tab\there-0123456789abc']) {
      assert.throws(() => loadConfig({ METRICS_TOKEN: token }), /^Error: METRICS_TOKEN must be/);
    }
    assert.equal(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken, TOKEN);
    assert.equal(loadConfig({}).metricsToken, undefined);
  });

  test('METRICS_ADDR must be host:port', () => {
    for (const address of ['9464', 'localhost', '127.0.0.1:', '127.0.0.1:0', '127.0.0.1:65536', 'http://127.0.0.1:9464', '::1:9464', 'a b:9464']) {
      assert.throws(() => loadConfig({ METRICS_ADDR: address }), /^Error: METRICS_ADDR must be host:port/, address);
    }
    assert.deepEqual(loadConfig({ METRICS_ADDR: '10.0.0.5:9464' }).metricsAddress, { host: '10.0.0.5', port: 9464 });
    assert.deepEqual(loadConfig({ METRICS_ADDR: '[::1]:9464' }).metricsAddress, { host: '::1', port: 9464 });
    assert.deepEqual(loadConfig({ METRICS_ADDR: 'metrics.internal:9100' }).metricsAddress, { host: 'metrics.internal', port: 9100 });
    assert.equal(loadConfig({}).metricsAddress, undefined);
  });

  test('a METRICS_ADDR that cannot be bound stops the server from starting, naming the setting', async () => {
    const port = await freePort();
    const first = await startHarness({ env: { METRICS_ADDR: `127.0.0.1:${port}`, RENDER_FAITHFUL: 'off' } });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-metrics-'));
    const config = loadConfig({ DATA_DIR: dataDir, METRICS_ADDR: `127.0.0.1:${port}`, RENDER_FAITHFUL: 'off', LOG_LEVEL: 'silent' });
    const store = await openStore(config);
    const second = await buildServer({ config, store, now: () => new Date() });
    try {
      await assert.rejects(async () => void (await second.ready()), new RegExp(`^Error: METRICS_ADDR 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
    } finally {
      await second.close();
      await store.close();
      await first.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

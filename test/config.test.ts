import os from 'node:os';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { FAST_WORKERS_DEFAULT, loadConfig, SETTINGS, settingValues } from '../src/config.ts';

/** The settings table (src/config.ts): the one list loadConfig, `config show` and the operations guide follow. */
const ROOT = path.resolve(import.meta.dirname, '..');
/** The command-line client's own variables (docs/cli.md), which the server never reads. */
const CLIENT_VARIABLES = ['SERVICE_TOKEN', 'SERVICE_API_URL', 'XDG_CONFIG_HOME', 'HOME', 'BROWSER', 'NO_COLOR'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Every environment variable named in src/ (`process.env.X`, `env.X`, `env['X']`), but the bundler's NODE_ENV. */
function variablesReadInSource(): Set<string> {
  const read = /\b(?:process\.)?env\.([A-Z][A-Z0-9_]*)\b|\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g;
  const names = new Set<string>();
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(read)) names.add(match[1] ?? match[2]!);
  }
  names.delete('NODE_ENV');
  return names;
}

/** The rows of the Configuration table in docs/operations.md: name → its default cell. */
function documentedSettings(): Map<string, string> {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Configuration'), doc.indexOf('\n## ', doc.indexOf('## Configuration') + 1));
  const rows = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \| [^|]+ \| [^|]+ \|$/gm)];
  return new Map(rows.map((row) => [row[1]!, row[2]!]));
}

describe('the settings table', () => {
  test('every setting takes its default when unset or empty, and the defaults are what the guide says', () => {
    const config = loadConfig({});
    assert.deepEqual(loadConfig({ PORT: '', SIGNUP: '', FAST_WORKERS: '' }), config);
    assert.equal(config.port, 8080);
    assert.equal(config.publicUrl, 'http://localhost:8080');
    assert.equal(config.mailFrom, 'Drawbridge <no-reply@localhost>');
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.fastWorkers, 2);
    assert.equal(config.sceneWorkers, os.availableParallelism(), 'one scene worker per core');
    assert.equal(config.workerIdleMs, 300_000);
    assert.equal(config.renderCacheBytes, 256 * 1024 * 1024);
    assert.equal(config.historyRetention.keepDailyDays, Infinity);
    assert.equal(config.defaultQuota, 3, 'free accounts keep 3 diagrams unless DEFAULT_QUOTA says otherwise');
    assert.equal(config.signup, 'open');
    assert.deepEqual(config.signupDomains, []);
  });

  test('a default that follows another setting follows it: PUBLIC_URL the port, MAIL_FROM the public host', () => {
    const config = loadConfig({ PORT: '9000' });
    assert.equal(config.publicUrl, 'http://localhost:9000');
    assert.equal(loadConfig({ PUBLIC_URL: 'https://draw.example.com/' }).mailFrom, 'Drawbridge <no-reply@draw.example.com>');
    const shown = new Map(settingValues({ PORT: '9000' }).map((setting) => [setting.name, setting]));
    assert.deepEqual(shown.get('PUBLIC_URL'), { name: 'PUBLIC_URL', value: 'http://localhost:9000', set: false });
    assert.deepEqual(shown.get('PORT'), { name: 'PORT', value: '9000', set: true });
    assert.deepEqual(shown.get('DATABASE_URL'), { name: 'DATABASE_URL', value: null, set: false });
  });

  test('every environment variable the server reads is in the table; the rest are the command-line client’s, documented in its guide', () => {
    const settings = new Set<string>(SETTINGS.map((setting) => setting.name));
    const cliGuide = fs.readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
    const read = variablesReadInSource();
    assert.ok(read.has('SERVICE_TOKEN'), 'the scan finds the variables the sources read');
    for (const name of read) {
      if (settings.has(name)) continue;
      assert.ok(CLIENT_VARIABLES.includes(name), `${name} is read in src/ but is not in SETTINGS (src/config.ts)`);
      if (name !== 'HOME') assert.match(cliGuide, new RegExp(`\`${name}\``), `${name} is documented in docs/cli.md`);
    }
  });

  test('the operations guide has one row for each setting, with its default, and no other', () => {
    const documented = documentedSettings();
    assert.deepEqual([...documented.keys()], SETTINGS.map((setting) => setting.name), 'the same settings, in the same order');
    for (const setting of SETTINGS) {
      const cell = documented.get(setting.name)!;
      if (setting.default === null) assert.match(cell, /^unset/, setting.name);
      else if (typeof setting.default === 'string') assert.ok(cell.replaceAll('`', '').startsWith(setting.default), `${setting.name}: "${cell}" starts with ${setting.default}`);
    }
  });
});

describe('settings of sign-up and the fast renderer', () => {
  test('SCENE_WORKERS is a positive number of processes', () => {
    assert.equal(loadConfig({ SCENE_WORKERS: '3' }).sceneWorkers, 3);
    for (const wrong of ['0', '-1', '1.5', 'all']) assert.throws(() => loadConfig({ SCENE_WORKERS: wrong }), /SCENE_WORKERS/);
  });

  test('SIGNUP is open, invite or closed', () => {
    for (const mode of ['open', 'invite', 'closed'] as const) assert.equal(loadConfig({ SIGNUP: mode }).signup, mode);
    for (const wrong of ['Open', 'invited', 'none', 'off']) {
      assert.throws(() => loadConfig({ SIGNUP: wrong }), { message: `SIGNUP must be "open", "invite" or "closed", got "${wrong}"` });
    }
  });

  test('SIGNUP_DOMAINS is a list of domains, trimmed and lower-cased, without repeats', () => {
    assert.deepEqual(loadConfig({ SIGNUP_DOMAINS: 'example.com' }).signupDomains, ['example.com']);
    assert.deepEqual(loadConfig({ SIGNUP_DOMAINS: ' Example.COM, mail.example.org ,example.com' }).signupDomains, ['example.com', 'mail.example.org']);
    assert.deepEqual(loadConfig({ SIGNUP_DOMAINS: 'xn--bcher-kva.example,a-b.co' }).signupDomains, ['xn--bcher-kva.example', 'a-b.co']);
    for (const wrong of ['@example.com', 'example', 'example.com,', 'exa mple.com', 'example..com', '-example.com', 'example.com;example.org', 'user@example.com']) {
      assert.throws(() => loadConfig({ SIGNUP_DOMAINS: wrong }), { message: `SIGNUP_DOMAINS must be email domains separated by commas (example.com,example.org), got "${wrong}"` }, wrong);
    }
  });

  test('FAST_WORKERS is a positive integer, 2 unless set', () => {
    assert.equal(FAST_WORKERS_DEFAULT, 2);
    assert.equal(loadConfig({ FAST_WORKERS: '5' }).fastWorkers, 5);
    for (const wrong of ['0', '-1', '1.5', 'two']) {
      assert.throws(() => loadConfig({ FAST_WORKERS: wrong }), { message: `FAST_WORKERS must be a positive integer, got "${wrong}"` });
    }
  });
});

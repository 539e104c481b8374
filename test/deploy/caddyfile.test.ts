/**
 * deploy/Caddyfile, checked by Caddy itself (`caddy validate`, `caddy adapt`):
 * valid for a local try and for a public domain, load-balancing the instances
 * compose.yaml runs on the port the image listens on, with active health checks on
 * /readyz. Skipped where caddy is not installed (Debian's package `caddy`).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import YAML from 'yaml';
import { parseDockerfile, stageEnv } from '../helpers/dockerfile.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const CADDYFILE = path.join(ROOT, 'deploy/Caddyfile');
const caddyMissing = spawnSync('caddy', ['version']).error !== undefined;
const skip = caddyMissing ? 'caddy is not installed (apt-get install caddy): deploy/Caddyfile is not checked' : false;

function caddy(argv: string[], siteAddress: string) {
  return spawnSync('caddy', [...argv, '--config', CADDYFILE, '--adapter', 'caddyfile'], { encoding: 'utf8', env: { ...process.env, SITE_ADDRESS: siteAddress } });
}

type Handler = { handler: string; routes?: { handle: Handler[] }[]; upstreams?: { dial: string }[]; health_checks?: { active?: { uri?: string; expect_status?: number } } };

/** Every handler of the adapted JSON config, subroutes included. */
function handlers(list: Handler[]): Handler[] {
  return list.flatMap((handler) => [handler, ...handlers((handler.routes ?? []).flatMap((route) => route.handle))]);
}

describe('deploy/Caddyfile', { skip }, () => {
  for (const siteAddress of ['http://localhost', 'diagrams.example.com']) {
    test(`is valid with SITE_ADDRESS=${siteAddress}`, () => {
      const result = caddy(['validate'], siteAddress);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout + result.stderr, /Valid configuration/);
    });
  }

  test("proxies to compose.yaml's instances on the image's port, checking /readyz", () => {
    const adapted = JSON.parse(execFileSync('caddy', ['adapt', '--config', CADDYFILE, '--adapter', 'caddyfile'], { encoding: 'utf8', env: { ...process.env, SITE_ADDRESS: 'diagrams.example.com' } }));
    const server = Object.values(adapted.apps.http.servers as Record<string, { listen: string[]; routes: { match?: { host?: string[] }[]; handle: Handler[] }[] }>)[0]!;
    assert.deepEqual(server.listen, [':443'], 'a domain is served over HTTPS');
    assert.deepEqual(server.routes[0]!.match, [{ host: ['diagrams.example.com'] }]);
    const proxy = handlers(server.routes.flatMap((route) => route.handle)).find((handler) => handler.handler === 'reverse_proxy');
    assert.ok(proxy, 'a reverse_proxy');

    const compose = YAML.parse(fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, { build?: unknown }> };
    const port = stageEnv(parseDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).stages.at(-1)!).PORT;
    const instances = Object.entries(compose.services).filter(([, service]) => service.build !== undefined).map(([name]) => `${name}:${port}`);
    assert.deepEqual(proxy.upstreams?.map((upstream) => upstream.dial).sort(), instances.sort());
    assert.equal(proxy.health_checks?.active?.uri, '/readyz');
    assert.equal(proxy.health_checks?.active?.expect_status, 200);
  });
});

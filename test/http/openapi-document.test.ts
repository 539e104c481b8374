import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { errorStatus } from '../../src/errors.ts';
import { errorCodesOf } from '../../src/http/openapi.ts';
import { apiRoutes } from '../../src/http/routes/index.ts';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';

// The served OpenAPI document as its readers use it: linted by Redocly with its
// recommended rules; its error answers and components as a generator reads them.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tool = path.join(root, 'tools/openapi-typescript');

let h: ListeningHarness;
let user: TestUser;
let work: string;
let documentFile: string;

before(async () => {
  h = await startHarness({ listen: true });
  user = await h.user();
  // Inside the tool's folder, so the generated client resolves openapi-fetch from its node_modules.
  work = fs.mkdtempSync(path.join(tool, '.work-'));
  documentFile = path.join(work, 'openapi.json');
  const res = await fetch(`${h.baseUrl}/api/v1/openapi.json`);
  assert.equal(res.status, 200);
  fs.writeFileSync(documentFile, await res.text());
});
after(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await h.close();
});

test('Redocly lints the served document with its recommended rules: no errors', async () => {
  const cli = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');
  const report = path.join(work, 'lint.json');
  const result = await run(process.execPath, [cli, 'lint', documentFile, '--format=json', '--extends=recommended'], { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout: string; stderr: string }) => error,
  );
  fs.writeFileSync(report, result.stdout);
  const parsed = JSON.parse(result.stdout) as { totals: { errors: number }; problems: Array<{ severity: string; message: string; location: Array<{ pointer: string }> }> };
  const errors = parsed.problems.filter((p) => p.severity === 'error').map((p) => `${p.location[0]?.pointer}: ${p.message}`);
  assert.deepEqual(errors, []);
  assert.equal(parsed.totals.errors, 0);
});

test('each error answer names exactly the codes its operation can answer with, and every envelope has a message', async () => {
  const doc = JSON.parse(fs.readFileSync(documentFile, 'utf8'));
  assert.deepEqual(doc.components.schemas.Error.required, ['error', 'message']);
  for (const def of apiRoutes) {
    const op = doc.paths[def.url.replace(/:(\w+)/g, '{$1}')][def.method.toLowerCase()];
    const byStatus = new Map<number, string[]>();
    for (const code of errorCodesOf(def)) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
    for (const [status, codes] of byStatus) {
      const schema = op.responses[status].content['application/json'].schema;
      assert.deepEqual(schema.allOf[0], { $ref: '#/components/schemas/Error' });
      assert.deepEqual([...schema.allOf[1].properties.error.enum].sort(), [...codes].sort(), `${def.operationId} ${status}`);
    }
  }
});

test('request and response shapes are components, referred to by name', async () => {
  const doc = JSON.parse(fs.readFileSync(documentFile, 'utf8'));
  const create = doc.paths['/api/v1/diagrams'].post;
  assert.deepEqual(create.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CreateDiagramBody' });
  assert.deepEqual(create.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/CreatedDiagram' });
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const ref of refs) {
    const name = /#\/components\/schemas\/([^"]+)"/.exec(ref)?.[1];
    assert.ok(name && doc.components.schemas[name], `${ref} resolves`);
  }
  assert.ok(!JSON.stringify(doc).includes('"nullable"'), 'no OpenAPI 3.0 nullable in a 3.1 document');
});

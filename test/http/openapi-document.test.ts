import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { errorStatus } from '../../src/errors.ts';
import { errorCodesOf } from '../../src/http/openapi.ts';
import { apiRoutes } from '../../src/http/routes/index.ts';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { TYPESCRIPT_ARGS } from '../helpers/typescript.ts';

// The served OpenAPI document as its readers use it: linted by Redocly with its
// recommended rules, and turned by openapi-typescript into the types of a
// client (openapi-fetch) that must type-check real calls with no casts and
// refuse wrong ones, then make those calls against the server.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tool = path.join(root, 'tools/openapi-typescript');

let h: ListeningHarness;
let user: TestUser;
let work: string;
let documentFile: string;

describe('http/openapi-document', () => {
  before(async () => {
    // The tool is not part of `npm install`: installed here, from its own lock, the first time a run needs it.
    await run(process.execPath, [path.join(root, 'scripts/install-tools.mjs'), path.basename(tool)], { maxBuffer: 16 * 1024 * 1024 });
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
    // The content schemas docs/api.md names, a spec of each kind among them.
    const missing = ['Spec', 'DiagramSpec', 'SequenceSpec', 'ClassSpec', 'ErSpec', 'SpecNode', 'SpecEdge', 'SpecLayout', 'EditBody', 'PatchOp', 'Scene', 'SceneElement', 'ValidateBody', 'ValidationReport'].filter((name) => !doc.components.schemas[name]);
    assert.deepEqual(missing, [], Object.keys(doc.components.schemas).join(' '));
    assert.deepEqual(doc.components.schemas.CreateDiagramBody.properties.spec, { $ref: '#/components/schemas/Spec' });
  });

  const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api.ts';

const baseUrl = 'BASE_URL';
const token = 'TOKEN';
const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });

const created = await client.POST('/api/v1/diagrams', {
  body: {
    title: 'Checkout',
    spec: {
      nodes: [
        { id: 'web', label: 'Web app', shape: 'rectangle' },
        { id: 'api', label: 'API', shape: 'ellipse' },
        { id: 'db', label: 'Orders', shape: 'rectangle' },
      ],
      edges: ['web -> api : HTTPS', { from: 'api', to: 'db', label: 'SQL', style: 'dashed' }],
      layout: { direction: 'LR' },
    },
  },
});
if (!created.data) throw new Error(JSON.stringify(created.error));
const id: string = created.data.id;

const edited = await client.POST('/api/v1/diagrams/{id}/edit', {
  params: { path: { id } },
  body: { addNodes: [{ id: 'cache', label: 'Cache', shape: 'diamond' }], addEdges: ['api -> cache'], updateNodes: [{ id: 'db', backgroundColor: '#a5d8ff' }] },
});
if (!edited.data) throw new Error(JSON.stringify(edited.error));
const added: string[] = edited.data.added;

const patched = await client.POST('/api/v1/diagrams/{id}/patch', {
  params: { path: { id } },
  body: { ops: [{ op: 'move', id: 'db', dx: 40, dy: 0 }, { op: 'restyle', id: 'web', strokeColor: '#1971c2' }] },
});
if (!patched.data) throw new Error(JSON.stringify(patched.error));
const applied: number = patched.data.applied;

const failed = await client.GET('/api/v1/diagrams/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
const code: string | undefined = failed.error?.error;

console.log(JSON.stringify({ id, added, applied, code, message: failed.error?.message }));

export function wrongOnPurpose() {
  // @ts-expect-error "box" is not a shape
  void client.POST('/api/v1/diagrams', { body: { spec: { nodes: [{ id: 'a', shape: 'box' }] } } });
  // @ts-expect-error a move takes numbers
  void client.POST('/api/v1/diagrams/{id}/patch', { params: { path: { id } }, body: { ops: [{ op: 'move', id: 'a', dx: 'far' }] } });
  // An excess property is caught where the body's type is known (openapi-fetch's generic call infers it and lets extra keys by).
  // @ts-expect-error direction belongs in layout
  const misplaced: paths['/api/v1/diagrams']['post']['requestBody']['content']['application/json'] = { spec: { nodes: [], direction: 'LR' } };
  void misplaced;
}
`;

  test('a client generated by openapi-typescript type-checks a create from a spec, an edit and a patch with no casts, and they work', async () => {
    const types = path.join(work, 'api.ts');
    await run(process.execPath, [path.join(tool, 'node_modules/openapi-typescript/bin/cli.js'), documentFile, '--output', types], { cwd: work });
    fs.writeFileSync(path.join(work, 'client.ts'), CLIENT.replace('BASE_URL', h.baseUrl).replace('TOKEN', user.token));
    fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.writeFileSync(
      path.join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true, types: [] },
        files: ['client.ts', 'api.ts'],
      }),
    );
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', work]).catch((error: { stdout: string }) => error);
    assert.equal(checked.stdout.trim(), '', 'the generated client type-checks');

    const ran = await run(process.execPath, [...TYPESCRIPT_ARGS, path.join(work, 'client.ts'), h.baseUrl, user.token], { cwd: root });
    const result = JSON.parse(ran.stdout.trim());
    assert.match(result.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(result.added.sort(), ['api-to-cache', 'cache']);
    assert.equal(result.applied, 2);
    assert.equal(result.code, 'not_found');
    assert.equal(typeof result.message, 'string');
  });
});

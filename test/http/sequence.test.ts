/**
 * Sequence diagrams through the REST API: created from a sequence spec and
 * from a Mermaid sequenceDiagram, validated, refused with the spec's codes
 * writing nothing, and regenerated afresh.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';

type Element = { id: string; type: string; text?: string; containerId?: string | null; startBinding?: { elementId: string } | null; endBinding?: { elementId: string } | null };

const SPEC = {
  kind: 'sequence',
  participants: [{ id: 'user', type: 'actor' }, 'app'],
  steps: ['user ->>+ app : Sign in', { note: 'session kept', over: 'app' }, 'app -->>- user : Signed in'],
};

describe('sequence diagrams over REST', () => {
  let h: Harness;
  let alice: TestUser;
  before(async () => {
    h = await startHarness({ engine: 'sqlite' });
    alice = await h.user({ quota: 100 });
  });
  after(() => h.close());

  const call = (method: 'POST' | 'GET', url: string, body?: unknown) => h.call(method, url, { token: alice.token, ...(body === undefined ? {} : { body }) });
  const elementsOf = async (id: string): Promise<Element[]> => (await call('GET', `/api/v1/diagrams/${id}`)).json().scene.elements;
  const count = async () => (await call('GET', '/api/v1/diagrams')).json().items.length as number;

  test('a sequence spec becomes lifelines with messages bound to them', async () => {
    const res = await call('POST', '/api/v1/diagrams', { title: 'Sign in', spec: SPEC });
    assert.equal(res.statusCode, 201, res.body);
    const elements = await elementsOf(res.json().id);
    const message = elements.find((e) => e.id === 'msg-1')!;
    assert.equal(message.startBinding?.elementId, 'user-lifeline');
    assert.equal(message.endBinding?.elementId, 'app-activation-1');
    assert.equal(elements.find((e) => e.containerId === 'msg-2')?.text, 'Signed in');
  });

  test('a Mermaid sequenceDiagram is read into the same kind of drawing, its title kept', async () => {
    const text = 'sequenceDiagram\n  title Ping\n  participant A as Alice\n  A->>B: ping\n  B-->>A: pong\n';
    const res = await call('POST', '/api/v1/diagrams', { source: { language: 'mermaid', text } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().title, 'Ping');
    const elements = await elementsOf(res.json().id);
    assert.equal(elements.find((e) => e.id === 'A-label')?.text, 'Alice');
    assert.equal(elements.find((e) => e.id === 'msg-2')?.endBinding?.elementId, 'A-lifeline');
  });

  test('a mistake is refused with its code and path, and nothing is written', async () => {
    const before = await count();
    const res = await call('POST', '/api/v1/diagrams', { spec: { ...SPEC, steps: ['user => app'] } });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error, 'MALFORMED_SHORTHAND', res.body);
    const validated = await call('POST', '/api/v1/specs/validate', { spec: { kind: 'sequence', steps: [{ note: 'x' }] } });
    assert.equal(validated.statusCode, 200, validated.body);
    assert.deepEqual(validated.json().problems.map((p: { code: string; path: string }) => `${p.code} ${p.path}`), ['INVALID_SPEC /steps/0']);
    assert.equal(await count(), before);
  });

  test('written back as Mermaid and as its spec, it reads again as the same diagram', async () => {
    const created = (await call('POST', '/api/v1/diagrams', { spec: SPEC })).json();
    const mermaid = await call('GET', `/api/v1/diagrams/${created.id}/source?language=mermaid`);
    assert.equal(mermaid.statusCode, 200, mermaid.body);
    const text = mermaid.json().text as string;
    assert.match(text, /^sequenceDiagram\n/);
    const again = await call('POST', '/api/v1/diagrams', { source: { language: 'mermaid', text } });
    assert.equal(again.statusCode, 201, again.body);
    const spec = (await call('GET', `/api/v1/diagrams/${created.id}/source?language=spec`)).json().text as string;
    assert.equal(JSON.parse(spec).kind, 'sequence');
    const pick = (elements: Element[]) => elements.map((e) => `${e.id} ${e.startBinding?.elementId ?? ''} ${e.endBinding?.elementId ?? ''}`).sort();
    assert.deepEqual(pick(await elementsOf(again.json().id)), pick(await elementsOf(created.id)), 'the same elements, bound the same way');
  });

  test('regenerating with a sequence spec lays it out afresh', async () => {
    const created = (await call('POST', '/api/v1/diagrams', { spec: SPEC })).json();
    const res = await call('POST', `/api/v1/diagrams/${created.id}/regenerate`, { spec: { ...SPEC, steps: [...SPEC.steps, 'user ->> app : again'] } });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok((await elementsOf(created.id)).some((e) => e.id === 'msg-3'));
  });
});

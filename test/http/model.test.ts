/**
 * Model-based test of the diagram lifecycle over the HTTP API (fast-check
 * `commands`): random sequences of create (scene or spec), edit, regenerate,
 * patch, trash, restore and rename run against the in-process service and
 * against a small in-memory model, per diagram: its title, whether it is
 * trashed, its element ids (and what each one is) and the revisions
 * (`docUpdatedAt`) seen.
 *
 * After every command the whole service is compared with the model:
 * - `GET /diagrams?filter=active` and `?filter=trash` list exactly the model's diagrams, with its titles;
 * - `GET /diagrams/:id` has the model's title, deletedAt set exactly when trashed,
 *   exactly the model's element ids (each of the kind the model expects);
 * - `docUpdatedAt` strictly increases on every successful content write
 *   (create, edit, regenerate, patch) and is unchanged by anything else
 *   (trash, restore, rename, refused writes);
 * - every binding is sound: an arrow's start/end binding names an existing
 *   element that lists the arrow in its boundElements, a bound text's container
 *   exists and lists it, and every boundElements entry points back;
 * - a content write gives every element it changed a new version and
 *   versionNonce; anything else (including a refused write) leaves the scene
 *   exactly as it was.
 *
 * Runs on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL: one
 * harness per engine, a fresh user per run, every run starting with a create.
 * Commands pick their target diagram and shape by index into the model at run
 * time, so every generated sequence is runnable and shrinks well.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { type Engine, type Harness, startHarness } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

// Merged into the global configuration: replacing it would drop the fixed seed of fast-check-seed.ts.
fc.configureGlobal({ ...fc.readConfigureGlobal(), includeErrorInReport: true });

// ---------------------------------------------------------------------------
// The model

type Kind = { kind: 'shape' } | { kind: 'label'; of: string } | { kind: 'arrow' };

interface ModelDiagram {
  id: string;
  title: string;
  trashed: boolean;
  /** Element id → what it is, in the order the model learnt them. */
  elements: Map<string, Kind>;
  /** Every docUpdatedAt seen, oldest first; the last one is current. */
  revisions: string[];
  /** The scene as last read (an observation, not model state): what "nothing changed" and "touched elements get a new version" compare with. */
  lastScene: Element[] | null;
}

interface Model {
  diagrams: ModelDiagram[];
  /** Source of ids no scene of this run has used. */
  fresh: number;
}

interface Real {
  h: Harness;
  token: string;
}

const UNTITLED = 'Untitled diagram';

const pick = <T>(items: readonly T[], n: number): T => items[n % items.length]!;
const shapesOf = (d: ModelDiagram) => [...d.elements].filter(([, k]) => k.kind === 'shape').map(([id]) => id);
const freshId = (m: Model) => `k${m.fresh++}`;
const current = (d: ModelDiagram) => d.revisions.at(-1)!;
/** A name for a diagram that is the same each time a sequence runs (ids are random): its place in the model. */
const handle = (m: Model, d: ModelDiagram) => `D${m.diagrams.indexOf(d)}`;
/** A request body for a failure report: the revision sent is named, not quoted. */
const describeBody = (body: object, precondition: Precondition) =>
  JSON.stringify(precondition === 'none' ? body : { ...body, expectedUpdatedAt: `<${precondition} revision>` });

/** An earlier revision of this diagram, or one before any write when it has had only one. */
function staleRevision(d: ModelDiagram): string {
  return d.revisions.length > 1 ? d.revisions[d.revisions.length - 2]! : '2000-01-01T00:00:00.000Z';
}

/** The elements a diagram gets from a shape node: the shape and its label (a spec label defaults to the id). */
function addShape(elements: Map<string, Kind>, id: string, labelled: boolean): void {
  elements.set(id, { kind: 'shape' });
  if (labelled) elements.set(`${id}-label`, { kind: 'label', of: id });
}

// ---------------------------------------------------------------------------
// Inputs

const SHAPES = ['rectangle', 'ellipse', 'diamond'] as const;
/** Raw titles and what the server stores for them (sanitised: controls removed, whitespace collapsed and trimmed). */
const TITLES: Array<[string, string]> = [
  ['Roadmap', 'Roadmap'],
  ['  Order flow  ', 'Order flow'],
  ['Line\nbreak', 'Line break'],
  ['Tab\there', 'Tab here'],
  ['Bell\u0007!', 'Bell!'],
  ['Ünïcødé ✓', 'Ünïcødé ✓'],
];
const titleArb = fc.constantFrom(...TITLES);
const colorArb = fc.constantFrom('#a5d8ff', '#ffec99', '#b2f2bb', '#ffc9c9');
const shortLabelArb = fc.constantFrom('API', 'DB', 'Hi', 'v2');

interface GeneratedSpec {
  spec: { nodes: unknown[]; edges: unknown[] };
  /** The ids the server generates for it: nodes, their labels, arrows and arrow labels. */
  elements: Array<[string, Kind]>;
  describe: string;
}

/** A small spec over node ids a..e, edges only forwards between distinct nodes (no repeats). */
const specArb: fc.Arbitrary<GeneratedSpec> = fc
  .record({
    ids: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1, maxLength: 4 }),
    shapes: fc.array(fc.constantFrom(...SHAPES), { minLength: 4, maxLength: 4 }),
    labels: fc.array(fc.option(shortLabelArb, { nil: undefined }), { minLength: 4, maxLength: 4 }),
    edgeMask: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    labelFirstEdge: fc.boolean(),
    shorthand: fc.boolean(),
  })
  .map(({ ids, shapes, labels, edgeMask, labelFirstEdge, shorthand }) => {
    const elements: Array<[string, Kind]> = [];
    const nodes = ids.map((id, i) => {
      elements.push([id, { kind: 'shape' }], [`${id}-label`, { kind: 'label', of: id }]);
      const label = labels[i];
      return { id, shape: shapes[i]!, ...(label === undefined ? {} : { label }) };
    });
    const edges: unknown[] = [];
    let k = 0;
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++, k++) {
        if (!edgeMask[k]) continue;
        const [from, to] = [ids[i]!, ids[j]!];
        const arrow = `${from}-to-${to}`;
        elements.push([arrow, { kind: 'arrow' }]);
        if (labelFirstEdge && edges.length === 0) {
          elements.push([`${arrow}-label`, { kind: 'label', of: arrow }]);
          edges.push({ from, to, label: 'calls' });
        } else {
          edges.push(shorthand ? `${from} -> ${to}` : { from, to });
        }
      }
    }
    return { spec: { nodes, edges }, elements, describe: JSON.stringify({ nodes, edges }) };
  });

type Precondition = 'none' | 'current' | 'stale';
const preconditionArb = fc.constantFrom<Precondition>('none', 'current', 'stale');

function expectedFor(d: ModelDiagram, precondition: Precondition): { expectedUpdatedAt?: string } {
  if (precondition === 'none') return {};
  return { expectedUpdatedAt: precondition === 'current' ? current(d) : staleRevision(d) };
}

// ---------------------------------------------------------------------------
// Talking to the service

function call(real: Real, method: string, url: string, body?: unknown): Promise<LightMyRequestResponse> {
  return real.h.call(method, url, { token: real.token, ...(body === undefined ? {} : { body }) });
}

function expectStatus(res: LightMyRequestResponse, status: number, what: string): void {
  assert.equal(res.statusCode, status, `${what}: expected ${status}, got ${res.statusCode} ${res.body}`);
}

function expectError(res: LightMyRequestResponse, status: number, code: string, what: string): void {
  expectStatus(res, status, what);
  assert.equal(res.json().error, code, `${what}: ${res.body}`);
}

interface Element {
  id: string;
  type: string;
  version?: number;
  versionNonce?: number;
  updated?: number;
  containerId?: string | null;
  isDeleted?: boolean;
  startBinding?: { elementId: string } | null;
  endBinding?: { elementId: string } | null;
  boundElements?: Array<{ id: string; type: string }> | null;
}

/** No dangling or one-sided binding anywhere in the scene. */
function checkBindings(elements: Element[], where: string): void {
  const byId = new Map(elements.map((e) => [e.id, e]));
  assert.equal(byId.size, elements.length, `${where}: element ids are unique`);
  const mentions = (target: Element, id: string, type: string) => (target.boundElements ?? []).some((b) => b.id === id && b.type === type);
  for (const e of elements) {
    for (const end of ['startBinding', 'endBinding'] as const) {
      const binding = e[end];
      if (binding === undefined || binding === null) continue;
      const target = byId.get(binding.elementId);
      assert.ok(target && !target.isDeleted, `${where}: ${e.id}.${end} names ${binding.elementId}, which is not in the scene`);
      assert.ok(mentions(target, e.id, 'arrow'), `${where}: ${e.id}.${end} names ${target.id}, whose boundElements do not list the arrow`);
    }
    if (typeof e.containerId === 'string') {
      const container = byId.get(e.containerId);
      assert.ok(container && !container.isDeleted, `${where}: text ${e.id} is bound to ${e.containerId}, which is not in the scene`);
      assert.ok(mentions(container, e.id, 'text'), `${where}: text ${e.id} is bound to ${container.id}, whose boundElements do not list it`);
    }
    for (const ref of e.boundElements ?? []) {
      const other = byId.get(ref.id);
      assert.ok(other && !other.isDeleted, `${where}: ${e.id}.boundElements lists ${ref.id}, which is not in the scene`);
      const pointsBack =
        ref.type === 'text' ? other.containerId === e.id : other.startBinding?.elementId === e.id || other.endBinding?.elementId === e.id;
      assert.ok(pointsBack, `${where}: ${e.id}.boundElements lists ${ref.type} ${ref.id}, which is not bound to ${e.id}`);
    }
  }
}

/** Every element a content write changed carries a new version and versionNonce, so an open editor takes it. */
function checkVersions(before: Element[], after: Element[], where: string): void {
  const strip = ({ version, versionNonce, updated, ...rest }: Element) => rest;
  const old = new Map(before.map((e) => [e.id, e]));
  for (const e of after) {
    const was = old.get(e.id);
    if (!was || JSON.stringify(strip(e)) === JSON.stringify(strip(was))) continue;
    assert.equal(typeof e.version, 'number', `${where}: changed element ${e.id} has a version`);
    if (typeof was.version === 'number') assert.ok(e.version! > was.version, `${where}: changed element ${e.id} went from version ${was.version} to ${e.version}`);
    assert.notEqual(e.versionNonce, was.versionNonce, `${where}: changed element ${e.id} has a new versionNonce`);
  }
}

function checkKinds(d: ModelDiagram, elements: Element[], where: string): void {
  const byId = new Map(elements.map((e) => [e.id, e]));
  for (const [id, kind] of d.elements) {
    const e = byId.get(id)!;
    if (kind.kind === 'shape') assert.ok((SHAPES as readonly string[]).includes(e.type), `${where}: ${id} is a shape, got ${e.type}`);
    if (kind.kind === 'arrow') assert.equal(e.type, 'arrow', `${where}: ${id} is an arrow`);
    if (kind.kind === 'label') {
      assert.equal(e.type, 'text', `${where}: ${id} is a text`);
      assert.equal(e.containerId, kind.of, `${where}: ${id} is the label of ${kind.of}`);
    }
  }
}

async function listIds(real: Real, filter: 'active' | 'trash'): Promise<Map<string, string>> {
  const res = await call(real, 'GET', `/api/v1/diagrams?filter=${filter}&limit=100`);
  expectStatus(res, 200, `list ${filter}`);
  const page = res.json() as { items: Array<{ id: string; title: string }>; nextCursor: string | null };
  assert.equal(page.nextCursor, null, `list ${filter}: everything fits one page`);
  return new Map(page.items.map((item) => [item.id, item.title]));
}

/** How many times each command ran (successfully or as an expected refusal), per engine, over all runs. */
const ran = new Map<Harness, Map<string, number>>();
function count(h: Harness, name: string): void {
  const counts = ran.get(h) ?? new Map<string, number>();
  counts.set(name, (counts.get(name) ?? 0) + 1);
  ran.set(h, counts);
}

/**
 * Compares the whole service with the model. `wrote` is the diagram whose
 * content the command changed (its revision must move on); every other
 * diagram's revision must stay where it was.
 */
async function verify(model: Model, real: Real, wrote: string | null, label: string): Promise<void> {
  count(real.h, label);
  for (const filter of ['active', 'trash'] as const) {
    const listed = await listIds(real, filter);
    const expected = new Map(model.diagrams.filter((d) => d.trashed === (filter === 'trash')).map((d) => [d.id, d.title]));
    assert.deepEqual(listed, expected, `GET /diagrams?filter=${filter} lists exactly the model's diagrams`);
  }
  for (const d of model.diagrams) {
    const where = `${handle(model, d)} (${d.id})`;
    const res = await call(real, 'GET', `/api/v1/diagrams/${d.id}`);
    expectStatus(res, 200, `GET ${where}`);
    const got = res.json() as { title: string; deletedAt: string | null; docUpdatedAt: string | null; scene: { elements: Element[] } };
    assert.equal(got.title, d.title, `${where}: title`);
    assert.equal(got.deletedAt !== null, d.trashed, `${where}: deletedAt ${got.deletedAt} while the model says trashed=${d.trashed}`);
    const ids = got.scene.elements.map((e) => e.id).sort();
    assert.deepEqual(ids, [...d.elements.keys()].sort(), `${where}: element ids`);
    checkKinds(d, got.scene.elements, where);
    checkBindings(got.scene.elements, where);

    assert.equal(typeof got.docUpdatedAt, 'string', `${where}: docUpdatedAt is set`);
    const revision = got.docUpdatedAt!;
    const previous = d.revisions.at(-1);
    if (d.id === wrote) {
      if (previous !== undefined) {
        assert.ok(Date.parse(revision) > Date.parse(previous), `${where}: docUpdatedAt moved on from ${previous} to ${revision} after a content write`);
      }
      if (d.lastScene !== null) checkVersions(d.lastScene, got.scene.elements, where);
      d.revisions.push(revision);
    } else {
      assert.equal(revision, previous, `${where}: docUpdatedAt unchanged by anything but a content write`);
      assert.deepEqual(got.scene.elements, d.lastScene, `${where}: the scene is unchanged by anything but a content write`);
    }
    d.lastScene = got.scene.elements;
  }
}

// ---------------------------------------------------------------------------
// Commands

type Cmd = fc.AsyncCommand<Model, Real>;

/** Commands that act on an existing diagram: `diagram` is an index into the model's diagrams. */
abstract class OnDiagram implements Cmd {
  protected resolved = '';
  readonly diagram: number;
  constructor(diagram: number) {
    this.diagram = diagram;
  }
  check(m: Readonly<Model>): boolean {
    return m.diagrams.length > 0;
  }
  protected target(m: Model): ModelDiagram {
    return pick(m.diagrams, this.diagram);
  }
  abstract run(m: Model, r: Real): Promise<void>;
  abstract name(): string;
  toString(): string {
    return this.resolved || this.name();
  }
}

/** Commands that act on a shape of a diagram: `shape` is an index into its shapes. */
abstract class OnShape extends OnDiagram {
  readonly shape: number;
  constructor(diagram: number, shape: number) {
    super(diagram);
    this.shape = shape;
  }
  override check(m: Readonly<Model>): boolean {
    return m.diagrams.length > 0 && shapesOf(pick(m.diagrams, this.diagram)).length > 0;
  }
  protected targetShape(d: ModelDiagram): string {
    return pick(shapesOf(d), this.shape);
  }
}

class CreateFromScene implements Cmd {
  readonly ids: string[];
  readonly title: [string, string] | null;
  constructor(ids: string[], title: [string, string] | null) {
    this.ids = ids;
    this.title = title;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const elements = this.ids.map((id, i) => ({ id, type: 'rectangle', x: i * 200, y: 0, width: 120, height: 60 }));
    const body = { ...(this.title ? { title: this.title[0] } : {}), scene: { type: 'excalidraw', version: 2, elements, appState: { gridSize: 20 } } };
    const res = await call(r, 'POST', '/api/v1/diagrams', body);
    expectStatus(res, 201, this.toString());
    const created = res.json();
    assert.equal(created.elementCount, this.ids.length);
    const title = this.title ? this.title[1] : UNTITLED;
    assert.equal(created.title, title);
    const d: ModelDiagram = { id: created.id, title, trashed: false, elements: new Map(), revisions: [], lastScene: null };
    for (const id of this.ids) addShape(d.elements, id, false);
    m.diagrams.push(d);
    await verify(m, r, d.id, 'create from scene');
  }
  toString() {
    return `createFromScene(${JSON.stringify(this.ids)}, ${JSON.stringify(this.title?.[0] ?? null)})`;
  }
}

class CreateFromSpec implements Cmd {
  readonly spec: GeneratedSpec;
  readonly title: [string, string] | null;
  constructor(spec: GeneratedSpec, title: [string, string] | null) {
    this.spec = spec;
    this.title = title;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await call(r, 'POST', '/api/v1/diagrams', { ...(this.title ? { title: this.title[0] } : {}), spec: this.spec.spec });
    expectStatus(res, 201, this.toString());
    const created = res.json();
    assert.equal(created.elementCount, this.spec.elements.length, `${this.toString()}: elementCount`);
    const title = this.title ? this.title[1] : UNTITLED;
    const d: ModelDiagram = { id: created.id, title, trashed: false, elements: new Map(this.spec.elements), revisions: [], lastScene: null };
    m.diagrams.push(d);
    await verify(m, r, d.id, 'create from spec');
  }
  toString() {
    return `createFromSpec(${this.spec.describe}, ${JSON.stringify(this.title?.[0] ?? null)})`;
  }
}

/** Edit: a node with a fresh id, connected (either way) to an existing shape when there is one. */
class EditAddNode extends OnDiagram {
  readonly anchor: number;
  readonly outgoing: boolean;
  readonly shapeKind: (typeof SHAPES)[number];
  readonly label: string | undefined;
  constructor(diagram: number, anchor: number, outgoing: boolean, shapeKind: (typeof SHAPES)[number], label: string | undefined) {
    super(diagram);
    this.anchor = anchor;
    this.outgoing = outgoing;
    this.shapeKind = shapeKind;
    this.label = label;
  }
  async run(m: Model, r: Real) {
    const d = this.target(m);
    const id = freshId(m);
    const shapes = shapesOf(d);
    const anchor = shapes.length > 0 ? pick(shapes, this.anchor) : null;
    const [from, to] = this.outgoing ? [anchor, id] : [id, anchor];
    const body = {
      addNodes: [{ id, shape: this.shapeKind, ...(this.label === undefined ? {} : { label: this.label }) }],
      ...(anchor === null ? {} : { addEdges: [`${from} -> ${to}`] }),
    };
    this.resolved = `edit(${handle(m, d)}, ${JSON.stringify(body)})`;
    const res = await call(r, 'POST', `/api/v1/diagrams/${d.id}/edit`, body);
    expectStatus(res, 200, this.resolved);
    const arrow = anchor === null ? null : `${from}-to-${to}`;
    assert.deepEqual(res.json().added, arrow === null ? [id] : [id, arrow], `${this.resolved}: added`);
    addShape(d.elements, id, true);
    if (arrow !== null) d.elements.set(arrow, { kind: 'arrow' });
    await verify(m, r, d.id, anchor === null ? 'edit: lone node' : 'edit: connected node');
  }
  name() {
    return `editAddNode(#${this.diagram}, anchor #${this.anchor}, ${this.outgoing ? 'out' : 'in'}, ${this.shapeKind}, ${this.label})`;
  }
}

/** Edit: updateNodes with a new label and/or background colour on an existing shape. */
class EditUpdateNode extends OnShape {
  readonly label: string | undefined;
  readonly backgroundColor: string | undefined;
  constructor(diagram: number, shape: number, label: string | undefined, backgroundColor: string | undefined) {
    super(diagram, shape);
    this.label = label;
    this.backgroundColor = backgroundColor;
  }
  async run(m: Model, r: Real) {
    const d = this.target(m);
    const id = this.targetShape(d);
    const update = { id, ...(this.label === undefined ? {} : { label: this.label }), ...(this.backgroundColor === undefined ? {} : { backgroundColor: this.backgroundColor }) };
    this.resolved = `edit(${handle(m, d)}, updateNodes ${JSON.stringify(update)})`;
    const res = await call(r, 'POST', `/api/v1/diagrams/${d.id}/edit`, { updateNodes: [update] });
    expectStatus(res, 200, this.resolved);
    assert.deepEqual(res.json().updated, [id]);
    if (this.label !== undefined && !d.elements.has(`${id}-label`)) d.elements.set(`${id}-label`, { kind: 'label', of: id });
    await verify(m, r, d.id, 'edit: updateNodes');
  }
  name() {
    return `editUpdateNode(#${this.diagram}, shape #${this.shape}, ${this.label}, ${this.backgroundColor})`;
  }
}

/** Regenerate from a small spec, without a precondition, with the current revision, or with a stale one (409, nothing written). */
class Regenerate extends OnDiagram {
  readonly spec: GeneratedSpec;
  readonly precondition: Precondition;
  readonly title: [string, string] | null;
  constructor(diagram: number, spec: GeneratedSpec, precondition: Precondition, title: [string, string] | null) {
    super(diagram);
    this.spec = spec;
    this.precondition = precondition;
    this.title = title;
  }
  async run(m: Model, r: Real) {
    const d = this.target(m);
    // Laid out afresh: the model knows the elements a spec makes (layout "keep" has its own tests, test/http/regenerate-keep.test.ts).
    const body = { spec: this.spec.spec, layout: 'fresh', ...expectedFor(d, this.precondition), ...(this.title ? { title: this.title[0] } : {}) };
    this.resolved = `regenerate(${handle(m, d)}, ${describeBody(body, this.precondition)})`;
    const res = await call(r, 'POST', `/api/v1/diagrams/${d.id}/regenerate`, body);
    if (this.precondition === 'stale') {
      expectError(res, 409, 'stale_read', this.resolved);
      await verify(m, r, null, 'regenerate: stale');
      return;
    }
    expectStatus(res, 200, this.resolved);
    assert.deepEqual(res.json(), { id: d.id, replaced: this.spec.elements.length, orphanedComments: 0, ...(this.title ? { title: this.title[1] } : {}), layout: 'fresh' });
    d.elements = new Map(this.spec.elements);
    if (this.title) d.title = this.title[1];
    await verify(m, r, d.id, `regenerate: ${this.precondition}`);
  }
  name() {
    return `regenerate(#${this.diagram}, ${this.spec.describe}, ${this.precondition}, ${JSON.stringify(this.title?.[0] ?? null)})`;
  }
}

async function patch(m: Model, r: Real, d: ModelDiagram, body: unknown, what: string, precondition: Precondition): Promise<any | null> {
  const res = await call(r, 'POST', `/api/v1/diagrams/${d.id}/patch`, body);
  if (precondition === 'stale') {
    expectError(res, 409, 'stale_read', what);
    await verify(m, r, null, 'patch: stale');
    return null;
  }
  expectStatus(res, 200, what);
  return res.json();
}

class PatchMove extends OnShape {
  readonly dx: number;
  readonly dy: number;
  readonly precondition: Precondition;
  constructor(diagram: number, shape: number, dx: number, dy: number, precondition: Precondition) {
    super(diagram, shape);
    this.dx = dx;
    this.dy = dy;
    this.precondition = precondition;
  }
  async run(m: Model, r: Real) {
    const d = this.target(m);
    const id = this.targetShape(d);
    const body = { ops: [{ op: 'move', id, dx: this.dx, dy: this.dy }], ...expectedFor(d, this.precondition) };
    this.resolved = `patch(${handle(m, d)}, ${describeBody(body, this.precondition)})`;
    const result = await patch(m, r, d, body, this.resolved, this.precondition);
    if (result === null) return;
    assert.deepEqual(result, { id: d.id, applied: 1, elements: d.elements.size, deleted: 0, orphanedComments: 0 });
    await verify(m, r, d.id, `patch move: ${this.precondition}`);
  }
  name() {
    return `patchMove(#${this.diagram}, shape #${this.shape}, ${this.dx}, ${this.dy}, ${this.precondition})`;
  }
}

class PatchDelete extends OnShape {
  readonly precondition: Precondition;
  constructor(diagram: number, shape: number, precondition: Precondition) {
    super(diagram, shape);
    this.precondition = precondition;
  }
  async run(m: Model, r: Real) {
    const d = this.target(m);
    const id = this.targetShape(d);
    const body = { ops: [{ op: 'delete', id }], ...expectedFor(d, this.precondition) };
    this.resolved = `patch(${handle(m, d)}, ${describeBody(body, this.precondition)})`;
    const result = await patch(m, r, d, body, this.resolved, this.precondition);
    if (result === null) return;
    // The shape goes, with its label; arrows bound to it stay, unbound at that end.
    const removed = [id, ...[...d.elements].filter(([, k]) => k.kind === 'label' && k.of === id).map(([labelId]) => labelId)];
    for (const gone of removed) d.elements.delete(gone);
    assert.deepEqual(result, { id: d.id, applied: 1, elements: d.elements.size, deleted: removed.length, orphanedComments: 0 });
    await verify(m, r, d.id, `patch delete: ${this.precondition}`);
  }
  name() {
    return `patchDelete(#${this.diagram}, shape #${this.shape}, ${this.precondition})`;
  }
}

class PatchAdd extends OnDiagram {
  async run(m: Model, r: Real) {
    const d = this.target(m);
    const id = freshId(m);
    const body = { ops: [{ op: 'add', element: { type: 'rectangle', id, x: 0, y: -300, width: 120, height: 60 } }] };
    this.resolved = `patch(${handle(m, d)}, ${JSON.stringify(body)})`;
    const result = await patch(m, r, d, body, this.resolved, 'none');
    addShape(d.elements, id, false);
    assert.deepEqual(result, { id: d.id, applied: 1, elements: d.elements.size, deleted: 0, orphanedComments: 0 });
    await verify(m, r, d.id, 'patch add');
  }
  name() {
    return `patchAdd(#${this.diagram})`;
  }
}

/** Valid ops followed by one that fails: 422 INVALID_SPEC naming it, and nothing written. */
class PatchFailing extends OnDiagram {
  readonly shape: number;
  readonly failure: 0 | 1 | 2;
  constructor(diagram: number, shape: number, failure: 0 | 1 | 2) {
    super(diagram);
    this.shape = shape;
    this.failure = failure;
  }
  async run(m: Model, r: Real) {
    const d = this.target(m);
    const shapes = shapesOf(d);
    const ops: unknown[] = [{ op: 'add', element: { type: 'ellipse', id: freshId(m), x: 0, y: -500, width: 80, height: 80 } }];
    if (shapes.length > 0) {
      const shape = pick(shapes, this.shape);
      ops.push({ op: 'move', id: shape, dx: 30, dy: 0 }, { op: 'delete', id: shape });
    }
    const failing = [
      { op: 'resize', id: 'ghost', width: 10, height: 10 },
      { op: 'delete', id: 'ghost' },
      { op: 'update', id: shapes[0] ?? 'ghost', set: { type: 'diamond' } },
    ][this.failure]!;
    ops.push(failing);
    this.resolved = `patch(${handle(m, d)}, ${JSON.stringify({ ops })})`;
    const res = await call(r, 'POST', `/api/v1/diagrams/${d.id}/patch`, { ops });
    expectError(res, 422, 'INVALID_SPEC', this.resolved);
    assert.match(res.json().message, new RegExp(`ops\\[${ops.length - 1}\\]`), `${this.resolved}: the message names the failing op`);
    await verify(m, r, null, 'patch: failing ops');
  }
  name() {
    return `patchFailing(#${this.diagram}, shape #${this.shape}, failure ${this.failure})`;
  }
}

class Trash extends OnDiagram {
  async run(m: Model, r: Real) {
    const d = this.target(m);
    this.resolved = `trash(${handle(m, d)})`;
    const res = await call(r, 'DELETE', `/api/v1/diagrams/${d.id}`);
    expectStatus(res, 204, this.resolved);
    assert.equal(res.body, '');
    d.trashed = true;
    await verify(m, r, null, 'trash');
  }
  name() {
    return `trash(#${this.diagram})`;
  }
}

class Restore extends OnDiagram {
  async run(m: Model, r: Real) {
    const d = this.target(m);
    this.resolved = `restore(${handle(m, d)})`;
    const res = await call(r, 'POST', `/api/v1/diagrams/${d.id}/restore`);
    expectStatus(res, 204, this.resolved);
    assert.equal(res.body, '');
    d.trashed = false;
    await verify(m, r, null, 'restore');
  }
  name() {
    return `restore(#${this.diagram})`;
  }
}

class Rename extends OnDiagram {
  readonly title: [string, string];
  constructor(diagram: number, title: [string, string]) {
    super(diagram);
    this.title = title;
  }
  async run(m: Model, r: Real) {
    const d = this.target(m);
    this.resolved = `rename(${handle(m, d)}, ${JSON.stringify(this.title[0])})`;
    const res = await call(r, 'PATCH', `/api/v1/diagrams/${d.id}`, { title: this.title[0] });
    expectStatus(res, 200, this.resolved);
    const summary = res.json();
    assert.equal(summary.title, this.title[1]);
    assert.equal(summary.deletedAt !== null, d.trashed, `${this.resolved}: deletedAt in the summary`);
    d.title = this.title[1];
    await verify(m, r, null, 'rename');
  }
  name() {
    return `rename(#${this.diagram}, ${JSON.stringify(this.title[0])})`;
  }
}

// ---------------------------------------------------------------------------

const index = fc.nat({ max: 31 });
const optionalTitle = fc.option(titleArb, { nil: null });

const createArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.tuple(fc.uniqueArray(fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5'), { maxLength: 4 }), optionalTitle).map(([ids, title]) => new CreateFromScene(ids, title)),
  fc.tuple(specArb, optionalTitle).map(([spec, title]) => new CreateFromSpec(spec, title)),
);
const commandArbs: Array<fc.Arbitrary<Cmd>> = [
  createArb,
  fc
    .tuple(index, index, fc.boolean(), fc.constantFrom(...SHAPES), fc.option(shortLabelArb, { nil: undefined }))
    .map(([d, anchor, outgoing, shape, label]) => new EditAddNode(d, anchor, outgoing, shape, label)),
  fc
    .tuple(index, index, fc.option(shortLabelArb, { nil: undefined }), fc.option(colorArb, { nil: undefined }))
    // At least one field: an update that changes nothing is refused.
    .map(([d, s, label, color]) => new EditUpdateNode(d, s, label, label === undefined && color === undefined ? '#e9ecef' : color)),
  fc.tuple(index, specArb, preconditionArb, optionalTitle).map(([d, spec, pre, title]) => new Regenerate(d, spec, pre, title)),
  fc.tuple(index, index, fc.integer({ min: -200, max: 200 }), fc.integer({ min: -200, max: 200 }), preconditionArb).map(([d, s, dx, dy, pre]) => new PatchMove(d, s, dx, dy, pre)),
  fc.tuple(index, index, preconditionArb).map(([d, s, pre]) => new PatchDelete(d, s, pre)),
  index.map((d) => new PatchAdd(d)),
  fc.tuple(index, index, fc.constantFrom<0 | 1 | 2>(0, 1, 2)).map(([d, s, failure]) => new PatchFailing(d, s, failure)),
  index.map((d) => new Trash(d)),
  index.map((d) => new Restore(d)),
  fc.tuple(index, titleArb).map(([d, title]) => new Rename(d, title)),
];
/** Up to 15 commands after the first create; size 'max' so that sequences are not mostly short. */
const commands = fc.commands(commandArbs, { maxCommands: 15, size: 'max' });

/** Every command and every outcome the runs must have exercised, so that passing means something. */
const OUTCOMES = [
  'create from scene',
  'create from spec',
  'edit: connected node',
  'edit: updateNodes',
  'regenerate: none',
  'regenerate: current',
  'regenerate: stale',
  'patch move: none',
  'patch move: current',
  'patch delete: none',
  'patch delete: current',
  'patch add',
  'patch: failing ops',
  'patch: stale',
  'trash',
  'restore',
  'rename',
];

const ENGINES: Array<{ engine: Engine; numRuns: number; skip: string | false }> = [
  { engine: 'sqlite', numRuns: 100, skip: false },
  { engine: 'postgres', numRuns: 100, skip: skipWithoutPostgres },
];

for (const { engine, numRuns, skip } of ENGINES) {
  describe(`diagram lifecycle against the model (${engine})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ engine });
    });
    after(() => h?.close());

    test('create, edit, regenerate, patch, trash, restore and rename agree with the model after every command', { timeout: 120_000 }, async (t) => {
      await fc.assert(
        // Every run starts with a create, so the commands that follow have a diagram to act on.
        fc.asyncProperty(createArb, commands, async (first, cmds) => {
          // A fresh user per run: its lists hold exactly the diagrams of this run.
          const user = await h.user({ quota: 100_000 });
          const sequence = {
            *[Symbol.iterator]() {
              yield first;
              yield* cmds;
            },
          };
          await fc.asyncModelRun(() => ({ model: { diagrams: [], fresh: 0 }, real: { h, token: user.token } }), sequence);
        }),
        { numRuns },
      );
      const counts = ran.get(h) ?? new Map<string, number>();
      t.diagnostic(`commands run: ${JSON.stringify(Object.fromEntries([...counts].sort()))}`);
      for (const outcome of OUTCOMES) assert.ok((counts.get(outcome) ?? 0) >= 2, `"${outcome}" ran at least twice (${counts.get(outcome) ?? 0})`);
    });
  });
}

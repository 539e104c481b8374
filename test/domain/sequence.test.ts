/**
 * Sequence diagrams: each construct of the grammar drawn, asserted by where
 * its elements land relative to each other; the checks' refusals; Mermaid's
 * sequenceDiagram read into the same spec; and, over random specs, that no
 * label lies over anything, frames nest and every message runs between its
 * two lifelines.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';
import { sceneProblems } from '../../src/domain/scene/validate.ts';
import { parseMessageShorthand } from '../../src/domain/sequence/shorthand.ts';
import { SEQUENCE_LIMITS } from '../../src/domain/sequence/types.ts';
import { applyEdit } from '../../src/domain/edit/apply.ts';
import { exportScene } from '../../src/domain/export/export.ts';
import { applyPatch } from '../../src/domain/patch/apply.ts';
import { importMermaid } from '../../src/domain/source/mermaid.ts';
import { checkAnySpec, sceneOfSpec } from '../../src/domain/spec/any-spec.ts';
import { assertSurvivesRestore } from '../helpers/excalidraw.ts';

type El = Record<string, any> & { id: string; type: string };

function draw(spec: unknown): { elements: El[]; byId: (id: string) => El } {
  const { problems, spec: checked } = checkAnySpec(spec, { isIcon: isCatalogIcon });
  assert.deepEqual(problems, [], 'the spec passes its checks');
  const elements = sceneOfSpec(checked!, { updated: 1, layout: layoutGraph }) as El[];
  const byId = (id: string) => {
    const found = elements.find((e) => e.id === id);
    assert.ok(found, `an element ${id}`);
    return found;
  };
  return { elements, byId };
}

const problemsOf = (spec: unknown) => checkAnySpec(spec, { isIcon: isCatalogIcon }).problems;
const seq = (steps: unknown[], extra: Record<string, unknown> = {}) => ({ kind: 'sequence', steps, ...extra });
/** An arrow's points on the page. */
const pointsOf = (arrow: El): [number, number][] => arrow.points.map(([x, y]: number[]) => [arrow.x + x, arrow.y + y]);
const centreX = (e: El) => e.x + e.width / 2;
const box = (e: El) => ({ left: e.x, top: e.y, right: e.x + e.width, bottom: e.y + e.height });

/** A Mermaid sequence diagram with each construct: title, autonumber, actor, activations, loop, alt, note, create and destroy. */
const CHECKOUT = [
  'sequenceDiagram',
  '  title Checkout',
  '  autonumber',
  '  actor C as Customer',
  '  participant S as Shop',
  '  C->>+S: Checkout',
  '  loop up to 3 times',
  '    S--)P: pending',
  '  end',
  '  alt approved',
  '    P-->>S: approved',
  '  else declined',
  '    P--xS: declined',
  '  end',
  '  Note over S,P: PCI scope',
  '  create participant L as Ledger',
  '  S->>L: record',
  '  destroy L',
  '  S-xL: close',
  '  deactivate S',
];

describe('the message shorthand', () => {
  test('reads each of Mermaid’s arrows with its line and heads', () => {
    const cases: Array<[string, string, string, string]> = [
      ['a ->> b', 'solid', 'none', 'triangle'],
      ['a -->> b', 'dashed', 'none', 'triangle'],
      ['a -> b', 'solid', 'none', 'none'],
      ['a --> b', 'dashed', 'none', 'none'],
      ['a -) b', 'solid', 'none', 'arrow'],
      ['a --) b', 'dashed', 'none', 'arrow'],
      ['a -x b', 'solid', 'none', 'bar'],
      ['a <<->> b', 'solid', 'triangle', 'triangle'],
      ['a <<-->> b', 'dashed', 'triangle', 'triangle'],
    ];
    for (const [text, line, start, end] of cases) {
      const m = parseMessageShorthand(text)!;
      assert.deepEqual([m.from, m.to, m.line, m.startArrowhead, m.endArrowhead], ['a', 'b', line, start, end], text);
    }
  });

  test('takes a label, activation marks, quoted ids and ids with hyphens', () => {
    assert.deepEqual(parseMessageShorthand('web-app ->>+ "auth server" : POST /token: code'), {
      from: 'web-app',
      to: 'auth server',
      label: 'POST /token: code',
      line: 'solid',
      startArrowhead: 'none',
      endArrowhead: 'triangle',
      activate: true,
      deactivate: false,
    });
    assert.equal(parseMessageShorthand('b -->>- a : ok')!.deactivate, true);
    assert.equal(parseMessageShorthand('a => b'), null);
  });
});

describe('a sequence diagram drawn', () => {
  test('participants left to right in order, declared first, then as first named; boxes at top and foot', () => {
    const { byId } = draw(seq(['c ->> a : hi', 'a ->> b : on'], { participants: ['a'] }));
    assert.ok(centreX(byId('a')) < centreX(byId('c')) && centreX(byId('c')) < centreX(byId('b')), 'a declared, then c and b as named');
    for (const id of ['a', 'b', 'c']) {
      assert.ok(byId(`${id}-foot`).y > byId(`${id}-lifeline`).y + byId(`${id}-lifeline`).height - 1, `${id}'s foot box below its lifeline`);
      assert.equal(Math.round(byId(`${id}-lifeline`).x), Math.round(centreX(byId(id))), `${id}'s lifeline under its box`);
    }
  });

  test('messages top to bottom in order, bound at both ends to the lifelines, their labels bound to them', () => {
    const { byId } = draw(seq(['a ->> b : first', 'b -->> a : second']));
    const [first, second] = [byId('msg-1'), byId('msg-2')];
    assert.ok(first.y < second.y, 'the first message above the second');
    assert.equal(first.startBinding.elementId, 'a-lifeline');
    assert.equal(first.endBinding.elementId, 'b-lifeline');
    assert.equal(second.strokeStyle, 'dashed', 'a reply is dashed');
    assert.ok(byId('a-lifeline').boundElements.some((b: El) => b.id === 'msg-1'), 'the lifeline lists the arrow');
    assert.equal(byId('msg-1-label').containerId, 'msg-1');
    const [start, end] = [pointsOf(first)[0]!, pointsOf(first).at(-1)!];
    assert.ok(start[0] > byId('a-lifeline').x && end[0] < byId('b-lifeline').x, 'between the two lifelines');
  });

  test('a label whose message crosses a lifeline sits clear of it', () => {
    const { byId } = draw(seq(['a ->> c : a long label across b', 'a ->> b : x', 'b ->> c : y']));
    const label = box(byId('msg-1-label'));
    const b = byId('b-lifeline').x;
    assert.ok(label.right < b || label.left > b, 'the label does not cover b’s lifeline');
  });

  test('a message to itself loops out to the right and back, bound to its own lifeline at both ends', () => {
    const { byId } = draw(seq(['a ->> b : go', 'b ->> b : think']));
    const loop = byId('msg-2');
    const points = pointsOf(loop);
    assert.equal(points.length, 4);
    assert.ok(points[1]![0] > byId('b-lifeline').x && points[3]![1] > points[0]![1], 'right, then down, then back');
    assert.equal(loop.startBinding.elementId, 'b-lifeline');
    assert.equal(loop.endBinding.elementId, 'b-lifeline');
    assert.ok(byId('msg-2-label').x > byId('b-lifeline').x, 'its label right of the lifeline');
  });

  test('frames enclose their messages, branches in order below dashed lines, nested frames inside', () => {
    const { byId } = draw(
      seq([
        'a ->> b : before',
        { frame: 'alt', label: 'ok', steps: ['a ->> b : yes', { frame: 'loop', label: 'retry', steps: ['b ->> c : again'] }], branches: [{ label: 'failed', steps: ['b -->> a : no'] }] },
        'a ->> b : after',
      ]),
    );
    const alt = box(byId('frame-1'));
    const loop = box(byId('frame-2'));
    for (const id of ['msg-2', 'msg-3', 'msg-4']) {
      for (const [x, y] of pointsOf(byId(id))) assert.ok(x > alt.left && x < alt.right && y > alt.top && y < alt.bottom, `${id} inside the alt frame`);
    }
    for (const id of ['msg-1', 'msg-5']) assert.ok(pointsOf(byId(id))[0]![1] < alt.top || pointsOf(byId(id))[0]![1] > alt.bottom, `${id} outside it`);
    assert.ok(loop.left > alt.left && loop.right < alt.right && loop.top > alt.top && loop.bottom < alt.bottom, 'the loop nests inside the alt');
    const separator = pointsOf(byId('frame-1-branch-1'))[0]![1];
    assert.ok(pointsOf(byId('msg-3'))[0]![1] < separator && separator < pointsOf(byId('msg-4'))[0]![1], 'else between the branches');
    assert.match(byId('frame-1-branch-1-label').text, /^else \[failed\]$/);
    assert.equal(byId('frame-1-tab-label').text, 'alt');
    assert.equal(byId('frame-1-label').text, '[ok]');
  });

  test('notes: left of, right of and over one or two participants, below the step before', () => {
    const { byId } = draw(
      seq(['a ->> b : x', { note: 'left', leftOf: 'a' }, { note: 'right', rightOf: 'b' }, { note: 'over one', over: 'a' }, { note: 'over both, long enough to span', over: ['a', 'b'] }]),
    );
    const [a, b] = [byId('a-lifeline').x, byId('b-lifeline').x];
    assert.ok(box(byId('note-1')).right < a, 'left of a');
    assert.ok(box(byId('note-2')).left > b, 'right of b');
    assert.ok(box(byId('note-3')).left < a && box(byId('note-3')).right > a, 'over a');
    assert.ok(box(byId('note-4')).left < a && box(byId('note-4')).right > b, 'spanning a and b');
    assert.ok(byId('note-1').y > pointsOf(byId('msg-1'))[0]![1], 'below the message before it');
    assert.equal(byId('note-1').backgroundColor, '#fff3bf');
  });

  test('activations: a bar from the message that starts one to the one that ends it; messages there bind to the bar', () => {
    const { byId } = draw(seq(['a ->>+ b : call', 'b ->> c : ask', 'c -->> b : answer', 'b -->>- a : done']));
    const bar = box(byId('b-activation-1'));
    assert.ok(Math.abs(bar.top - pointsOf(byId('msg-1'))[0]![1]) < 1, 'starts at the call');
    assert.ok(Math.abs(bar.bottom - pointsOf(byId('msg-4'))[0]![1]) < 1, 'ends at the return');
    assert.equal(byId('msg-1').endBinding.elementId, 'b-activation-1');
    assert.equal(byId('msg-2').startBinding.elementId, 'b-activation-1');
    assert.equal(byId('msg-4').startBinding.elementId, 'b-activation-1');
    assert.ok(Math.abs(pointsOf(byId('msg-2'))[0]![0] - bar.right) <= 5, 'the message leaves from the bar’s edge');
  });

  test('create draws the box at its message; destroy ends the lifeline there with a cross and no foot box', () => {
    const { byId, elements } = draw(seq(['a ->> b : hello', { from: 'a', to: 'c', label: 'new', create: true }, { from: 'a', to: 'c', label: 'bye', destroy: 'to' }]));
    const created = box(byId('c'));
    const y = pointsOf(byId('msg-2'))[0]![1];
    assert.ok(created.top < y && created.bottom > y, 'c’s box at the message that creates it');
    assert.ok(created.top > box(byId('a')).bottom, 'below the boxes at the top');
    assert.equal(byId('msg-2').endBinding.elementId, 'c');
    const ended = pointsOf(byId('msg-3'))[0]![1];
    const lifeline = byId('c-lifeline');
    assert.ok(Math.abs(lifeline.y + lifeline.height - ended) < 1, 'c’s lifeline ends at the destroying message');
    assert.ok(byId('c-destroyed') && !elements.some((e) => e.id === 'c-foot'), 'a cross, and no box at the foot');
  });

  test('autonumber numbers the messages in document order, frames included', () => {
    const { byId } = draw(seq(['a ->> b : one', { frame: 'opt', steps: ['b ->> a : two'] }, 'a ->> b'], { autonumber: true }));
    assert.equal(byId('msg-1-label').text, '1. one');
    assert.equal(byId('msg-2-label').text, '2. two');
    assert.equal(byId('msg-3-label').text, '3');
  });

  test('an actor is a person icon over its name; a database has its icon in the box', () => {
    const { byId } = draw(seq(['u ->> d : q'], { participants: [{ id: 'u', type: 'actor', label: 'User' }, { id: 'd', type: 'database' }] }));
    assert.equal(byId('u').type, 'text');
    assert.equal(byId('u-icon').fileId, 'icon-user');
    assert.equal(byId('d-icon').fileId, 'icon-database');
  });

  test('the scene is valid, lints clean and survives the editor’s restore unchanged', async () => {
    const { elements } = draw(
      seq(
        [
          'user ->>+ app : Sign in',
          { note: 'PKCE verifier kept', over: 'app' },
          { frame: 'alt', label: 'valid', steps: ['app ->> idp : token'], branches: [{ label: 'invalid', steps: ['app -->> user : 401'] }] },
          'app ->> app : audit',
          'app -->>- user : done',
        ],
        { participants: [{ id: 'user', type: 'actor' }], caption: 'Login' },
      ),
    );
    assert.deepEqual(sceneProblems({ elements }, { isIcon: isCatalogIcon }), []);
    assert.deepEqual(lintScene(elements), []);
    await assertSurvivesRestore(elements);
  });
});

describe('a sequence spec refused', () => {
  const codes = (spec: unknown) => problemsOf(spec).map((p) => `${p.code} ${p.path}`);

  test('each mistake named with its code and where it is', () => {
    assert.deepEqual(codes(seq(['a => b'])), ['MALFORMED_SHORTHAND /steps/0']);
    assert.deepEqual(codes(seq([{ deactivate: 'a' }])), ['INVALID_SPEC /steps/0']);
    assert.deepEqual(codes(seq([{ note: 'x' }])), ['INVALID_SPEC /steps/0']);
    assert.deepEqual(codes(seq([{ frame: 'when', steps: [] }])), ['INVALID_SPEC /steps/0/frame']);
    assert.deepEqual(codes(seq([{ frame: 'loop', steps: [], branches: [{ steps: [] }] }])), ['INVALID_SPEC /steps/0/branches']);
    assert.deepEqual(codes(seq(['a ->> b', { from: 'a', to: 'b', create: true }])), ['INVALID_SPEC /steps/1/create']);
    assert.deepEqual(codes(seq([{ from: 'a', to: 'b', colour: 'red' }])), ['MALFORMED_EDGE /steps/0/colour']);
    assert.deepEqual(codes(seq(['a ->> b'], { participants: ['a', 'a'] })), ['DUPLICATE_NODE_ID /participants/1']);
    assert.deepEqual(codes(seq(['msg-1 ->> b'], { participants: ['msg-1'] })), ['ID_COLLISION /participants/0']);
    // A participant named only by a step, or one that takes a drawn part's id, collides too.
    assert.deepEqual(codes(seq(['msg-1 ->> b'])), ['ID_COLLISION /steps/0']);
    assert.deepEqual(codes(seq(['a ->> note-1'])), ['ID_COLLISION /steps/0']);
    assert.deepEqual(codes(seq(['a ->> b', { note: 'x', over: 'diagram-caption' }])), ['ID_COLLISION /steps/1/over']);
    assert.deepEqual(codes(seq(['a ->>+ b', 'b -->>- a'], { participants: ['a', 'b', 'b-activation-1'] })), ['ID_COLLISION /participants']);
    assert.deepEqual(codes(seq(['a ->> b'], { participants: [{ id: 'a', icon: 'icon-nope' }] })), ['UNKNOWN_ICON /participants/0/icon']);
    assert.deepEqual(codes({ kind: 'sequence' }), ['INVALID_SPEC /steps']);
    assert.deepEqual(codes({ kind: 'gantt', nodes: [] }), ['INVALID_SPEC /kind']);
  });

  test('docs/spec.md states the limits the checks apply', () => {
    const doc = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const n = (v: number) => v.toLocaleString('en-US');
    assert.ok(doc.includes(`At most ${n(SEQUENCE_LIMITS.participants)} participants, ${n(SEQUENCE_LIMITS.steps)} steps in all`), 'participants and steps');
    assert.ok(doc.includes(`frames ${SEQUENCE_LIMITS.depth} deep`), 'depth');
    const steps = Array.from({ length: SEQUENCE_LIMITS.steps + 1 }, () => 'a ->> b');
    assert.deepEqual(problemsOf(seq(steps)).map((p) => p.code), ['SPEC_TOO_LARGE']);
  });

  test('a deactivate in a message without an activation is refused with a hint to activate first', () => {
    const [problem] = problemsOf(seq(['a ->> b', 'b -->>- a']));
    assert.match(problem!.hint!, /activate it first/);
  });
});

describe('Mermaid’s sequenceDiagram', () => {
  const text = [...CHECKOUT, '  box Aqua Backend', '  participant Q', '  end'].join('\n');

  test('reads participants, messages, activations, frames, notes, create and destroy into a sequence spec', async () => {
    const { spec, warnings, title } = await importMermaid(text);
    assert.equal(title, 'Checkout');
    assert.deepEqual(spec, {
      kind: 'sequence',
      caption: 'Checkout',
      autonumber: true,
      participants: [{ id: 'C', label: 'Customer', type: 'actor' }, { id: 'S', label: 'Shop' }, 'P', { id: 'L', label: 'Ledger' }, 'Q'],
      steps: [
        { from: 'C', to: 'S', label: 'Checkout' },
        { activate: 'S' },
        { frame: 'loop', label: 'up to 3 times', steps: [{ from: 'S', to: 'P', label: 'pending', line: 'dashed', arrowhead: 'arrow' }] },
        { frame: 'alt', label: 'approved', steps: [{ from: 'P', to: 'S', label: 'approved', line: 'dashed' }], branches: [{ label: 'declined', steps: [{ from: 'P', to: 'S', label: 'declined', line: 'dashed', arrowhead: 'bar' }] }] },
        { note: 'PCI scope', over: ['S', 'P'] },
        { from: 'S', to: 'L', label: 'record', create: true },
        { from: 'S', to: 'L', label: 'close', arrowhead: 'bar', destroy: 'to' },
        { deactivate: 'S' },
      ],
    });
    assert.deepEqual(warnings.map((w) => w.message), ['boxes around participants are not drawn']);
    const { elements } = draw(spec);
    assert.deepEqual(lintScene(elements), []);
  });
});

describe('a sequence diagram written back', () => {
  test('as Mermaid, read again by Mermaid’s parser: the same spec, with what a person moved in the editor', async () => {
    const text = CHECKOUT.flatMap((line) => (line === '  Note over S,P: PCI scope' ? [line, '  Note right of P: logged'] : [line])).join('\n');
    const first = await importMermaid(text);
    const { elements } = draw({ ...first.spec, caption: first.title });
    const written = exportScene(elements, 'mermaid');
    assert.deepEqual(written.warnings, []);
    const again = await importMermaid(written.text);
    assert.deepEqual(again.spec, first.spec);
    assert.equal(again.title, 'Checkout');
    // Renamed in the editor: the label is read from the scene as it is now.
    elements.find((e) => e.id === 'msg-2-label')!.originalText = '2. still pending';
    assert.match(exportScene(elements, 'mermaid').text, /S--\)P: still pending/);
  });

  test('as its spec: drawing the exported spec again gives the same scene', () => {
    const spec = seq(['a ->>+ b : call', { note: 'n', rightOf: 'b' }, { frame: 'alt', label: 'ok', steps: ['b -->> a : yes'], branches: [{ label: 'no', steps: ['b --x a : no'] }] }, { deactivate: 'b' }], { autonumber: true });
    const { elements } = draw(spec);
    const exported = JSON.parse(exportScene(elements, 'spec').text);
    assert.deepEqual(draw(exported).elements, elements);
  });
});

describe('random sequence specs', () => {
  const ids = ['a', 'b', 'c', 'd', 'e'];
  const id = fc.constantFrom(...ids);
  const label = fc.oneof(fc.constant(''), fc.constantFrom('ok', 'GET /orders/42', 'a much longer message label here', 'retry after 5 s'));
  const message = fc.record({ from: id, to: id, label }).map((m) => `${m.from} ->> ${m.to}${m.label ? ` : ${m.label}` : ''}`);
  const note = fc.record({ note: fc.constantFrom('note', 'a longer note that wraps onto lines'), where: fc.constantFrom('over', 'leftOf', 'rightOf'), at: id }).map((n) => ({ note: n.note, [n.where]: n.at }));
  const step: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    step: fc.oneof({ weight: 6, arbitrary: message }, { weight: 1, arbitrary: note }, { weight: 1, arbitrary: tie('frame') }),
    frame: fc.record({ frame: fc.constantFrom('loop', 'alt', 'opt', 'par'), label: fc.constantFrom('', 'when ready'), steps: fc.array(tie('step'), { minLength: 1, maxLength: 3 }) }),
  })).step;

  test('no label over anything, frames nest, every message between its two lifelines; read back, the same scene', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const { elements } = draw(seq(steps));
        const labelIssues = lintScene(elements).filter((issue) => ['label_overlap', 'text_over_icon', 'clipped_label', 'overlap'].includes(issue.kind));
        assert.deepEqual(labelIssues, []);
        const frames = elements.filter((e) => e.customData?.sequence === 'frame').map(box);
        for (const f of frames) {
          for (const g of frames) {
            if (f === g) continue;
            const apart = f.bottom <= g.top || g.bottom <= f.top || f.right <= g.left || g.right <= f.left;
            const inside = (p: typeof f, q: typeof f) => p.left >= q.left && p.right <= q.right && p.top >= q.top && p.bottom <= q.bottom;
            assert.ok(apart || inside(f, g) || inside(g, f), 'frames nest or stand apart');
          }
        }
        for (const arrow of elements.filter((e) => e.customData?.sequence === 'message')) {
          const xs = pointsOf(arrow).map((p) => p[0]);
          const ends = [arrow.startBinding.elementId, arrow.endBinding.elementId].map((bound: string) => elements.find((e) => e.id === bound)!);
          const lines = ends.map((e) => (e.customData?.sequence === 'lifeline' ? e.x : centreX(e)));
          if (ends[0] === ends[1]) continue;
          const [lo, hi] = [Math.min(...lines), Math.max(...lines)];
          assert.ok(Math.min(...xs) >= lo - 1 && Math.max(...xs) <= hi + 1, `${arrow.id} runs between its lifelines`);
        }
        assert.deepEqual(draw(JSON.parse(exportScene(elements, 'spec').text)).elements, elements, 'the spec read back draws the same scene');
      }),
      { numRuns: 60 },
    );
  });
});

describe('a sequence diagram edited in place', () => {
  const stamp = { now: 5, nonce: () => 7 };
  const base = seq(['a ->> b : one', { frame: 'loop', label: 'retry', steps: ['b ->> c : two'] }, 'c -->> a : three'], { autonumber: true });

  test('a message inserted after another goes there, inside its frame; what comes later moves down; every message keeps its id', () => {
    const { elements } = draw(base);
    const y = (els: El[], id: string) => pointsOf(els.find((e) => e.id === id)!)[0]![1];
    const { elements: after, added } = applyEdit(elements as never, { addEdges: [{ from: 'c', to: 'b', label: 'again' }], after: 'msg-2' }, stamp, { isIcon: isCatalogIcon });
    const edited = after as unknown as El[];
    assert.deepEqual(added, ['msg-4']);
    assert.ok(y(edited, 'msg-2') < y(edited, 'msg-4') && y(edited, 'msg-4') < y(edited, 'msg-3'), 'between the second and third message');
    assert.ok(y(edited, 'msg-3') > y(elements, 'msg-3'), 'the later message moved down');
    assert.equal(y(edited, 'msg-1'), y(elements, 'msg-1'), 'the earlier one stayed');
    const frame = box(edited.find((e) => e.id === 'frame-1')!);
    assert.ok(y(edited, 'msg-4') > frame.top && y(edited, 'msg-4') < frame.bottom, 'inside the loop');
    assert.equal(edited.find((e) => e.id === 'msg-4-label')!.text, '3. again', 'numbered in its place');
    assert.equal(edited.find((e) => e.id === 'msg-3-label')!.text, '4. three');
    assert.equal(edited.find((e) => e.id === 'a')!.version, elements.find((e) => e.id === 'a')!.version, 'what did not change (a box at the top) is not rewritten');
    assert.ok(edited.find((e) => e.id === 'msg-3')!.version > elements.find((e) => e.id === 'msg-3')!.version, 'what moved is a new version');
  });

  test("what a person set in the editor (a colour, a link, a lock) stays through an edit; a scene the editor saved with its keys in another order is not rewritten", () => {
    const { elements } = draw(base);
    // As the editor saves it: every element's keys in another order, and a person's touches on participant a.
    const saved = elements.map((e) => Object.fromEntries(Object.entries(e).reverse())) as El[];
    Object.assign(saved.find((e) => e.id === 'a')!, { backgroundColor: '#ffc9c9', fillStyle: 'solid', link: 'https://example.com/a', locked: true });
    const { elements: after } = applyEdit(saved as never, { addEdges: ['a -> b : four'] }, stamp, { isIcon: isCatalogIcon });
    const edited = after as unknown as El[];
    const a = edited.find((e) => e.id === 'a')!;
    assert.deepEqual([a.backgroundColor, a.fillStyle, a.link, a.locked], ['#ffc9c9', 'solid', 'https://example.com/a', true]);
    const rewritten = edited.filter((e) => saved.some((s) => s.id === e.id && s.version !== e.version)).map((e) => e.id);
    // A message at the end makes the lifelines longer (their foot boxes lower, the arrows' hold on them shifts); nothing else changes.
    assert.deepEqual(rewritten.filter((id) => !/-lifeline$|-foot(-label)?$|^msg-\d+$/.test(id)), [], 'the boxes, labels and frame are not rewritten');
    assert.ok(!rewritten.includes('a') && !rewritten.includes('msg-1-label'));
    assert.ok(edited.some((e) => e.id === 'msg-4'));
  });

  test("a participant's chosen icon is read back and kept through an edit; a type's own icon is not written out", () => {
    const { elements } = draw(seq(['fn ->> db : put'], { participants: [{ id: 'fn', icon: 'icon-aws-lambda' }, { id: 'db', type: 'database' }] }));
    const exported = JSON.parse(exportScene(elements, 'spec').text);
    assert.deepEqual(exported.participants, [{ id: 'fn', icon: 'icon-aws-lambda' }, { id: 'db', type: 'database' }]);
    const { elements: after } = applyEdit(elements as never, { addEdges: ['db -> fn : ok'] }, stamp, { isIcon: isCatalogIcon });
    assert.equal((after as unknown as El[]).find((e) => e.id === 'fn-icon')?.fileId, 'icon-aws-lambda');
  });

  test('a new participant joins at the right; a shape a person added stays; after on a flowchart is refused', () => {
    const { elements } = draw(base);
    const doodle = { ...elements.find((e) => e.id === 'note-1') ?? elements[0]!, id: 'doodle', type: 'ellipse', x: -300, y: 0, customData: undefined, groupIds: [], boundElements: [] };
    const { elements: after } = applyEdit([...elements, doodle] as never, { addNodes: [{ id: 'd', label: 'Audit' }], addEdges: ['c -> d : log'] }, stamp, { isIcon: isCatalogIcon });
    const edited = after as unknown as El[];
    const xs = ['a', 'b', 'c', 'd'].map((id) => edited.find((e) => e.id === `${id}-lifeline`)!.x);
    assert.deepEqual([...xs].sort((p, q) => p - q), xs, 'd right of the others');
    assert.ok(edited.some((e) => e.id === 'doodle' && e.x === -300), 'the doodle is kept as it was');
    assert.deepEqual(lintScene(edited.filter((e) => e.id !== 'doodle')), []);
    assert.throws(() => applyEdit(draw({ nodes: [{ id: 'x' }], edges: [] }).elements as never, { addNodes: [{ id: 'y' }], after: 'msg-1' }, stamp, { isIcon: isCatalogIcon }), /after places new messages in a sequence diagram/);
    assert.throws(() => applyEdit(elements as never, { addEdges: ['a -> b'], after: 'msg-9' }, stamp, { isIcon: isCatalogIcon }), /after names "msg-9"/);
  });
});

describe('lint on a sequence diagram', () => {
  test('a lifeline moved across a message label and a note moved over a participant’s box are each reported', () => {
    const { elements } = draw(seq(['a ->> b : a label to cross', 'b ->> c : next', { note: 'a note', over: 'c' }, 'c ->> a : back']));
    const moved = elements.map((e) => ({ ...e }));
    const label = moved.find((e) => e.id === 'msg-1-label')!;
    const lifeline = moved.find((e) => e.id === 'c-lifeline')!;
    lifeline.x = label.x + label.width / 2;
    const note = moved.find((e) => e.id === 'note-1')!;
    const head = moved.find((e) => e.id === 'a')!;
    [note.x, note.y] = [head.x + head.width - 20, head.y + 10];
    const kinds = lintScene(moved).map((issue) => `${issue.kind} ${[...issue.elementIds].sort().join(' ')}`);
    assert.ok(kinds.includes('label_overlap c-lifeline msg-1-label'), kinds.join('\n'));
    assert.ok(kinds.some((k) => k.startsWith('overlap') && k.includes('note-1') && k.includes(' a')), kinds.join('\n'));
  });
});

describe('a sequence diagram patched', () => {
  test('a lifeline moved by a patch takes the ends of its messages along; the diagram still lints clean and reads back the same', () => {
    const { elements } = draw(seq(['a ->> b : hello', 'b -->> a : hi', 'c ->> b : ping']));
    const end = (arrow: El) => pointsOf(arrow).at(-1)![0];
    const { elements: after } = applyPatch(elements as never, [{ op: 'move', id: 'b-lifeline', dx: 50, dy: 0 }], { now: 2, nonce: () => 3 }, { isIcon: isCatalogIcon });
    const patched = after as unknown as El[];
    const of = (list: El[], id: string) => list.find((e) => e.id === id)!;
    assert.equal(end(of(patched, 'msg-1')), end(of(elements, 'msg-1')) + 50);
    assert.equal(end(of(patched, 'msg-3')), end(of(elements, 'msg-3')) + 50);
    assert.deepEqual(lintScene(patched), []);
    assert.equal(exportScene(patched, 'mermaid').text, exportScene(elements, 'mermaid').text);
  });
});

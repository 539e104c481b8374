import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isCatalogIcon, listIcons } from '../../src/domain/icons/catalog.ts';
import { checkSpec, parseSpec } from '../../src/domain/spec/parse.ts';
import { parseShorthand, ShorthandError } from '../../src/domain/spec/shorthand.ts';
import { ApiError } from '../../src/errors.ts';

const ICONS = new Set(['icon-database', 'icon-user']);
const options = { isIcon: (id: string) => ICONS.has(id) };
const parse = (spec: unknown) => parseSpec(spec, options);

function rejects(spec: unknown, code: string, message: RegExp) {
  assert.throws(
    () => parse(spec),
    (error: unknown) => {
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.code, code, error.message);
      assert.match(error.message, message);
      return true;
    },
  );
}

describe('shorthand edges', () => {
  test('every arrow of the grammar', () => {
    assert.deepEqual(parseShorthand('api -> db'), { from: 'api', to: 'db', label: null, startArrowhead: 'none', endArrowhead: 'arrow', style: 'solid' });
    assert.deepEqual(parseShorthand('a <- b'), { from: 'a', to: 'b', label: null, startArrowhead: 'arrow', endArrowhead: 'none', style: 'solid' });
    assert.deepEqual(parseShorthand('a <-> b'), { from: 'a', to: 'b', label: null, startArrowhead: 'arrow', endArrowhead: 'arrow', style: 'solid' });
    assert.deepEqual(parseShorthand('a -- b'), { from: 'a', to: 'b', label: null, startArrowhead: 'none', endArrowhead: 'none', style: 'solid' });
    assert.deepEqual(parseShorthand('a --> b'), { from: 'a', to: 'b', label: null, startArrowhead: 'none', endArrowhead: 'arrow', style: 'dashed' });
  });

  test('quoted endpoints, labels, and no spaces', () => {
    assert.deepEqual(parseShorthand('"web app" --> api : HTTPS'), { from: 'web app', to: 'api', label: 'HTTPS', startArrowhead: 'none', endArrowhead: 'arrow', style: 'dashed' });
    assert.equal(parseShorthand('a->b').to, 'b');
    assert.equal(parseShorthand('web-app -> db').from, 'web-app');
    assert.equal(parseShorthand('"a -> b" -> "say \\"hi\\"": x: y').to, 'say "hi"');
    assert.equal(parseShorthand('"a -> b" -> c : x: y').label, 'x: y');
    assert.equal(parseShorthand('a -> b:label').label, 'label');
  });

  test('missing pieces are refused', () => {
    for (const text of ['', 'a', 'a ->', '-> b', 'a b', 'a => b', '"a -> b', 'a -> b extra', 'a -> b :', '"" -> b']) {
      assert.throws(() => parseShorthand(text), ShorthandError, text);
    }
  });
});

describe('parseSpec', () => {
  test('a small spec with defaults', () => {
    const spec = parse({ version: '1', nodes: [{ id: 'api' }, { id: 'db', shape: 'ellipse', label: 'Postgres', icon: 'icon-database' }], edges: ['api -> db : SQL', { from: 'db', to: 'api', arrowhead: 'dot', style: 'dotted' }] });
    assert.equal(spec.direction, 'TB');
    assert.deepEqual(spec.nodes[0], { id: 'api', label: 'api', shape: 'rectangle', icon: null, strokeColor: null, backgroundColor: null, fillStyle: null, parent: null });
    assert.equal(spec.nodes[1]!.icon, 'icon-database');
    assert.deepEqual(
      spec.edges.map((e) => [e.id, e.label, e.startArrowhead, e.endArrowhead, e.style]),
      [
        ['api-to-db', 'SQL', 'none', 'arrow', 'solid'],
        ['db-to-api', null, 'none', 'dot', 'dotted'],
      ],
    );
  });

  test('repeated edges get -2, -3 in spec order', () => {
    const spec = parse({ nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b', 'a -> b', { from: 'a', to: 'b' }, 'b -> a'] });
    assert.deepEqual(spec.edges.map((e) => e.id), ['a-to-b', 'a-to-b-2', 'a-to-b-3', 'b-to-a']);
  });

  test('every direction is accepted', () => {
    for (const direction of ['TB', 'BT', 'LR', 'RL']) assert.equal(parse({ nodes: [], edges: [], layout: { direction } }).direction, direction);
  });

  test('each content-model code names the offending element', () => {
    rejects(null, 'INVALID_SPEC', /spec must be an object/);
    rejects({ nodes: {} }, 'INVALID_SPEC', /spec.nodes/);
    rejects({ nodes: [], wat: 1 }, 'INVALID_SPEC', /"wat"/);
    rejects({ nodes: [{ id: 'a', x: 3 }] }, 'INVALID_SPEC', /nodes\[0\].*"x"/);
    rejects({ nodes: [{ id: 'a', label: 7 }] }, 'INVALID_SPEC', /nodes\[0\].*label/);
    rejects({ nodes: [{ id: 'a', fillStyle: 'plaid' }] }, 'INVALID_SPEC', /fillStyle/);
    rejects({ nodes: [{ id: 'a', strokeColor: 'red" onload="x' }] }, 'INVALID_SPEC', /strokeColor/);
    rejects({ nodes: [], layout: { direction: 'UP' } }, 'INVALID_SPEC', /direction/);
    rejects({ nodes: [{ id: 'a', parent: 'nope' }] }, 'INVALID_SPEC', /nodes\[0\].*parent/);
    rejects({ nodes: [{ id: 'a', parent: 'b' }, { id: 'b', parent: 'zz' }] }, 'INVALID_SPEC', /nodes\[1\].*"zz"/);
    rejects({ nodes: [{ id: 'a', parent: 'b' }, { id: 'b', shape: 'ellipse' }] }, 'INVALID_SPEC', /rectangle/);
    rejects({ nodes: [{ id: 'a', parent: 'b' }, { id: 'b', parent: 'a' }] }, 'INVALID_SPEC', /cycle/);
    rejects({ version: '2', nodes: [] }, 'UNSUPPORTED_VERSION', /"2"/);
    rejects({ version: 1.5, nodes: [] }, 'UNSUPPORTED_VERSION', /1.5/);
    rejects({ nodes: [{ id: 'a' }, { label: 'no id' }] }, 'MISSING_NODE_ID', /nodes\[1\]/);
    rejects({ nodes: [{ id: '' }] }, 'MISSING_NODE_ID', /nodes\[0\]/);
    rejects({ nodes: ['a'] }, 'MISSING_NODE_ID', /nodes\[0\]/);
    rejects({ nodes: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] }, 'DUPLICATE_NODE_ID', /nodes\[2\].*"a".*nodes\[0\]/);
    rejects({ nodes: [{ id: 'a', shape: 'octagon' }] }, 'UNKNOWN_SHAPE', /nodes\[0\].*octagon/);
    rejects({ nodes: [{ id: 'a', icon: 'icon-nope' }] }, 'UNKNOWN_ICON', /nodes\[0\].*icon-nope/);
    rejects({ nodes: [{ id: 'a' }], edges: ['a -> db'] }, 'DANGLING_EDGE', /edges\[0\] "a -> db".*"db"/);
    rejects({ nodes: [{ id: 'a' }], edges: [{ from: 'ghost', to: 'a' }] }, 'DANGLING_EDGE', /edges\[0\].*"ghost"/);
    rejects({ nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a b'] }, 'MALFORMED_SHORTHAND', /edges\[0\] "a b".*arrow/);
    rejects({ nodes: [{ id: 'a' }], edges: ['a ->'] }, 'MALFORMED_SHORTHAND', /edges\[0\]/);
    rejects({ nodes: [{ id: 'a' }], edges: [{ from: 'a' }] }, 'MALFORMED_EDGE', /edges\[0\].*"to"/);
    rejects({ nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'a', arrowhead: 'spear' }] }, 'MALFORMED_EDGE', /edges\[0\] "a -> a".*arrowhead/);
    rejects({ nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'a', label: ['x'] }] }, 'MALFORMED_EDGE', /label/);
    rejects({ nodes: [{ id: 'a' }], edges: [7] }, 'MALFORMED_EDGE', /edges\[0\]/);
    rejects({ nodes: Array.from({ length: 1001 }, (_, i) => ({ id: `n${i}` })) }, 'SPEC_TOO_LARGE', /1001 nodes/);
    rejects({ nodes: [{ id: 'a' }], edges: Array.from({ length: 2001 }, () => 'a -> a') }, 'SPEC_TOO_LARGE', /2001 edges/);
    rejects({ nodes: [{ id: 'x'.repeat(101) }] }, 'SPEC_TOO_LARGE', /nodes\[0\]/);
    rejects({ nodes: [{ id: 'a', label: 'y'.repeat(501) }] }, 'SPEC_TOO_LARGE', /nodes\[0\].*label/);
    rejects({ nodes: [{ id: 'a' }, { id: 'b' }, { id: 'a-to-b' }], edges: ['a -> b'] }, 'ID_COLLISION', /nodes\[2\].*"a-to-b".*edges\[0\]/);
    rejects({ nodes: [{ id: 'a' }, { id: 'a-label' }] }, 'ID_COLLISION', /nodes\[1\].*label of nodes\[0\]/);
    rejects({ nodes: [{ id: 'a' }, { id: 'b' }, { id: 'a-to-b-head-label' }], edges: [{ from: 'a', to: 'b', headLabel: '*' }] }, 'ID_COLLISION', /nodes\[2\].*head label of edges\[0\]/);
    rejects({ nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'a', tailLabel: 3 }] }, 'MALFORMED_EDGE', /edges\[0\] "a -> a"\.tailLabel must be a string/);
    rejects({ nodes: [{ id: 'diagram-caption' }], caption: 'Flow' }, 'ID_COLLISION', /nodes\[0\].*the caption/);
    assert.equal(parse({ nodes: [{ id: 'diagram-caption' }], caption: '  ' }).caption, undefined, 'a blank caption draws nothing and takes no id');
    rejects({ nodes: [{ id: 'a' }], caption: 'y'.repeat(501) }, 'SPEC_TOO_LARGE', /spec\.caption is 501 characters long/);
    rejects({ nodes: [{ id: 'a' }], caption: 5 }, 'INVALID_SPEC', /spec\.caption must be a string/);
    rejects({ nodes: [{ id: 'a' }], caption: 'Flow', layout: { captionAt: 'left' } }, 'INVALID_SPEC', /spec\.layout\.captionAt must be one of top, bottom; got "left"/);
    rejects(JSON.parse('{"nodes":[{"id":"a","__proto__":{"x":1}}]}'), 'PROTO_KEY', /__proto__/);
  });

  test('any input yields a spec or a content-model code, never a crash', () => {
    const codes = new Set(['INVALID_SPEC', 'UNSUPPORTED_VERSION', 'MISSING_NODE_ID', 'DUPLICATE_NODE_ID', 'UNKNOWN_SHAPE', 'UNKNOWN_ICON', 'DANGLING_EDGE', 'MALFORMED_SHORTHAND', 'MALFORMED_EDGE', 'SPEC_TOO_LARGE', 'ID_COLLISION', 'PROTO_KEY']);
    const id = fc.constantFrom('a', 'b', 'c', 'a-to-b', 'a-label', '', 'web app', 'x->y');
    const node = fc.oneof(fc.record({ id, label: fc.option(fc.string()), shape: fc.constantFrom('rectangle', 'ellipse', 'diamond', 'text', 'star', undefined), icon: fc.constantFrom(undefined, 'icon-user', 'icon-x'), parent: fc.constantFrom(undefined, 'a', 'b', 'zz') }, { requiredKeys: ['id'] }), fc.anything());
    const edge = fc.oneof(fc.string(), fc.tuple(id, fc.constantFrom('->', '<-', '<->', '--', '-->', '=>', ''), id, fc.option(fc.string())).map(([a, arrow, b, label]) => `${a} ${arrow} ${b}${label === null ? '' : ` : ${label}`}`), fc.record({ from: id, to: id, arrowhead: fc.constantFrom('arrow', 'dot', 'nope', undefined) }, { requiredKeys: [] }), fc.anything());
    const spec = fc.oneof(fc.record({ version: fc.constantFrom(undefined, '1', 1, '2'), nodes: fc.array(node, { maxLength: 6 }), edges: fc.array(edge, { maxLength: 8 }), layout: fc.constantFrom(undefined, { direction: 'LR' }, { direction: 'XX' }) }, { requiredKeys: [] }), fc.anything());
    fc.assert(
      fc.property(spec, (value) => {
        try {
          const parsed = parseSpec(value, options);
          const ids = new Set(parsed.nodes.map((n) => n.id));
          for (const e of parsed.edges) assert.ok(ids.has(e.from) && ids.has(e.to));
        } catch (error) {
          assert.ok(error instanceof ApiError && codes.has(error.code), String(error));
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 2000) },
    );
  });
});

describe('the fields for shapes, styles and layout hints', () => {
  const node = (fields: Record<string, unknown>) => parse({ nodes: [{ id: 'a', ...fields }] }).nodes[0]!;
  const edge = (fields: Record<string, unknown>) => parse({ nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b', ...fields }] }).edges[0]!;

  test('every new shape is accepted', () => {
    for (const shape of ['cylinder', 'stadium', 'circle', 'hexagon', 'parallelogram', 'subroutine', 'document']) assert.equal(node({ shape }).shape, shape);
  });

  test('node styles within their ranges, set only when given', () => {
    const styled = node({ textColor: '#c92a2a', bold: true, italic: true, strokeWidth: 0.5, strokeStyle: 'dotted', direction: 'LR', invisible: true });
    assert.deepEqual(
      [styled.textColor, styled.bold, styled.italic, styled.strokeWidth, styled.strokeStyle, styled.direction, styled.invisible],
      ['#c92a2a', true, true, 0.5, 'dotted', 'LR', true],
    );
    assert.equal(node({ strokeWidth: 16 }).strokeWidth, 16);
    const plain = node({ bold: false, italic: null, textColor: null });
    for (const key of ['textColor', 'bold', 'italic', 'strokeWidth', 'strokeStyle', 'direction', 'invisible']) assert.ok(!(key in plain), key);
  });

  test('edge styles and layout hints within their ranges', () => {
    const styled = edge({ style: 'invisible', strokeWidth: 4, strokeColor: 'red', constraint: false, minLength: 0 });
    assert.deepEqual([styled.style, styled.strokeWidth, styled.strokeColor, styled.constraint, styled.minLength], ['invisible', 4, 'red', false, 0]);
    assert.equal(edge({ minLength: 10 }).minLength, 10);
    assert.ok(!('constraint' in edge({ constraint: true })));
    const spec = parse({ nodes: [{ id: 'a' }, { id: 'b' }], layout: { fold: 'off', sameRank: [['a', 'b']] } });
    assert.equal(spec.fold, 'off');
    assert.deepEqual(spec.sameRank, [['a', 'b']]);
    assert.ok(!('sameRank' in parse({ nodes: [] })));
  });

  test('each refused out of its range, with its code and message', () => {
    const one = (fields: Record<string, unknown>) => ({ nodes: [{ id: 'a', ...fields }] });
    const link = (fields: Record<string, unknown>) => ({ nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b', ...fields }] });
    rejects(one({ textColor: 'red;' }), 'INVALID_SPEC', /^nodes\[0\] \(id "a"\)\.textColor must be a CSS colour/);
    rejects(one({ bold: 'yes' }), 'INVALID_SPEC', /^nodes\[0\] \(id "a"\)\.bold must be true or false; got "yes"/);
    rejects(one({ italic: 1 }), 'INVALID_SPEC', /\.italic must be true or false; got 1/);
    rejects(one({ invisible: 'true' }), 'INVALID_SPEC', /\.invisible must be true or false/);
    rejects(one({ strokeWidth: 0.4 }), 'INVALID_SPEC', /\.strokeWidth must be a number from 0.5 to 16; got 0.4/);
    rejects(one({ strokeWidth: 17 }), 'INVALID_SPEC', /\.strokeWidth must be a number from 0.5 to 16; got 17/);
    rejects(one({ strokeStyle: 'invisible' }), 'INVALID_SPEC', /\.strokeStyle must be one of solid, dashed, dotted; got "invisible"/);
    rejects(one({ direction: 'TD' }), 'INVALID_SPEC', /\.direction must be one of TB, BT, LR, RL; got "TD".*use "TB"/);
    rejects(link({ style: 'hidden' }), 'MALFORMED_EDGE', /^edges\[0\] "a -> b"\.style must be one of solid, dashed, dotted, invisible; got "hidden"/);
    rejects(link({ strokeWidth: 0 }), 'MALFORMED_EDGE', /^edges\[0\] "a -> b"\.strokeWidth must be a number from 0.5 to 16; got 0/);
    rejects(link({ strokeColor: 5 }), 'MALFORMED_EDGE', /\.strokeColor must be a CSS colour/);
    rejects(link({ constraint: 'no' }), 'MALFORMED_EDGE', /\.constraint must be true or false; got "no"/);
    rejects(link({ minLength: 11 }), 'MALFORMED_EDGE', /\.minLength must be a whole number from 0 to 10; got 11/);
    rejects(link({ minLength: 1.5 }), 'MALFORMED_EDGE', /\.minLength must be a whole number from 0 to 10; got 1.5/);
    rejects(link({ minLength: -1 }), 'MALFORMED_EDGE', /\.minLength/);
    rejects({ nodes: [], layout: { fold: 'yes' } }, 'INVALID_SPEC', /^spec\.layout\.fold must be one of auto, off; got "yes"/);
    rejects({ nodes: [], layout: { sameRank: ['a', 'b'] } }, 'INVALID_SPEC', /^spec\.layout\.sameRank must be a list of lists of node ids/);
    rejects({ nodes: [{ id: 'a' }], layout: { sameRank: [['a', 'B']] } }, 'INVALID_SPEC', /^spec\.layout\.sameRank\[0\]\[1\] names "B", which is not a node id/);
    rejects({ nodes: [], layout: { rankdir: 'LR' } }, 'INVALID_SPEC', /layout has an unknown field "rankdir".*"fold".*"sameRank"/);
  });
});

describe('the hint for an unknown icon', () => {
  const hintOf = (icon: string) => checkSpec({ nodes: [{ id: 'a', icon }] }, { isIcon: isCatalogIcon }).problems[0]!.hint!;
  test('names the icon meant, or a query that finds it: following it succeeds', () => {
    const meantFor = [
      ['apacheflink', 'icon-flink'],
      ['icon-apache-flink', 'icon-flink'],
      ['postgresql', 'icon-postgresql'],
      ['postgres', 'icon-postgresql'],
      ['icon-mongo', 'icon-mongodb'],
      // The cloud and platform sets, as people and agents guess their ids.
      ['icon-aws-s3', 'icon-aws-simple-storage-service'],
      ['icon-amazon-sqs', 'icon-aws-simple-queue-service'],
      ['icon-lambda', 'icon-aws-lambda'],
      ['icon-azure-aks', 'icon-azure-kubernetes-services'],
      ['icon-azure-functions', 'icon-azure-function-apps'],
      ['icon-gcp-gke', 'icon-gcp-google-kubernetes-engine'],
      ['icon-gcp-pub-sub', 'icon-gcp-pubsub'],
      ['kubernetes-pod', 'icon-k8s-pod'],
      ['icon-k8s-svc', 'icon-k8s-service'],
    ] as const;
    for (const [written, meant] of meantFor) {
      assert.equal(hintOf(written), `use "${meant}"`, written);
      assert.deepEqual(checkSpec({ nodes: [{ id: 'a', icon: meant }] }, { isIcon: isCatalogIcon }).problems, [], `${meant} is taken`);
    }
    // No icon is meant by all of it: a query with the word that finds one.
    for (const [written, found] of [['icon-mongo-xyzzy', 'icon-mongodb'], ['icon-s3-frobnicator', 'icon-aws-simple-storage-service']] as const) {
      const q = decodeURIComponent(/\?q=([^,]+),/.exec(hintOf(written))![1]!);
      assert.ok(listIcons({ q }).some((icon) => icon.id === found), `?q=${q} finds ${found}`);
    }
  });
});

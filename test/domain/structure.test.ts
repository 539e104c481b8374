/**
 * Class and entity-relationship diagrams: the relation strings, each
 * construct drawn (compartments sized to their text, superclasses above,
 * the editor's UML and crow's-foot heads at the right ends, multiplicities
 * beside them, namespaces around their classes, notes joined to their
 * class), the checks' refusals, and Mermaid's classDiagram and erDiagram
 * read into the same specs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';
import { sceneProblems } from '../../src/domain/scene/validate.ts';
import { applyEdit } from '../../src/domain/edit/apply.ts';
import { exportScene } from '../../src/domain/export/export.ts';
import { importMermaid } from '../../src/domain/source/mermaid.ts';
import { checkAnySpec, sceneOfSpec } from '../../src/domain/spec/any-spec.ts';
import { parseClassRelation, parseErRelation } from '../../src/domain/structure/relations.ts';
import { measureText } from '../../src/domain/text/metrics.ts';
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
const codes = (spec: unknown) => checkAnySpec(spec, { isIcon: isCatalogIcon }).problems.map((p) => `${p.code} ${p.path}`);
const box = (e: El) => ({ left: e.x, top: e.y, right: e.x + e.width, bottom: e.y + e.height });
const ends = (arrow: El): [number, number][] => [arrow.points[0], arrow.points.at(-1)].map(([x, y]: number[]) => [arrow.x + x, arrow.y + y]);
const arrowBetween = (elements: El[], a: string, b: string) => elements.find((e) => e.type === 'arrow' && e.startBinding?.elementId === a && e.endBinding?.elementId === b)!;

describe('relation strings', () => {
  test('class relations: each mark at either end, multiplicities and a label', () => {
    assert.deepEqual(parseClassRelation('Animal <|-- Dog'), { from: 'Animal', to: 'Dog', line: 'solid', startHead: 'triangle_outline', endHead: 'none', label: '', fromText: '', toText: '' });
    assert.deepEqual(parseClassRelation('Car "1" *-- "4" Wheel : has'), { from: 'Car', to: 'Wheel', line: 'solid', startHead: 'diamond', endHead: 'none', label: 'has', fromText: '1', toText: '4' });
    const cases: Array<[string, string, string, string]> = [
      ['A o-- B', 'diamond_outline', 'none', 'solid'],
      ['A --> B', 'none', 'arrow', 'solid'],
      ['A ..> B', 'none', 'arrow', 'dashed'],
      ['A ..|> B', 'none', 'triangle_outline', 'dashed'],
      ['A -- B', 'none', 'none', 'solid'],
      ['A .. B', 'none', 'none', 'dashed'],
      ['A <|--|> B', 'triangle_outline', 'triangle_outline', 'solid'],
    ];
    for (const [text, start, end, line] of cases) {
      const r = parseClassRelation(text)!;
      assert.deepEqual([r.startHead, r.endHead, r.line], [start, end, line], text);
    }
    assert.equal(parseClassRelation('A<|--B'), null, 'spaces around the mark are required');
  });

  test("ER relationships: each cardinality at each end, identifying or not", () => {
    assert.deepEqual(parseErRelation('CUSTOMER ||--o{ ORDER : places'), { from: 'CUSTOMER', to: 'ORDER', fromCardinality: 'one', toCardinality: 'zeroOrMore', identifying: true, label: 'places' });
    assert.deepEqual(parseErRelation('A |o..|{ B : "is of"'), { from: 'A', to: 'B', fromCardinality: 'zeroOrOne', toCardinality: 'oneOrMore', identifying: false, label: 'is of' });
    assert.equal(parseErRelation('A }o--o| B')!.fromCardinality, 'zeroOrMore');
    assert.equal(parseErRelation('A -- B'), null);
  });
});

describe('a class diagram drawn', () => {
  const spec = {
    kind: 'class',
    classes: [
      { id: 'Shape', annotation: 'interface', methods: ['+area() double'] },
      { id: 'Circle', attributes: ['-radius: double'], methods: ['+area() double'] },
      { id: 'Canvas', generic: 'T', namespace: 'ui', attributes: ['-items: List~Shape~'] },
    ],
    relations: ['Shape <|.. Circle', { from: 'Drawing', to: 'Shape', type: 'aggregation', fromMultiplicity: '1', toMultiplicity: '*' }, { from: 'Drawing', to: 'Canvas', type: 'dependency', label: 'draws on' }],
    notes: [{ note: 'a circle is round', for: 'Circle' }],
  };

  test('compartments: the name on top, attributes then methods below dividers, the box as wide as its longest line', () => {
    const { byId } = draw(spec);
    const circle = box(byId('Circle'));
    const label = byId('Circle-label');
    assert.equal(label.verticalAlign, 'top');
    assert.ok(label.y < byId('Circle-divider-1').y, 'the name above the first divider');
    assert.equal(byId('Circle-section-1').text, '-radius: double');
    assert.equal(byId('Circle-section-2').text, '+area() double');
    assert.ok(byId('Circle-divider-1').y < byId('Circle-section-1').y && byId('Circle-section-1').y < byId('Circle-divider-2').y && byId('Circle-divider-2').y < byId('Circle-section-2').y);
    assert.ok(box(byId('Circle-section-2')).bottom <= circle.bottom, 'the methods inside the box');
    assert.ok(circle.right - circle.left >= measureText('-radius: double', 16, 5).width + 2 * 12 - 0.5, 'as wide as its text and its margins');
    assert.equal(byId('Circle').roundness, null, 'square corners');
    for (const id of ['Circle-label', 'Circle-divider-1', 'Circle-section-1']) assert.ok(byId(id).groupIds.includes('Circle-group'), `${id} in the class's group`);
  });

  test('the name with its annotation above and its generic parameter; Mermaid generics drawn with angle brackets', () => {
    const { byId } = draw(spec);
    assert.equal(byId('Shape-label').originalText, '«interface»\nShape');
    assert.equal(byId('Canvas-label').originalText, 'Canvas<T>');
    assert.equal(byId('Canvas-section-1').text, '-items: List<Shape>');
  });

  test('inheritance points up with a hollow triangle; aggregation has a hollow diamond at the whole, its multiplicities beside the ends', () => {
    const { byId, elements } = draw(spec);
    assert.ok(box(byId('Shape')).bottom < box(byId('Circle')).top, 'the interface above its realisation');
    const realisation = arrowBetween(elements, 'Shape', 'Circle');
    assert.equal(realisation.startArrowhead, 'triangle_outline');
    assert.equal(realisation.endArrowhead, null);
    assert.equal(realisation.strokeStyle, 'dashed');
    const aggregation = arrowBetween(elements, 'Drawing', 'Shape');
    assert.equal(aggregation.startArrowhead, 'diamond_outline');
    assert.ok(box(byId('Drawing')).bottom < box(byId('Shape')).top, 'the whole above its part');
    const start = ends(aggregation)[0]!;
    const texts = elements.filter((e) => e.type === 'text' && (e.text === '1' || e.text === '*'));
    assert.equal(texts.length, 2, 'both multiplicities drawn');
    const one = texts.find((t) => t.text === '1')!;
    assert.ok(Math.hypot(one.x - start[0], one.y - start[1]) < 60, 'the "1" beside the whole’s end');
    assert.equal(arrowBetween(elements, 'Drawing', 'Canvas').endArrowhead, 'arrow');
  });

  test('a namespace is a container around its classes; a note is joined to its class by a dashed line', () => {
    const { byId, elements } = draw(spec);
    const ns = box(byId('namespace-1'));
    const canvas = box(byId('Canvas'));
    assert.ok(ns.left < canvas.left && ns.right > canvas.right && ns.top < canvas.top && ns.bottom > canvas.bottom);
    assert.equal(byId('namespace-1-label').text, 'ui');
    assert.equal(byId('note-1').backgroundColor, '#fff3bf');
    assert.equal(arrowBetween(elements, 'note-1', 'Circle').strokeStyle, 'dashed');
  });

  test('the scene is valid, lints clean and survives the editor’s restore unchanged', async () => {
    const { elements } = draw(spec);
    assert.deepEqual(sceneProblems({ elements }, { isIcon: isCatalogIcon }), []);
    assert.deepEqual(lintScene(elements), []);
    await assertSurvivesRestore(elements);
  });
});

describe('an ER diagram drawn', () => {
  const spec = {
    kind: 'er',
    entities: [
      { id: 'CUSTOMER', attributes: ['int id PK', 'string email UK "login name"'] },
      { id: 'ORDER', attributes: [{ type: 'int', name: 'customer_id', keys: ['FK'] }] },
    ],
    relationships: ['CUSTOMER ||--o{ ORDER : places', { from: 'ORDER', to: 'ADDRESS', fromCardinality: 'oneOrMore', toCardinality: 'one', identifying: false }],
  };

  test('attributes as a table: types, names, keys and comments in columns', () => {
    const { byId } = draw(spec);
    assert.equal(byId('CUSTOMER-section-1-1').text, 'int\nstring');
    assert.equal(byId('CUSTOMER-section-1-2').text, 'id\nemail');
    assert.equal(byId('CUSTOMER-section-1-3').text, 'PK\nUK');
    assert.equal(byId('CUSTOMER-section-1-4').text, '\nlogin name');
    const xs = [1, 2, 3, 4].map((c) => byId(`CUSTOMER-section-1-${c}`).x);
    assert.deepEqual([...xs].sort((a, b) => a - b), xs, 'columns left to right');
    assert.ok(box(byId('CUSTOMER-section-1-4')).right <= box(byId('CUSTOMER')).right, 'inside the box');
  });

  test("crow's feet at the right ends; zero or one says so beside it; a non-identifying relationship is dashed", () => {
    const { elements } = draw({ ...spec, relationships: [...spec.relationships, 'ORDER |o--|| INVOICE : billed'] });
    const places = arrowBetween(elements, 'CUSTOMER', 'ORDER');
    assert.deepEqual([places.startArrowhead, places.endArrowhead, places.strokeStyle], ['crowfoot_one', 'crowfoot_many', 'solid']);
    assert.ok(!elements.some((e) => e.type === 'text' && e.text === '0..*'), 'zero or more is the head of many alone');
    assert.ok(elements.some((e) => e.id === 'ORDER-to-INVOICE-tail-label' && e.text === '0..1'), 'zero or one written beside its end');
    const lives = arrowBetween(elements, 'ORDER', 'ADDRESS');
    assert.deepEqual([lives.startArrowhead, lives.endArrowhead, lives.strokeStyle], ['crowfoot_one_or_many', 'crowfoot_one', 'dashed']);
  });

  test('an entity without attributes is its name alone; the scene lints clean and survives restore', async () => {
    const { elements, byId } = draw(spec);
    assert.ok(!elements.some((e) => e.id === 'ADDRESS-divider-1'));
    assert.ok(byId('ADDRESS'));
    assert.deepEqual(lintScene(elements), []);
    await assertSurvivesRestore(elements);
  });
});

describe('class and ER specs refused', () => {
  test('each mistake named with its code and where it is', () => {
    assert.deepEqual(codes({ kind: 'class', relations: ['A<|--B'] }), ['MALFORMED_SHORTHAND /relations/0']);
    assert.deepEqual(codes({ kind: 'class', relations: [{ from: 'A', to: 'B', type: 'extends' }] }), ['MALFORMED_EDGE /relations/0/type']);
    assert.deepEqual(codes({ kind: 'class', classes: ['A', 'A'] }), ['DUPLICATE_NODE_ID /classes/1']);
    assert.deepEqual(codes({ kind: 'class', classes: [{ id: 'A', fields: [] }] }), ['INVALID_SPEC /classes/0/fields']);
    assert.deepEqual(codes({ kind: 'class', classes: ['A'], notes: [{ note: 'x', for: 'B' }] }), ['DANGLING_EDGE /notes/0/for']);
    assert.deepEqual(codes({ kind: 'class', classes: ['A', 'A-label'] }), ['ID_COLLISION ']);
    // A class named like a relation's arrow is refused by the check, not by the drawing later.
    assert.deepEqual(codes({ kind: 'class', classes: ['A', 'B', 'A-to-B'], relations: ['A <|-- B'] }), ['ID_COLLISION ']);
    assert.deepEqual(codes({ kind: 'er', entities: [{ id: 'A' }, { id: 'B' }, { id: 'A-to-B' }], relationships: ['A ||--o{ B : has'] }), ['ID_COLLISION ']);
    assert.deepEqual(codes({ kind: 'er', relationships: ['A ||--o{ B : x', 'A -- B'] }), ['MALFORMED_SHORTHAND /relationships/1']);
    assert.deepEqual(codes({ kind: 'er', relationships: [{ from: 'A', to: 'B', fromCardinality: 'many', toCardinality: 'one' }] }), ['MALFORMED_EDGE /relationships/0/fromCardinality']);
    assert.deepEqual(codes({ kind: 'er', entities: [{ id: 'A', attributes: ['id'] }] }), ['INVALID_SPEC /entities/0/attributes/0']);
    assert.deepEqual(codes({ kind: 'er', entitys: [] }), ['INVALID_SPEC /entitys']);
  });
});

describe('Mermaid’s classDiagram and erDiagram', () => {
  test('a class diagram: classes with annotation, generic and members, relations with marks and multiplicities, namespaces, notes', async () => {
    const { spec, warnings } = await importMermaid(
      [
        'classDiagram',
        '  class Animal~T~ {',
        '    <<interface>>',
        '    +String name',
        '    +eat(food) bool$',
        '    +sleep()*',
        '  }',
        '  Animal <|-- Dog : is',
        '  Car "1" *-- "4" Wheel',
        '  namespace Zoo {',
        '    class Keeper',
        '  }',
        '  Keeper --> Animal : feeds',
        '  Dog ..> Bone',
        '  note for Dog "good boy"',
        '  class Bone:::hot',
      ].join('\n'),
    );
    assert.deepEqual(spec, {
      kind: 'class',
      classes: [
        { id: 'Animal', annotation: 'interface', generic: 'T', attributes: ['+String name'], methods: ['+eat(food) : bool$', '+sleep()*'] },
        { id: 'Dog' },
        { id: 'Car' },
        { id: 'Wheel' },
        { id: 'Keeper', namespace: 'Zoo' },
        { id: 'Bone' },
      ],
      relations: ['Animal <|-- Dog : is', 'Car "1" *-- "4" Wheel', 'Keeper --> Animal : feeds', 'Dog ..> Bone'],
      notes: [{ note: 'good boy', for: 'Dog' }],
    });
    assert.deepEqual(warnings.map((w) => w.message), ['styles and classes of classes are not drawn']);
    assert.deepEqual(lintScene(draw(spec).elements), []);
  });

  test('an ER diagram: entities with attributes in order, relationships with the cardinality at each end', async () => {
    const { spec } = await importMermaid(
      ['erDiagram', '  CUSTOMER ||--o{ ORDER : places', '  CUSTOMER {', '    string name', '    string custNumber PK "the number"', '  }', '  ORDER }|..|{ ADDRESS : "ships to"', '  ORDER |o--|| INVOICE : has'].join('\n'),
    );
    assert.deepEqual(spec, {
      kind: 'er',
      entities: [{ id: 'CUSTOMER', attributes: [{ type: 'string', name: 'name' }, { type: 'string', name: 'custNumber', keys: ['PK'], comment: 'the number' }] }, 'ORDER', 'ADDRESS', 'INVOICE'],
      relationships: ['CUSTOMER ||--o{ ORDER : places', 'ORDER }|..|{ ADDRESS : ships to', 'ORDER |o--|| INVOICE : has'],
    });
    assert.deepEqual(lintScene(draw(spec).elements), []);
  });
});

describe('class and ER diagrams written back', () => {
  const byId = (list: unknown[] | undefined) => [...(list ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  test('a class diagram as Mermaid, read again: the same classes, relations and notes', async () => {
    const text = ['classDiagram', '  class Animal~T~ {', '    <<interface>>', '    +String name', '    +eat(food) bool$', '  }', '  Animal <|-- Dog : is', '  Car "1" *-- "4" Wheel', '  namespace Zoo {', '    class Keeper', '  }', '  Keeper --> Animal : feeds', '  Dog ..> Bone', '  note for Dog "good boy"'].join('\n');
    const first = (await importMermaid(text)).spec as { classes: unknown[]; relations: unknown[]; notes: unknown[] };
    const written = exportScene(draw(first).elements, 'mermaid');
    assert.deepEqual(written.warnings, []);
    const again = (await importMermaid(written.text)).spec as typeof first;
    assert.deepEqual(byId(again.classes), byId(first.classes));
    assert.deepEqual(again.relations, first.relations);
    assert.deepEqual(again.notes, first.notes);
  });

  test('an ER diagram as Mermaid, read again: the same entities and relationships', async () => {
    const text = ['erDiagram', '  CUSTOMER ||--o{ ORDER : places', '  CUSTOMER {', '    string name', '    string custNumber PK "the number"', '  }', '  ORDER }|..|{ ADDRESS : "ships to"', '  ORDER |o--|| INVOICE : has'].join('\n');
    const first = (await importMermaid(text)).spec;
    const written = exportScene(draw(first).elements, 'mermaid');
    assert.deepEqual((await importMermaid(written.text)).spec, first);
  });

  test('as its spec: drawing the exported spec again gives the same scene', () => {
    const spec = { kind: 'class', classes: [{ id: 'A', annotation: 'abstract', attributes: ['+x int'], methods: ['+f() void'] }], relations: ['A <|-- B', 'B "1" o-- "*" C : has'], notes: [{ note: 'n', for: 'C' }] };
    const { elements } = draw(spec);
    assert.deepEqual(draw(JSON.parse(exportScene(elements, 'spec').text)).elements, elements);
  });
});

describe('class and ER diagrams edited in place', () => {
  const stamp = { now: 5, nonce: () => 7 };

  test('a new class is a box in compartments beside what it connects to; the others stay; it reads back with its members', () => {
    const { elements } = draw({ kind: 'class', classes: [{ id: 'Shape', annotation: 'interface', methods: ['+area() double'] }, { id: 'Circle', attributes: ['-r: double'] }], relations: ['Shape <|.. Circle'] });
    const { elements: after, added } = applyEdit(elements as never, { addNodes: [{ id: 'Square', attributes: ['-side: double', '-tags: List~String~'], methods: ['+area() double'] }], addEdges: [{ from: 'Square', to: 'Shape', arrowhead: 'triangle' }] }, stamp, { isIcon: isCatalogIcon });
    const edited = after as unknown as El[];
    assert.deepEqual(added, ['Square', 'Square-to-Shape']);
    for (const e of elements) if (e.type !== 'arrow' && !['Shape'].includes(e.id)) assert.deepEqual(edited.find((x) => x.id === e.id), e, `${e.id} untouched`);
    const square = edited.find((e) => e.id === 'Square')!;
    assert.equal(edited.find((e) => e.id === 'Square-section-1')!.text, '-side: double\n-tags: List<String>', "generics drawn as the diagram's own are");
    assert.equal(edited.find((e) => e.id === 'Square-section-2')!.text, '+area() double');
    assert.equal(square.roundness, null);
    assert.deepEqual(lintScene(edited), []);
    const read = JSON.parse(exportScene(edited, 'spec').text);
    assert.ok(read.classes.some((c: { id: string; methods?: string[] }) => c.id === 'Square' && c.methods?.[0] === '+area() double'));
    assert.ok(read.relations.includes('Square --|> Shape') || read.relations.some((r: string) => r.startsWith('Square') && r.endsWith('Shape')), JSON.stringify(read.relations));
  });

  test('a new entity has its attributes as a table; methods on an entity, or attributes on a flowchart, are refused', () => {
    const { elements } = draw({ kind: 'er', relationships: ['CUSTOMER ||--o{ ORDER : places'] });
    const { elements: after } = applyEdit(elements as never, { addNodes: [{ id: 'INVOICE', attributes: ['int id PK', 'int order_id FK'] }], addEdges: ['ORDER -> INVOICE'] }, stamp, { isIcon: isCatalogIcon });
    const edited = after as unknown as El[];
    assert.equal(edited.find((e) => e.id === 'INVOICE-section-1-2')!.text, 'id\norder_id');
    assert.throws(() => applyEdit(elements as never, { addNodes: [{ id: 'X', methods: ['+f()'] }] }, stamp, { isIcon: isCatalogIcon }), /an entity has attributes only/);
    const flow = draw({ nodes: [{ id: 'a' }], edges: [] }).elements;
    assert.throws(() => applyEdit(flow as never, { addNodes: [{ id: 'b', attributes: ['x'] }] }, stamp, { isIcon: isCatalogIcon }), /this diagram is neither/);
  });
});

describe('hints for the usual mistakes', () => {
  const hintOf = (spec: unknown) => checkAnySpec(spec, { isIcon: isCatalogIcon }).problems[0]!.hint;
  test('a field under a flowchart\'s name, or Mermaid\'s, points at the kind\'s own', () => {
    assert.match(hintOf({ kind: 'sequence', messages: ['a ->> b'] })!, /^messages goes in steps/);
    assert.match(hintOf({ kind: 'sequence', steps: [], actors: ['a'] })!, /^actors goes in participants/);
    assert.match(hintOf({ kind: 'class', nodes: [] })!, /^nodes goes in classes/);
    assert.match(hintOf({ kind: 'class', direction: 'LR' })!, /^direction goes in layout.direction/);
    assert.match(hintOf({ kind: 'er', relations: [] })!, /^relations goes in relationships/);
    assert.match(hintOf({ kind: 'er', title: 'x' })!, /the title goes in the request body/);
    // Following the hint succeeds.
    assert.deepEqual(checkAnySpec({ kind: 'sequence', steps: ['a ->> b'] }, { isIcon: isCatalogIcon }).problems, []);
    assert.deepEqual(checkAnySpec({ kind: 'er', relationships: [] }, { isIcon: isCatalogIcon }).problems, []);
  });
});

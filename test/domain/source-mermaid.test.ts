/**
 * The Mermaid importer (Mermaid's own parser), construct by construct: each
 * case reads a small diagram and asserts the spec it makes (and that the spec
 * passes the spec's own checks), the warnings, or the syntax error.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { importMermaid } from '../../src/domain/source/mermaid.ts';
import { SourceSyntaxError } from '../../src/domain/source/types.ts';
import { checkSpec } from '../../src/domain/spec/parse.ts';

type Node = { id: string; [key: string]: unknown };
type Edge = { from: string; to: string; [key: string]: unknown };

async function read(text: string) {
  const imported = await importMermaid(text);
  const { problems } = checkSpec(imported.spec, { isIcon: isCatalogIcon });
  assert.deepEqual(problems, [], 'the spec passes the spec\'s own checks');
  const nodes = (imported.spec.nodes ?? []) as Node[];
  const edges = (imported.spec.edges ?? []) as Edge[];
  return { ...imported, nodes, edges, node: (id: string) => nodes.find((n) => n.id === id)!, warned: (pattern: RegExp) => imported.warnings.find((w) => pattern.test(w.message)) };
}

async function refused(text: string): Promise<SourceSyntaxError> {
  try {
    await importMermaid(text);
  } catch (error) {
    assert.ok(error instanceof SourceSyntaxError, String(error));
    return error;
  }
  throw new Error('the source was read');
}

describe('Mermaid importer: flowcharts', () => {
  test('every direction, graph and flowchart alike', async () => {
    for (const [header, direction] of [['flowchart TD', undefined], ['flowchart TB', undefined], ['graph LR', 'LR'], ['flowchart RL', 'RL'], ['flowchart BT', 'BT']] as const) {
      const { spec } = await read(`${header}\n  a --> b`);
      assert.deepEqual(spec.layout, direction === undefined ? undefined : { direction }, header);
    }
  });

  test('node shapes: each bracket syntax as the spec shape that looks like it; a trapezoid and an asymmetric shape as the nearest, warned', async () => {
    const { node, warned } = await read('flowchart TD\n  a[Box] --> b(Rounded) --> c{Choice} --> d((Circle))\n  e[(Database)] --> f([Stadium]) --> g[[Sub]] --> h{{Hex}} --> i[/Lean/] --> j[/Trap\\] --> k>Flag]');
    assert.deepEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'].map((id) => node(id).shape), [undefined, undefined, 'diamond', 'circle', 'cylinder', 'stadium', 'subroutine', 'hexagon', 'parallelogram', 'parallelogram', undefined]);
    assert.ok(warned(/^trapezoid shapes are drawn as a parallelogram$/));
    assert.ok(warned(/^asymmetric shapes are drawn as a rectangle$/));
    assert.equal(node('k').label, 'Flag');
  });

  test('the @{ shape: … } syntax', async () => {
    const { node } = await read('flowchart LR\n  a@{ shape: diam, label: "Decide" }\n  b@{ shape: circle }\n  c@{ shape: cyl }\n  d@{ shape: doc }\n  a --> b --> c --> d');
    assert.deepEqual(node('a'), { id: 'a', shape: 'diamond', label: 'Decide' });
    assert.deepEqual([node('b').shape, node('c').shape, node('d').shape], ['circle', 'cylinder', 'document']);
  });

  test('subgraphs are containers, nested, with titles; edges to and from a subgraph', async () => {
    const { node, edges } = await read('flowchart LR\n  subgraph outer [Outer box]\n    subgraph inner\n      a\n    end\n    b\n  end\n  c --> outer\n  inner --> d');
    assert.deepEqual(node('outer'), { id: 'outer', label: 'Outer box' });
    assert.equal(node('inner').parent, 'outer');
    assert.equal(node('a').parent, 'inner');
    assert.equal(node('b').parent, 'outer');
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['c>outer', 'inner>d']);
  });

  test('a subgraph\'s own direction is warned about (the diagram\'s is not)', async () => {
    const { warned, warnings } = await read('flowchart LR\n  subgraph s\n    direction TB\n    a --> b\n  end');
    assert.equal(warned(/own direction/)?.line, 3);
    assert.equal(warnings.length, 1);
  });

  test('edge labels in both syntaxes', async () => {
    const { edges } = await read('flowchart LR\n  a -- text one --> b\n  b -->|text two| c');
    assert.deepEqual(edges.map((e) => e.label), ['text one', 'text two']);
  });

  test('link kinds: --> --- -.-> ==> --o --x <--> and ~~~ (laid out, not drawn)', async () => {
    const { edges, warnings } = await read('flowchart LR\n  a --> b\n  a --- c\n  a -.-> d\n  a ==> e\n  a --o f\n  a --x g\n  a <--> h\n  a ~~~ i');
    assert.deepEqual(edges, [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c', arrowhead: 'none' },
      { from: 'a', to: 'd', style: 'dotted' },
      { from: 'a', to: 'e', strokeWidth: 4 },
      { from: 'a', to: 'f', arrowhead: 'circle' },
      { from: 'a', to: 'g', arrowhead: 'bar' },
      { from: 'a', to: 'h', startArrowhead: 'arrow' },
      { from: 'a', to: 'i', arrowhead: 'none', style: 'invisible' },
    ]);
    assert.deepEqual(warnings, []);
  });

  test('chains: a --> b --> c and a & b --> c & d', async () => {
    const { edges } = await read('flowchart LR\n  a --> b --> c\n  x & y --> z & w');
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['a>b', 'b>c', 'x>z', 'x>w', 'y>z', 'y>w']);
  });

  test('classDef, class, ::: and style colour nodes; later declarations win', async () => {
    const { node } = await read('flowchart LR\n  a --> b --> c:::warm\n  classDef warm fill:#ffd8a8,stroke:#862e0c\n  class a warm\n  style b fill:#d3f9d8,stroke:#2b8a3e');
    assert.deepEqual([node('a').backgroundColor, node('a').fillStyle, node('a').strokeColor], ['#ffd8a8', 'solid', '#862e0c']);
    assert.deepEqual([node('b').backgroundColor, node('b').strokeColor], ['#d3f9d8', '#2b8a3e']);
    assert.equal(node('c').backgroundColor, '#ffd8a8');
  });

  test('style colours the label with color:, else writes it in the dark default when only the outline is coloured; widths and dashes', async () => {
    const { node, warnings } = await read('flowchart LR\n  a --> b --> c\n  style a fill:#333,stroke:#333,color:#fff\n  style b fill:#ffd8a8,stroke:#ffd8a8,stroke-width:3px,stroke-dasharray:5 5');
    assert.deepEqual([node('a').strokeColor, node('a').textColor], ['#333', '#fff']);
    assert.deepEqual([node('b').strokeColor, node('b').textColor, node('b').strokeWidth, node('b').strokeStyle], ['#ffd8a8', '#1e1e1e', 3, 'dashed']);
    assert.deepEqual(warnings, []);
  });

  test('linkStyle: a dash makes the edge dotted; its colour and width are drawn', async () => {
    const { edges } = await read('flowchart LR\n  a --> b\n  b --> c\n  linkStyle 1 stroke:#f00,stroke-width:4px,stroke-dasharray:5 5');
    assert.deepEqual(edges[1], { from: 'b', to: 'c', style: 'dotted', strokeColor: '#f00', strokeWidth: 4 });
  });

  test('markdown strings, <br> and entities in labels', async () => {
    const { node } = await read('flowchart LR\n  a["`**Bold** and *italic*`"] --> b["one<br>two<br/>three"] --> c["#quot;quoted#quot; &amp; more"]');
    assert.equal(node('a').label, 'Bold and italic');
    assert.equal(node('b').label, 'one\ntwo\nthree');
    assert.equal(node('c').label, '"quoted" & more');
  });

  test('click, accTitle, icons and directives are warned about at their lines', async () => {
    const { warned } = await read('%%{init: {"theme": "dark"}}%%\nflowchart LR\n  accTitle: Shop\n  a[fa:fa-car Car] --> b\n  click a "https://example.com"');
    assert.equal(warned(/directives/)?.line, 1);
    assert.equal(warned(/accessible title/)?.line, 3);
    assert.equal(warned(/Font Awesome/)?.line, 4);
    assert.equal(warned(/click handlers/)?.line, 5);
  });

  test('a Font Awesome name is dropped from the label', async () => {
    assert.equal((await read('flowchart LR\n  a[fa:fa-car Car] --> b')).node('a').label, 'Car');
  });

  test('the front matter title is the title', async () => {
    assert.equal((await read('---\ntitle: "Order flow"\n---\nflowchart LR\n  a --> b')).title, 'Order flow');
    assert.equal((await read('flowchart LR\n  a --> b')).title, null);
  });
});

describe('Mermaid importer: state diagrams', () => {
  test('[*] start and end markers get readable ids, one pair per composite state', async () => {
    const { node, edges } = await read('stateDiagram-v2\n  [*] --> Idle\n  Idle --> [*]\n  state Busy {\n    [*] --> Working\n  }');
    assert.deepEqual(node('start'), { id: 'start', shape: 'start' });
    assert.deepEqual(node('end'), { id: 'end', shape: 'end' });
    assert.ok(node('end'));
    assert.equal(node('Busy.start').parent, 'Busy');
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['start>Idle', 'Idle>end', 'Busy.start>Working']);
  });

  test('composite states nest as containers, named by `state "…" as`', async () => {
    const { node } = await read('stateDiagram-v2\n  state "Order placed" as Placed {\n    state Inner {\n      a --> b\n    }\n  }');
    assert.deepEqual(node('Placed'), { id: 'Placed', label: 'Order placed' });
    assert.equal(node('Inner').parent, 'Placed');
    assert.equal(node('a').parent, 'Inner');
  });

  test('choice is an empty diamond, fork and join are bars', async () => {
    const { node, warnings } = await read('stateDiagram-v2\n  state pick <<choice>>\n  state split <<fork>>\n  state merge <<join>>\n  a --> pick\n  pick --> split : yes\n  split --> merge\n  pick --> b : no');
    assert.deepEqual(node('pick'), { id: 'pick', shape: 'diamond', label: '' });
    assert.deepEqual(node('split'), { id: 'split', shape: 'fork' });
    assert.deepEqual(node('merge'), { id: 'merge', shape: 'fork' });
    assert.deepEqual(warnings, []);
  });

  test('notes are pale yellow nodes joined to their state by a dashed, headless line', async () => {
    const { node, edges } = await read('stateDiagram-v2\n  a --> b\n  note right of b : careful\n  note left of a\n    two\n    lines\n  end note');
    assert.deepEqual(node('b.note'), { id: 'b.note', label: 'careful', backgroundColor: '#fff9db', fillStyle: 'solid' });
    assert.equal(node('a.note').label, 'two\nlines');
    assert.ok(edges.some((e) => e.from === 'b' && e.to === 'b.note' && e.arrowhead === 'none' && e.style === 'dashed'));
  });

  test('concurrent regions (--) are containers of their own inside the composite', async () => {
    const { node } = await read('stateDiagram-v2\n  state Active {\n    [*] --> A\n    --\n    [*] --> B\n  }');
    assert.equal(node('Active.region-1').parent, 'Active');
    assert.equal(node('Active.region-2').parent, 'Active');
    assert.equal(node('A').parent, 'Active.region-1');
    assert.equal(node('B').parent, 'Active.region-2');
  });

  test('a description is the state\'s label, several are drawn under its name; transition labels', async () => {
    const { node, edges } = await read('stateDiagram-v2\n  Idle : waiting for work\n  Busy : working\n  Busy : on a job\n  Idle --> Busy : job arrives');
    assert.equal(node('Idle').label, 'waiting for work');
    assert.equal(node('Busy').label, 'Busy\nworking\non a job');
    assert.equal(edges[0]!.label, 'job arrives');
  });

  test('direction', async () => {
    assert.deepEqual((await read('stateDiagram-v2\n  direction LR\n  a --> b')).spec.layout, { direction: 'LR' });
  });
});

describe('Mermaid importer: refusals', () => {
  test('a syntax error names its line and column and what the parser expected', async () => {
    const error = await refused('flowchart LR\n  a --> b\n  b -->> c');
    assert.equal(error.line, 3);
    assert.ok(error.column > 1);
    assert.match(error.message, /^unexpected /);
    assert.ok(error.expected.length > 0);
  });

  test('other diagram kinds are refused, naming the kind', async () => {
    const error = await refused('sequenceDiagram\n  A->>B: hi');
    assert.match(error.message, /sequence diagram is not read yet/);
    assert.match((await refused('not a diagram at all')).message, /not a Mermaid diagram/);
  });

  test('parses run one at a time: concurrent reads keep to their own text', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => importMermaid(`flowchart LR\n  n${i} --> m${i}`)));
    results.forEach((result, i) => assert.deepEqual((result.spec.nodes as Node[]).map((n) => n.id), [`n${i}`, `m${i}`]));
  });
});

/**
 * The Mermaid importer (Mermaid's own parser), construct by construct: each
 * case reads a small diagram and asserts the spec it makes, the warnings (at
 * their source lines), or the syntax error. Every spec read is also put
 * through the spec's own checks.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { contrastRatio, parseColor } from '../../src/domain/lint/color.ts';
import { importMermaid, UnsupportedDiagramError } from '../../src/domain/source/mermaid.ts';
import { MERMAID_MAX_EDGES } from '../../src/domain/source/mermaid/runtime.ts';
import { type ImportedSource, SourceSyntaxError } from '../../src/domain/source/types.ts';
import { checkSpec } from '../../src/domain/spec/parse.ts';
import type { DiagramSpecInput } from '../../src/domain/spec/schema.ts';
import { SPEC_LIMITS } from '../../src/domain/spec/types.ts';

type Node = { id: string; [key: string]: unknown };
type Edge = { from: string; to: string; [key: string]: unknown };

/** A flowchart or state diagram read: its spec is a flowchart's. */
const importFlow = async (text: string) => (await importMermaid(text)) as ImportedSource<DiagramSpecInput>;

/** Puts a spec through the spec's own checks: it must pass them. */
function checked(spec: DiagramSpecInput): void {
  assert.deepEqual(checkSpec(spec, { isIcon: isCatalogIcon }).problems, [], 'the spec passes the spec\'s own checks');
}

async function read(text: string) {
  const imported = (await importMermaid(text)) as { spec: DiagramSpecInput } & Omit<Awaited<ReturnType<typeof importMermaid>>, 'spec'>;
  checked(imported.spec);
  const nodes = (imported.spec.nodes ?? []) as Node[];
  const edges = (imported.spec.edges ?? []) as Edge[];
  return {
    ...imported,
    nodes,
    edges,
    node: (id: string) => nodes.find((n) => n.id === id)!,
    edge: (from: string, to: string) => edges.find((e) => e.from === from && e.to === to)!,
    warned: (pattern: RegExp) => imported.warnings.find((w) => pattern.test(w.message)),
  };
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
  test('every direction is the layout\'s, graph and flowchart alike (TB by default)', async () => {
    for (const [header, direction] of [['flowchart TD', undefined], ['flowchart TB', undefined], ['graph LR', 'LR'], ['flowchart RL', 'RL'], ['graph BT', 'BT'], ['flowchart', undefined]] as const) {
      const { spec } = await read(`${header}\n  a --> b`);
      assert.deepEqual(spec.layout, direction === undefined ? undefined : { direction }, header);
    }
  });

  test('bracket shapes are drawn as the spec shape nearest them; only the approximations are warned about', async () => {
    const cases: Array<[string, string | undefined, RegExp | null]> = [
      ['a[Box]', undefined, null],
      ['a(Rounded)', undefined, null],
      ['a([Stadium])', 'stadium', null],
      ['a[[Subroutine]]', 'subroutine', null],
      ['a[(Database)]', 'cylinder', null],
      ['a((Circle))', 'circle', null],
      ['a(((Double)))', 'doublecircle', null],
      ['a(-Ellipse-)', 'ellipse', null],
      ['a>Flag]', undefined, /^asymmetric shapes \(odd\) are drawn as rectangles$/],
      ['a{Choice}', 'diamond', null],
      ['a{{Hexagon}}', 'hexagon', null],
      ['a[/Lean right/]', 'parallelogram', null],
      ['a[\\Lean left\\]', 'parallelogram', /^parallelograms leaning left \(lean-l\) are drawn leaning right$/],
      ['a[/Trapezoid\\]', 'parallelogram', /^trapezoids/],
      ['a[\\Inverted/]', 'parallelogram', /^trapezoids/],
    ];
    for (const [written, shape, warning] of cases) {
      const { node, warnings } = await read(`flowchart LR\n  ${written} --> b`);
      assert.equal(node('a').shape, shape, written);
      assert.equal(node('a').label, /[A-Z][a-z ]+/.exec(written)![0], `${written}: the label`);
      if (warning === null) assert.deepEqual(warnings, [], written);
      else assert.deepEqual(warnings.map((w) => [w.line, warning.test(w.message)]), [[2, true]], written);
    }
  });

  test('the @{ shape: … } syntax: Mermaid\'s names and aliases mapped, the others drawn as rectangles and warned about by name', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['rect', undefined], ['rounded', undefined], ['stadium', 'stadium'], ['subproc', 'subroutine'], ['cyl', 'cylinder'], ['database', 'cylinder'],
      ['circle', 'circle'], ['diam', 'diamond'], ['hex', 'hexagon'], ['lean-r', 'parallelogram'], ['lean-l', 'parallelogram'], ['doc', 'document'],
      ['text', 'text'], ['fork', 'fork'], ['sm-circ', 'start'], ['start', 'start'], ['fr-circ', 'end'], ['stop', 'end'], ['f-circ', 'start'],
    ];
    for (const [name, shape] of cases) assert.equal((await read(`flowchart LR\n  a@{ shape: ${name} }`)).node('a').shape, shape, name);
    const { node, warned } = await read('flowchart LR\n  a@{ shape: diam, label: "Decide" }\n  b@{ shape: hourglass }\n  c@{ shape: bolt }');
    assert.deepEqual(node('a'), { id: 'a', shape: 'diamond', label: 'Decide' });
    assert.equal(node('b').shape, undefined);
    assert.equal(warned(/^the hourglass shape is drawn as a rectangle$/)?.line, 3);
    assert.equal(warned(/^the bolt shape is drawn as a rectangle$/)?.line, 4);
  });

  test('markers from @{ shape } (start, end, fork) carry no label', async () => {
    const { node } = await read('flowchart TB\n  s@{ shape: sm-circ } --> f@{ shape: fork } --> e@{ shape: fr-circ }');
    assert.deepEqual([node('s'), node('f'), node('e')], [{ id: 's', shape: 'start' }, { id: 'f', shape: 'fork' }, { id: 'e', shape: 'end' }]);
  });

  test('subgraphs are containers, nested, titled, with the subgraph\'s id; members name their container as parent', async () => {
    const { node, nodes } = await read('flowchart LR\n  subgraph outer [Outer box]\n    subgraph inner\n      a\n    end\n    b\n  end\n  subgraph "Title with spaces"\n    c\n  end\n  a --> c');
    assert.deepEqual(node('outer'), { id: 'outer', label: 'Outer box' });
    assert.deepEqual(node('inner'), { id: 'inner', parent: 'outer' });
    assert.equal(node('a').parent, 'inner');
    assert.equal(node('b').parent, 'outer');
    const untitled = nodes.find((n) => n.label === 'Title with spaces')!;
    assert.equal(untitled.id, 'subGraph2', 'Mermaid\'s own id for a subgraph written without one');
    assert.equal(node('c').parent, untitled.id);
  });

  test('a subgraph no link enters or leaves (links that end on it do not count) is drawn in its own direction, else across the flow around it, as Mermaid draws it; a linked one follows the flow', async () => {
    const { node, warnings } = await read(
      'flowchart LR\n  subgraph s\n    direction TB\n    a --> b\n  end\n  subgraph t\n    direction LR\n    c\n  end\n  subgraph u\n    d\n  end\n  subgraph v\n    direction TB\n    e\n  end\n  e --> f\n  subgraph w\n    g\n  end\n  w --> h',
    );
    assert.equal(node('s').direction, 'TB');
    assert.equal(node('t').direction, 'LR', 'laid out on its own, in the direction it gives, even the diagram\'s');
    assert.equal(node('u').direction, 'TB', 'across a left-to-right flow');
    assert.equal(node('v').direction, 'TB', 'a linked subgraph keeps the direction it gives (the layout follows the flow there, as Mermaid does)');
    // temporal-nexus-1: Mermaid lays "Scheduler" out left to right in its top-down flow, with Reader's link ending on its box.
    assert.equal(node('w').direction, 'TB', 'a link that ends on it leaves it on its own: across a left-to-right flow');
    assert.deepEqual(warnings, []);
    // kata-runtime-layers: a link from outside ends on "Runtime Handler", inside "Layer 2", which it enters: Layer 2 follows the flow;
    // Runtime Handler, which no link crosses, is laid out on its own (Mermaid draws its two nodes in a column, left to right).
    const inLinked = await read('graph TD\n  subgraph L2\n    subgraph RH\n      sm\n      cm\n    end\n    x\n  end\n  md --> RH');
    assert.equal(inLinked.node('L2').direction, undefined, 'a link enters it: it follows the flow');
    assert.equal(inLinked.node('RH').direction, 'LR', 'a link that ends on a nested subgraph leaves it on its own too');
    const nested = await read('graph TD\n  subgraph outer\n    subgraph inner\n      x --> y\n    end\n    z\n  end');
    assert.equal(nested.node('outer').direction, 'LR', 'across the diagram\'s top-to-bottom flow');
    assert.equal(nested.node('inner').direction, 'TB', 'across its container\'s left-to-right flow');
  });

  test('inside a subgraph written `direction TD`, a subgraph on its own runs top to bottom, as Mermaid draws it (it compares the written word with TB)', async () => {
    const td = await read('graph LR\n  subgraph A\n    direction TD\n    subgraph B\n      b1 --> b2\n    end\n  end');
    assert.equal(td.node('A').direction, 'TB');
    assert.equal(td.node('B').direction, 'TB');
    const tb = await read('graph LR\n  subgraph A\n    direction TB\n    subgraph B\n      b1 --> b2\n    end\n  end');
    assert.equal(tb.node('B').direction, 'LR', 'across a flow written TB');
  });

  test('a link that ends on a subgraph some link crosses is drawn to its first node, and links the subgraph holding it, as Mermaid draws it', async () => {
    // A is crossed (a2 --> y), so x --> A goes to A's first node, p1; P, which holds it and which no link crosses, stands in for it,
    // and Q, which holds P, is linked: it follows the flow. P stays on its own.
    const crossed = await read('graph TD\n  subgraph A\n    subgraph Q\n      subgraph P\n        p1 --> p2\n      end\n      q1 --> q2\n    end\n    a2\n  end\n  x --> A\n  a2 --> y');
    assert.equal(crossed.node('A').direction, undefined);
    assert.equal(crossed.node('Q').direction, undefined);
    assert.equal(crossed.node('P').direction, 'LR');
    // No link crosses A: x --> A ends on its box, and all three are laid out on their own, each across the flow around it.
    const alone = await read('graph TD\n  subgraph A\n    subgraph Q\n      subgraph P\n        p1 --> p2\n      end\n      q1 --> q2\n    end\n    a2\n  end\n  x --> A');
    assert.deepEqual(['A', 'Q', 'P'].map((id) => alone.node(id).direction), ['LR', 'TB', 'LR']);
  });

  test('subgraphs are listed as the source opens them, outermost first (Mermaid lists them as they end)', async () => {
    const { nodes } = await read('flowchart TD\n  subgraph first\n    a\n  end\n  subgraph second\n    subgraph inner\n      b\n    end\n  end\n  a --> b');
    assert.deepEqual(nodes.map((n) => n.id), ['first', 'second', 'inner', 'a', 'b']);
  });

  test('links to and from a subgraph end at its container', async () => {
    const { edges } = await read('flowchart LR\n  subgraph box\n    a\n  end\n  c --> box\n  box --> d');
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['c>box', 'box>d']);
  });

  test('link labels in both syntaxes', async () => {
    const { edges } = await read('flowchart LR\n  a -- text one --> b\n  b -->|text two| c\n  c -. dotted text .-> d\n  d == thick text ==> e');
    assert.deepEqual(edges.map((e) => e.label), ['text one', 'text two', 'dotted text', 'thick text']);
  });

  test('link kinds: --> --- -.-> ==> ~~~ --o --x <--> o--o', async () => {
    const { edges, warnings } = await read('flowchart LR\n  a --> b\n  a --- c\n  a -.-> d\n  a ==> e\n  a ~~~ f\n  a --o g\n  a --x h\n  a <--> i\n  a o--o j\n  a -.- k\n  a === l');
    assert.deepEqual(edges, [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c', arrowhead: 'none' },
      { from: 'a', to: 'd', style: 'dotted' },
      { from: 'a', to: 'e', strokeWidth: 4 },
      { from: 'a', to: 'f', arrowhead: 'none', style: 'invisible' },
      { from: 'a', to: 'g', arrowhead: 'circle' },
      { from: 'a', to: 'h', arrowhead: 'bar' },
      { from: 'a', to: 'i', startArrowhead: 'arrow' },
      { from: 'a', to: 'j', arrowhead: 'circle', startArrowhead: 'circle' },
      { from: 'a', to: 'k', arrowhead: 'none', style: 'dotted' },
      { from: 'a', to: 'l', arrowhead: 'none', strokeWidth: 4 },
    ]);
    assert.deepEqual(warnings, []);
  });

  test('a longer link (--->, -..->, ====>) spans at least as many ranks as Mermaid gives it', async () => {
    const { edges } = await read('flowchart TB\n  a ---> b\n  a -..-> c\n  a ====> d\n  a --> e');
    assert.deepEqual(edges.map((e) => e.minLength), [2, 2, 3, undefined]);
  });

  test('an invisible link keeps its label, which is warned about as not drawn', async () => {
    const { edges, warned } = await read('flowchart LR\n  a --> b\n  a ~~~|hidden| c');
    assert.deepEqual(edges[1], { from: 'a', to: 'c', label: 'hidden', arrowhead: 'none', style: 'invisible' });
    assert.equal(warned(/labels of invisible links/)?.line, 3);
  });

  test('chains: a --> b --> c and a & b --> c & d, in Mermaid\'s order', async () => {
    const { edges } = await read('flowchart LR\n  a --> b --> c\n  x & y --> z & w');
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['a>b', 'b>c', 'x>z', 'x>w', 'y>z', 'y>w']);
  });

  test('classDef, class, ::: and style: fill, stroke, color, stroke-width and stroke-dasharray; later declarations win', async () => {
    const { node } = await read(
      'flowchart LR\n  a --> b --> c:::warm\n  classDef warm fill:#ffd8a8,stroke:#862e0c,color:#5c2b00,stroke-width:3px,stroke-dasharray:5 5\n  class a warm\n  style b fill:#d3f9d8,stroke:#2b8a3e,color:#0b3d1a\n  style c fill:#e7f5ff',
    );
    assert.deepEqual(node('a'), { id: 'a', backgroundColor: '#ffd8a8', fillStyle: 'solid', strokeColor: '#862e0c', textColor: '#5c2b00', strokeWidth: 3, strokeStyle: 'dashed' });
    assert.deepEqual(node('b'), { id: 'b', backgroundColor: '#d3f9d8', fillStyle: 'solid', strokeColor: '#2b8a3e', textColor: '#0b3d1a' });
    assert.equal(node('c').backgroundColor, '#e7f5ff', 'its own style over its class');
    assert.equal(node('c').strokeWidth, 3);
  });

  test('classDef default styles every node; font-weight and font-style make a bold or italic label', async () => {
    const { node } = await read('flowchart LR\n  classDef default fill:#f1f3f5\n  classDef loud font-weight:bold,font-style:italic\n  a --> b:::loud');
    assert.deepEqual(node('a'), { id: 'a', backgroundColor: '#f1f3f5', fillStyle: 'solid' });
    assert.deepEqual(node('b'), { id: 'b', backgroundColor: '#f1f3f5', fillStyle: 'solid', bold: true, italic: true });
  });

  test('a label keeps Mermaid\'s ink when only the outline is coloured, and turns white on a fill too dark for it', async () => {
    const { node, warned } = await read('flowchart LR\n  a --> b --> c\n  style a stroke:#e03131\n  style b fill:#212529\n  style c fill:#212529,color:#ffd43b');
    assert.deepEqual(node('a'), { id: 'a', strokeColor: '#e03131', textColor: '#1e1e1e' });
    assert.equal(node('b').textColor, '#ffffff');
    assert.equal(warned(/too dark for the default ink/)?.line, 2, 'warned at the node');
    assert.equal(node('c').textColor, '#ffd43b', 'a text colour of its own is kept');
    assert.equal(warned(/shaded until it is/), undefined, 'a readable colour is not warned about');
  });

  test('a text colour unreadable on its fill is shaded just until it reads: white on a pale green becomes a grey, warned', async () => {
    const { node, warned } = await read('flowchart LR\n  a --> b\n  style a fill:#85CB90,color:#fff\n  style b color:#ffe066');
    const a = node('a').textColor!;
    assert.notEqual(a, '#ffffff');
    assert.ok(contrastRatio(parseColor(a)!, parseColor('#85cb90')!) >= 3, `${a} reads on #85cb90`);
    assert.ok(contrastRatio(parseColor(a)!, parseColor('#85cb90')!) < contrastRatio([0, 0, 0], parseColor('#85cb90')!), 'not simply black: only as dark as needed');
    assert.ok(contrastRatio(parseColor(node('b').textColor!)!, [255, 255, 255]) >= 3, 'a pale yellow on the white page is darkened');
    assert.equal(warned(/shaded until it is/)?.line, 2);
  });

  test('a node styled to no size (width:0px;height:0px) is a bar where its links meet, without its label', async () => {
    const { node, warned } = await read('flowchart TD\n  a & b --- step[ ]:::empty\n  step --> c\n  classDef empty width:0px,height:0px;');
    assert.deepEqual(node('step'), { id: 'step', shape: 'fork' });
    assert.equal(warned(/drawn as a bar where its links meet/)?.line, 4);
    assert.equal(warned(/the style property width/), undefined);
  });

  test('style values the spec cannot take are warned about at their style line', async () => {
    const { node, warned } = await read('flowchart LR\n  a --> b\n  style a fill:oops,stroke-width:40px,font-size:20px\n  style b stroke-width:thin');
    assert.equal(node('a').backgroundColor, undefined);
    assert.equal(node('a').strokeWidth, 16, 'widths beyond the spec\'s range are drawn at its limit');
    assert.equal(warned(/the colour "oops" is not one Drawbridge knows/)?.line, 3);
    assert.equal(warned(/40px is drawn as 16/)?.line, 3);
    assert.equal(warned(/the style property font-size is not drawn/)?.line, 3);
    assert.equal(warned(/the line width "thin"/)?.line, 4);
  });

  test('linkStyle colours, widens and dashes links; linkStyle default applies to every link, a link\'s own class too', async () => {
    const { edges, warned } = await read(
      'flowchart LR\n  a --> b\n  b --> c\n  c e1@--> d\n  linkStyle default stroke:#868e96\n  linkStyle 1 stroke:#f03e3e,stroke-width:4px,stroke-dasharray:5 5,color:red\n  classDef hot stroke:#e8590c,stroke-width:3px\n  class e1 hot',
    );
    assert.deepEqual(edges[0], { from: 'a', to: 'b', strokeColor: '#868e96' });
    assert.deepEqual(edges[1], { from: 'b', to: 'c', strokeColor: '#f03e3e', strokeWidth: 4, style: 'dashed' });
    assert.deepEqual(edges[2], { from: 'c', to: 'd', strokeColor: '#868e96', strokeWidth: 3 }, 'linkStyle over the class');
    assert.equal(warned(/link label colours/)?.line, 6);
  });

  test('markdown strings: a label bold or italic as a whole is a bold or italic label', async () => {
    const { node, warnings } = await read('flowchart LR\n  a["`**Bold**`"] --> b["`*Italic*`"] --> c["`_Also italic_`"] --> d["`***Both***`"] --> e["`**Two**\n**lines**`"]');
    assert.deepEqual(node('a'), { id: 'a', label: 'Bold', bold: true });
    assert.deepEqual(node('b'), { id: 'b', label: 'Italic', italic: true });
    assert.deepEqual(node('c'), { id: 'c', label: 'Also italic', italic: true });
    assert.deepEqual(node('d'), { id: 'd', label: 'Both', bold: true, italic: true });
    assert.deepEqual(node('e'), { id: 'e', label: 'Two\nlines', bold: true });
    assert.deepEqual(warnings, []);
  });

  test('markdown strings styled in part are drawn plain, their markers dropped, warned about once', async () => {
    const { node, warnings } = await read('flowchart LR\n  a --> b\n  b["`**Title** and *more*`"] --> c["`**Name**\nwhat it does`"]');
    assert.deepEqual(node('b'), { id: 'b', label: 'Title and more' });
    assert.deepEqual(node('c'), { id: 'c', label: 'Name\nwhat it does' });
    assert.deepEqual(warnings, [{ line: 3, message: 'bold or italic parts of a label are drawn plain: a label is bold or italic only as a whole' }]);
  });

  test('asterisks in a plain string are text, snake_case is not italic', async () => {
    const { node } = await read('flowchart LR\n  a["**not bold**"] --> b["`snake_case_name`"]');
    assert.equal(node('a').label, '**not bold**');
    assert.deepEqual(node('b'), { id: 'b', label: 'snake_case_name' });
  });

  test('<br> breaks lines, entities (#quot; #ast; #35; &amp; &lt; &hearts;) are decoded, <b> and <i> around the label make it bold or italic', async () => {
    const { node, warned } = await read('flowchart LR\n  a["one<br>two<br/>three<br />four"] --> b["#quot;quoted#quot; #35;1 #ast; &amp; &lt;tag&gt; &hearts; &nosuch;"] --> c["<b>Bold</b>"] --> d["<i><b>Both</b></i>"]\n  d --> e["<u>under</u> lined"]');
    assert.equal(node('a').label, 'one\ntwo\nthree\nfour');
    assert.equal(node('b').label, '"quoted" #1 * & <tag> ♥ &nosuch;');
    assert.deepEqual(node('c'), { id: 'c', label: 'Bold', bold: true });
    assert.deepEqual(node('d'), { id: 'd', label: 'Both', bold: true, italic: true });
    assert.equal(node('e').label, 'under lined');
    assert.equal(warned(/^HTML formatting in labels/)?.line, 3);
  });

  test('a written \\n breaks a flowchart label\'s line, quoted or not, on nodes and links; a markdown string and a state diagram keep it as written, as Mermaid draws them', async () => {
    const flow = await read('flowchart TD\n  a["virtiofs / nydus\\n(BuiltIn)"] -->|"fork\\nexec"| b[one\\ntwo]\n  c["`md\\nkept`"]');
    assert.equal(flow.node('a').label, 'virtiofs / nydus\n(BuiltIn)');
    assert.equal(flow.node('b').label, 'one\ntwo');
    assert.equal(flow.edges[0]!.label, 'fork\nexec');
    assert.equal(flow.node('c').label, 'md\\nkept');
    const state = await read('stateDiagram-v2\n  [*] --> S : go\\nnow\n  S : desc\\nline');
    assert.equal(state.node('S').label, 'desc\\nline');
    assert.equal(state.edges.find((edge) => edge.to === 'S')!.label, 'go\\nnow');
  });

  test('entities a browser reads without their semicolon (&nbsp &amp &copy) are decoded, as in Mermaid\'s picture; a blank title leaves a container untitled', async () => {
    const { node } = await read('flowchart LR\n  subgraph outer["&nbsp"]\n    a\n  end\n  b["AT&T &amp B &copy 2024 &nosuch"] --> a');
    assert.equal(node('outer').label, '');
    assert.equal(node('b').label, 'AT&T & B © 2024 &nosuch');
  });

  test('a label that is the id is left out (the spec shows the id)', async () => {
    const { node } = await read('flowchart LR\n  a[a] --> b\n  c[C]');
    assert.deepEqual(node('a'), { id: 'a' });
    assert.deepEqual(node('b'), { id: 'b' });
    assert.deepEqual(node('c'), { id: 'c', label: 'C' });
  });

  test('Font Awesome icons are dropped from the label and warned about; @{ icon } and @{ img } too', async () => {
    const { node, warned } = await read('flowchart LR\n  a[fa:fa-car Car] --> b\n  b@{ icon: "fa:user", form: "circle" }\n  c@{ img: "https://example.com/x.png", label: "Pic" }');
    assert.equal(node('a').label, 'Car');
    assert.equal(warned(/Font Awesome icons/)?.line, 2);
    assert.equal(warned(/icons and images in nodes/)?.line, 3);
    assert.deepEqual(node('b'), { id: 'b', shape: 'circle' }, 'an icon without a label: the id, in the icon\'s form');
    assert.equal(node('c').label, 'Pic');
  });

  test('the front matter\'s title is the title and the caption, drawn above as Mermaid draws it', async () => {
    const { spec, title } = await read('---\ntitle: "Order flow"\n---\nflowchart LR\n  a --> b');
    assert.equal(title, 'Order flow');
    assert.equal(spec.caption, 'Order flow');
    assert.equal(spec.layout?.captionAt, undefined);
    assert.equal((await read('flowchart LR\n  a --> b')).spec.caption, undefined);
  });

  test('click, accTitle, accDescr, directives, front matter config, curves, animation, math and ELK are warned about at their source lines', async () => {
    const { warnings } = await read(
      [
        '---', // 1
        'title: Shop', // 2
        'config:', // 3
        '  look: handDrawn', // 4
        '---', // 5
        '%%{init: {"theme": "dark"}}%%', // 6
        '%% a comment: click here', // 7
        'flowchart-elk LR', // 8
        '  accTitle: Shop', // 9
        '  accDescr: How orders flow', // 10
        '  a["$$x^2$$"] --> b', // 11
        '  a e1@--> c', // 12
        '  e1@{ animate: true, curve: linear }', // 13
        '  linkStyle 0 interpolate basis', // 14
        '  click a "https://example.com"', // 15
      ].join('\n'),
    );
    assert.deepEqual(
      warnings.map((w) => [w.line, w.message.split(/[:(]/)[0]!.trim()]),
      [
        [3, 'the front matter\'s config'],
        [6, 'directives'],
        [8, 'the ELK layout'],
        [9, 'the accessible title and description'],
        [11, 'math'],
        [13, 'link curve styles'],
        [13, 'animated links'],
        [15, 'click handlers and links'],
      ],
    );
  });

  test('a collapsed subgraph is one box, as Mermaid draws it, warned about', async () => {
    const { nodes, edges, warned } = await read('flowchart LR\n  subgraph s [Stack]\n    x --> y\n  end\n  y --> z\n  s@{ view: collapsed }');
    assert.deepEqual(nodes, [{ id: 's', label: 'Stack' }, { id: 'z' }]);
    assert.deepEqual(edges, [{ from: 's', to: 'z' }]);
    assert.equal(warned(/collapsed subgraph/)?.line, 2);
  });

  test('the front matter\'s title is the title', async () => {
    assert.equal((await read('---\ntitle: "Order flow"\n---\nflowchart LR\n  a --> b')).title, 'Order flow');
    assert.equal((await read('flowchart LR\n  a --> b')).title, null);
  });
});

describe('Mermaid importer: state diagrams', () => {
  test('[*] is a start marker or an end marker with a readable id, one pair per composite state', async () => {
    const { node, edges } = await read('stateDiagram-v2\n  [*] --> Idle\n  Idle --> [*]\n  state Moving {\n    [*] --> Slow\n    Slow --> [*]\n  }');
    assert.deepEqual(node('start'), { id: 'start', shape: 'start' });
    assert.deepEqual(node('stop'), { id: 'stop', shape: 'end' });
    assert.deepEqual(node('Moving.start'), { id: 'Moving.start', parent: 'Moving', shape: 'start' });
    assert.deepEqual(node('Moving.stop'), { id: 'Moving.stop', parent: 'Moving', shape: 'end' });
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['start>Idle', 'Idle>stop', 'Moving.start>Slow', 'Slow>Moving.stop']);
  });

  test('an id made up for a marker never takes a state\'s own', async () => {
    const { node, edges } = await read('stateDiagram-v2\n  [*] --> start\n  start --> stop\n  stop --> [*]');
    assert.deepEqual(node('start'), { id: 'start' });
    assert.deepEqual(node('start-2'), { id: 'start-2', shape: 'start' });
    assert.deepEqual(node('stop-2'), { id: 'stop-2', shape: 'end' });
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['start-2>start', 'start>stop', 'stop>stop-2']);
  });

  test('composite states nest as containers, titled by `state "…" as`', async () => {
    const { node } = await read('stateDiagram-v2\n  state "Order placed" as Placed {\n    state Inner {\n      a --> b\n    }\n  }');
    assert.deepEqual(node('Placed'), { id: 'Placed', label: 'Order placed' });
    assert.deepEqual(node('Inner'), { id: 'Inner', parent: 'Placed' });
    assert.equal(node('a').parent, 'Inner');
  });

  test('a composite state is laid out in its own direction, top to bottom unless it says otherwise, as Mermaid does', async () => {
    const { spec, node } = await read('stateDiagram-v2\n  direction LR\n  a --> Plain\n  state Plain {\n    x --> y\n  }\n  state Across {\n    direction LR\n    p --> q\n  }');
    assert.deepEqual(spec.layout, { direction: 'LR' });
    assert.equal(node('Plain').direction, 'TB');
    assert.equal(node('Across').direction, undefined, 'the diagram\'s already');
  });

  test('<<choice>> is an empty diamond, <<fork>> and <<join>> bars', async () => {
    const { node, warnings } = await read('stateDiagram-v2\n  state pick <<choice>>\n  state split <<fork>>\n  state merge <<join>>\n  a --> pick\n  pick --> split : yes\n  split --> merge\n  pick --> b : no');
    assert.deepEqual(node('pick'), { id: 'pick', shape: 'diamond', label: '' });
    assert.deepEqual(node('split'), { id: 'split', shape: 'fork' });
    assert.deepEqual(node('merge'), { id: 'merge', shape: 'fork' });
    assert.deepEqual(warnings, []);
  });

  test('notes are pale yellow, beside their state (one rank), joined to it by a dashed line without heads', async () => {
    const { node, edges, spec } = await read('stateDiagram-v2\n  a --> b\n  note right of b : careful\n  note left of a\n    two\n    lines\n  end note\n  note left of a : again');
    assert.deepEqual(node('b.note'), { id: 'b.note', label: 'careful', backgroundColor: '#fff9db', fillStyle: 'solid' });
    assert.equal(node('a.note').label, 'two\nlines');
    assert.equal(node('a.note-2').label, 'again');
    assert.deepEqual(edges.find((e) => e.to === 'b.note'), { from: 'b', to: 'b.note', arrowhead: 'none', style: 'dashed', minLength: 0 });
    assert.deepEqual(edges.find((e) => e.from === 'a.note'), { from: 'a.note', to: 'a', arrowhead: 'none', style: 'dashed', minLength: 0 });
    assert.deepEqual(spec.layout, { sameRank: [['b', 'b.note'], ['a', 'a.note'], ['a', 'a.note-2']] });
  });

  test('a note on a composite state sits where the state does, joined to its container', async () => {
    const { node, edges, spec } = await read('stateDiagram-v2\n  state Outer {\n    state Busy {\n      x --> y\n    }\n    note right of Busy : inside\n  }');
    assert.deepEqual(node('Busy.note'), { id: 'Busy.note', parent: 'Outer', label: 'inside', backgroundColor: '#fff9db', fillStyle: 'solid' });
    assert.deepEqual(edges.find((e) => e.to === 'Busy.note'), { from: 'Busy', to: 'Busy.note', arrowhead: 'none', style: 'dashed' });
    assert.equal(spec.layout, undefined, 'a container is on no rank');
  });

  test('concurrent regions (--) are dotted, untitled containers of their own inside the composite (which is dashed, as every container), each with its markers', async () => {
    const { node } = await read('stateDiagram-v2\n  state Active {\n    [*] --> A\n    --\n    [*] --> B\n  }');
    assert.deepEqual(node('Active.region-1'), { id: 'Active.region-1', parent: 'Active', label: '', strokeStyle: 'dotted' });
    assert.deepEqual(node('Active.region-2'), { id: 'Active.region-2', parent: 'Active', label: '', strokeStyle: 'dotted' });
    assert.equal(node('A').parent, 'Active.region-1');
    assert.equal(node('B').parent, 'Active.region-2');
    assert.deepEqual(node('Active.region-2.start'), { id: 'Active.region-2.start', parent: 'Active.region-2', shape: 'start' });
  });

  test('a state\'s label is what Mermaid writes in it: its one description, or its name (or first description) over the others', async () => {
    const { node } = await read('stateDiagram-v2\n  state "Long name" as s1\n  s1 : what it does\n  Idle : waiting for work\n  Busy : working\n  Busy : on a job\n  Plain --> s1');
    assert.equal(node('s1').label, 'Long name\nwhat it does');
    assert.equal(node('Idle').label, 'waiting for work');
    assert.equal(node('Busy').label, 'working\non a job');
    assert.deepEqual(node('Plain'), { id: 'Plain' });
  });

  test('transitions keep their labels, in source order', async () => {
    const { edges } = await read('stateDiagram-v2\n  Idle --> Busy : job arrives\n  Busy --> Idle : done\n  Busy --> Busy');
    assert.deepEqual(edges, [{ from: 'Idle', to: 'Busy', label: 'job arrives' }, { from: 'Busy', to: 'Idle', label: 'done' }, { from: 'Busy', to: 'Busy' }]);
  });

  test('direction, and the first state diagram syntax (stateDiagram) read alike', async () => {
    assert.deepEqual((await read('stateDiagram-v2\n  direction LR\n  a --> b')).spec.layout, { direction: 'LR' });
    const v1 = await read('stateDiagram\n  direction RL\n  [*] --> a\n  a --> b : go');
    assert.deepEqual(v1.spec, { nodes: [{ id: 'start', shape: 'start' }, { id: 'a' }, { id: 'b' }], edges: [{ from: 'start', to: 'a' }, { from: 'a', to: 'b', label: 'go' }], layout: { direction: 'RL' } });
  });

  test('classDef, class and style colour states', async () => {
    const { node } = await read('stateDiagram-v2\n  classDef bad fill:#ffe3e3,stroke:#c92a2a,color:#c92a2a\n  [*] --> Failed:::bad\n  Done --> Retry\n  class Done bad\n  style Retry fill:#d3f9d8');
    const bad = { backgroundColor: '#ffe3e3', fillStyle: 'solid', strokeColor: '#c92a2a', textColor: '#c92a2a' };
    assert.deepEqual(node('Failed'), { id: 'Failed', ...bad });
    assert.deepEqual(node('Done'), { id: 'Done', ...bad });
    assert.deepEqual(node('Retry'), { id: 'Retry', backgroundColor: '#d3f9d8', fillStyle: 'solid' });
  });

  test('click and scale are warned about', async () => {
    const { warned } = await read('stateDiagram-v2\n  scale 300 width\n  a --> b\n  click a "https://example.com" "a tooltip"');
    assert.equal(warned(/^scale/)?.line, 2);
    assert.equal(warned(/^click/)?.line, 4);
  });
});

describe('Mermaid importer: refusals', () => {
  test('a syntax error names its source line and column, what was found and what the parser expected', async () => {
    const error = await refused('flowchart LR\n  a --> b\n  b -->> c');
    assert.deepEqual([error.line, error.column, error.message], [3, 8, 'unexpected ">"']);
    assert.ok(error.expected.includes('NODE_STRING'), error.expected.join());
  });

  test('front matter, directives, comments and blank lines above count in the line; entities before it in the column', async () => {
    const error = await refused('---\ntitle: x\n---\n%%{init: {}}%%\n\n%% a comment\nflowchart LR\n  a["#quot;q#quot;"] --> b c');
    assert.deepEqual([error.line, error.column, error.message], [8, 28, 'unexpected "c"']);
    const indented = await refused('\n\n   flowchart LR\n  a --> --> b');
    assert.deepEqual([indented.line, indented.column], [4, 9]);
  });

  test('a text that ends too soon is an error at the end of the last line', async () => {
    const error = await refused('flowchart LR\n  subgraph s\n    a --> b\n\n');
    assert.deepEqual([error.line, error.column, error.message], [3, 12, 'unexpected the end of the text']);
    assert.ok(error.expected.includes('end'));
  });

  test('a state diagram\'s syntax error too', async () => {
    const error = await refused('stateDiagram-v2\n  a --> b\n  b --> --> c');
    assert.deepEqual([error.line, error.column, error.message, error.expected], [3, 9, 'unexpected "-->"', ['ID', 'EDGE_STATE']]);
  });

  test('text the lexer does not know is an error at that text', async () => {
    const error = await refused('flowchart XY\n  a --> b');
    assert.deepEqual([error.line, error.column, error.message], [1, 11, 'unrecognised text "XY"']);
  });

  test('a shape name Mermaid does not have, and a linkStyle past the last link, are errors at their lines', async () => {
    const shape = await refused('flowchart LR\n  a --> b\n  b@{ shape: blob }');
    assert.deepEqual([shape.line, shape.column, shape.message], [3, 14, 'Mermaid has no shape named "blob"']);
    const link = await refused('flowchart LR\n  a --> b\n  linkStyle 0 stroke:red\n  linkStyle 4 stroke:blue');
    assert.equal(link.line, 4);
    assert.match(link.message, /^linkStyle 4 names a link the diagram does not have/);
  });

  test('other diagram kinds are refused before parsing, naming the kind and the ones read', async () => {
    for (const [text, kind, name] of [['journey\n  title My day\n  section Go\n    Walk: 5: Me', 'journey', 'user journey'], ['%% a mindmap\nmindmap\n  root', 'mindmap', 'mindmap'], ['gantt\n  this is not valid gantt', 'gantt', 'Gantt chart'], ['pie\n  "a" : 1', 'pie', 'pie chart']] as const) {
      const error = await refused(text);
      assert.ok(error instanceof UnsupportedDiagramError, kind);
      assert.equal((error as UnsupportedDiagramError).kind, kind);
      assert.equal(error.line, text.startsWith('%%') ? 2 : 1);
      assert.equal(
        error.message,
        `a Mermaid ${name} is not read yet: Drawbridge reads flowcharts (flowchart, graph), state diagrams (stateDiagram-v2, stateDiagram), sequence diagrams (sequenceDiagram), class diagrams (classDiagram) and entity relationship diagrams (erDiagram)`,
      );
    }
    const none = await refused('not a diagram at all');
    assert.ok(!(none instanceof UnsupportedDiagramError));
    assert.match(none.message, /not a Mermaid diagram/);
  });

  test('parses run one at a time: concurrent reads keep to their own text', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => importFlow(i % 2 ? `flowchart LR\n  n${i} --> m${i}` : `stateDiagram-v2\n  n${i} --> m${i}`)));
    results.forEach((result, i) => assert.deepEqual((result.spec.nodes as Node[]).map((n) => n.id), [`n${i}`, `m${i}`]));
  });

  test('reading leaves no browser global behind', async () => {
    // As they were before: none in a process of its own, another test's own where test files share a process.
    const globals = globalThis as { window?: unknown; document?: unknown };
    const [window, document] = [globals.window, globals.document];
    await importFlow('flowchart LR\n  a["<b>x</b>"] --> b');
    assert.equal(globals.window, window);
    assert.equal(globals.document, document);
  });
});

describe('Mermaid importer: the spec\'s limits', () => {
  test('a label over the limit is kept whole, for the spec\'s check to refuse', async () => {
    const long = 'x'.repeat(SPEC_LIMITS.labelLength + 1);
    const imported = await importFlow(`flowchart LR\n  a["${long}"] --> b`);
    assert.equal((imported.spec.nodes as Node[])[0]!.label, long);
    assert.deepEqual(checkSpec(imported.spec, { isIcon: isCatalogIcon }).problems.map((p) => p.code), ['SPEC_TOO_LARGE']);
  });

  test('more nodes than a diagram holds are all read, for the spec\'s check to refuse with the count', async () => {
    const count = SPEC_LIMITS.nodes + 1;
    const imported = await importFlow(['flowchart LR', ...Array.from({ length: count }, (_, i) => `  n${i}`)].join('\n'));
    assert.equal((imported.spec.nodes as Node[]).length, count);
    const { problems } = checkSpec(imported.spec, { isIcon: isCatalogIcon });
    assert.deepEqual(problems.map((p) => [p.code, p.message]), [['SPEC_TOO_LARGE', `spec has ${count} nodes; the limit is ${SPEC_LIMITS.nodes}`]]);
  });

  test('more links than Mermaid is asked to read is an error saying so', async () => {
    const side = Math.ceil(Math.sqrt(MERMAID_MAX_EDGES)) + 1;
    const ends = (prefix: string) => Array.from({ length: side }, (_, i) => `${prefix}${i}`).join(' & ');
    const error = await refused(`flowchart LR\n  ${ends('a')} --> ${ends('b')}`);
    assert.equal(error.line, 1);
    assert.match(error.message, new RegExp(`more than ${MERMAID_MAX_EDGES} links.*at most ${SPEC_LIMITS.edges}`));
  });
});

describe('Mermaid importer: every spec it makes passes the spec\'s checks', () => {
  test('the real corpus (bench/quality/real) and a sample of every construct', async () => {
    const real = path.join(import.meta.dirname, '..', '..', 'bench', 'quality', 'real');
    const texts = fs
      .readdirSync(real)
      .filter((file) => file.endsWith('.mmd'))
      .map((file) => fs.readFileSync(path.join(real, file), 'utf8'));
    texts.push(
      'flowchart LR\n  a[A] -->|x| b(B) -.-> c{C} --- d((D))\n  subgraph s [S]\n    e --> f\n  end\n  d --> s\n  style a fill:#eee,stroke:#333',
      'stateDiagram-v2\n  [*] --> a\n  state c <<choice>>\n  a --> c\n  c --> [*]\n  state B {\n    [*] --> x\n    --\n    [*] --> y\n  }',
    );
    for (const text of texts) checked((await importFlow(text)).spec);
    assert.ok(texts.length >= 30, `${texts.length} sources`);
  });
});

describe('docs/mermaid-and-dot.md', () => {
  test('every Mermaid shape its table names is drawn as the table says, warned about as it says', async () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'mermaid-and-dot.md'), 'utf8');
    // The first table under "### Flowcharts": the node shapes.
    const lines = doc.slice(doc.indexOf('### Flowcharts')).split('\n');
    const first = lines.findIndex((line) => line.startsWith('|'));
    const end = lines.findIndex((line, i) => i > first && !line.startsWith('|'));
    const rows = lines.slice(first + 2, end);
    assert.ok(rows.length >= 10, 'the table lists shapes');
    for (const row of rows) {
      const [written, drawn] = row.split('|').slice(1, -1).map((cell) => cell.trim().replace(/\\\|/g, '|'));
      const shape = drawn!.replace(/, warned.*$/, '');
      for (const source of written!.match(/`([^`]+)`/g)!.map((quoted) => quoted.slice(1, -1))) {
        const imported = await importFlow(`flowchart LR\n  ${source}`);
        const node = (imported.spec.nodes as Node[])[0]!;
        assert.equal(node.shape ?? 'rectangle', shape, source);
        assert.equal(imported.warnings.length > 0, drawn!.includes('warned'), `${source} warned as the table says`);
      }
    }
  });
});

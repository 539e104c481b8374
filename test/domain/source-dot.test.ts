/**
 * The DOT importer, construct by construct: each case reads a small graph and
 * asserts the spec it makes (and that the spec passes the spec's own checks),
 * or the warning it gives, or the syntax error.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { importDot } from '../../src/domain/source/dot.ts';
import { SourceSyntaxError } from '../../src/domain/source/types.ts';
import { checkSpec } from '../../src/domain/spec/parse.ts';

type Node = { id: string; [key: string]: unknown };
type Edge = { from: string; to: string; [key: string]: unknown };

function read(text: string) {
  const imported = importDot(text);
  const { problems } = checkSpec(imported.spec, { isIcon: isCatalogIcon });
  assert.deepEqual(problems, [], 'the spec passes the spec\'s own checks');
  const nodes = (imported.spec.nodes ?? []) as Node[];
  const edges = (imported.spec.edges ?? []) as Edge[];
  return { ...imported, nodes, edges, node: (id: string) => nodes.find((n) => n.id === id)!, warned: (pattern: RegExp) => imported.warnings.find((w) => pattern.test(w.message)) };
}

describe('DOT importer', () => {
  test('digraph: nodes named only in edges exist, edges in order, arrow ends by default', () => {
    const { nodes, edges } = read('digraph G { a -> b; b -> c; }');
    assert.deepEqual(nodes.map((n) => n.id), ['a', 'b', 'c']);
    assert.deepEqual(edges, [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }]);
  });

  test('graph (undirected): edges without arrowheads', () => {
    assert.deepEqual(read('graph { a -- b }').edges, [{ from: 'a', to: 'b', arrowhead: 'none' }]);
  });

  test('chains and groups: a -> b -> c and a -> {b c}', () => {
    const { edges } = read('digraph { a -> b -> c; x -> {y z} }');
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['a>b', 'b>c', 'x>y', 'x>z']);
  });

  test('strict merges repeated edges', () => {
    assert.equal(read('strict digraph { a -> b; a -> b }').edges.length, 1);
    assert.equal(read('digraph { a -> b; a -> b }').edges.length, 2);
  });

  test('rankdir gives the direction', () => {
    assert.deepEqual(read('digraph { rankdir=LR; a -> b }').spec.layout, { direction: 'LR' });
    assert.deepEqual(read('digraph { graph [rankdir="BT"]; a -> b }').spec.layout, { direction: 'BT' });
    assert.equal(read('digraph { a -> b }').spec.layout, undefined);
  });

  test('nested clusters are nested containers, with their labels; a node belongs to the innermost cluster naming it', () => {
    const { node } = read('digraph { subgraph cluster_outer { label="Outer"; a; subgraph cluster_inner { label=Inner; b } } a -> b; c }');
    assert.deepEqual(node('cluster_outer'), { id: 'cluster_outer', label: 'Outer' });
    assert.deepEqual(node('cluster_inner'), { id: 'cluster_inner', label: 'Inner', parent: 'cluster_outer' });
    assert.equal(node('a').parent, 'cluster_outer');
    assert.equal(node('b').parent, 'cluster_inner');
    assert.equal(node('c').parent, undefined);
  });

  test('a subgraph that is not a cluster only groups statements', () => {
    const { nodes } = read('digraph { subgraph g { a -> b } }');
    assert.deepEqual(nodes.map((n) => n.id), ['a', 'b']);
  });

  test('node defaults apply to what follows in their scope, explicit attributes win', () => {
    const { node } = read('digraph { a; node [shape=box, color=red]; b; subgraph s { node [shape=diamond]; c } d [color=blue] }');
    assert.equal(node('a').shape, 'ellipse', 'declared before the defaults: dot\'s default ellipse');
    assert.equal(node('b').shape, undefined, 'a box is the spec\'s default rectangle');
    assert.equal(node('b').strokeColor, 'red');
    assert.equal(node('c').shape, 'diamond');
    assert.equal(node('d').strokeColor, 'blue');
  });

  test('labels: \\n \\l \\r break lines, \\N is the node name, \\" a quote', () => {
    const { node, edges } = read('digraph { a [label="one\\ntwo\\lthree\\r"]; b [label="node \\N"]; c [label="say \\"hi\\""]; a -> b [label="x\\ny"] }');
    assert.equal(node('a').label, 'one\ntwo\nthree');
    assert.equal(node('b').label, 'node b');
    assert.equal(node('c').label, 'say "hi"');
    assert.equal(edges[0]!.label, 'x\ny');
  });

  test('shapes map to the nearest spec shape; one without a likeness yet warns once, at its line', () => {
    const { node, warnings } = read('digraph {\n a [shape=box]; b [shape=circle]; c [shape=diamond]; d [shape=plaintext]\n e [shape=cylinder]; f [shape=cylinder]\n}');
    assert.equal(node('a').shape, undefined);
    assert.equal(node('b').shape, 'ellipse');
    assert.equal(node('c').shape, 'diamond');
    assert.equal(node('d').shape, 'text');
    assert.equal(node('e').shape, undefined);
    assert.deepEqual(warnings, [{ line: 3, message: 'shape=cylinder is drawn as a rectangle' }]);
  });

  test('a point is a start marker (a small filled dot)', () => {
    assert.deepEqual(read('digraph { p [shape=point] }').node('p'), { id: 'p', shape: 'start' });
  });

  test('colours: CSS names and hex as they are, X11 shades and HSV converted, filled uses fillcolor then color', () => {
    const { node } = read('digraph { a [color="#1971c2"]; b [style=filled, fillcolor=gray90]; c [style=filled, color=lightblue2]; d [style=filled, fillcolor="0.000 1.000 1.000"]; e [fillcolor=red] }');
    assert.equal(node('a').strokeColor, '#1971c2');
    assert.deepEqual([node('b').backgroundColor, node('b').fillStyle], ['#e5e5e5', 'solid'], 'X11 gray90');
    assert.equal(node('c').backgroundColor, '#a1c9d6');
    assert.equal(node('d').backgroundColor, '#ff0000');
    assert.equal(node('e').backgroundColor, undefined, 'a fill colour without style=filled draws no fill');
  });

  test('a filled node whose outline colour is its fill keeps a readable label: Graphviz writes it in black', () => {
    const { node, warned } = read('digraph { node [style=filled, color=lightblue2]; a; b [fontcolor=white, color=navy] }');
    assert.deepEqual([node('a').backgroundColor, node('a').strokeColor], ['#a1c9d6', undefined]);
    assert.deepEqual([node('b').backgroundColor, node('b').strokeColor], ['navy', 'white']);
    assert.ok(warned(/replaced by the label's/));
  });

  test('an unknown colour is left out with a warning', () => {
    const { node, warned } = read('digraph { a [color=notacolour] }');
    assert.equal(node('a').strokeColor, undefined);
    assert.ok(warned(/"notacolour" is not one Drawbridge knows/));
  });

  test('edge styles and arrowheads: dashed, dotted, dir, arrowhead and arrowtail names', () => {
    const { edges } = read('digraph { a -> b [style=dashed]; a -> c [style=dotted]; a -> d [dir=back]; a -> e [dir=both, arrowhead=odot, arrowtail=diamond]; a -> f [arrowhead=empty]; a -> g [dir=none]; a -> h [arrowhead=tee] }');
    assert.deepEqual(edges, [
      { from: 'a', to: 'b', style: 'dashed' },
      { from: 'a', to: 'c', style: 'dotted' },
      { from: 'a', to: 'd', arrowhead: 'none', startArrowhead: 'arrow' },
      { from: 'a', to: 'e', arrowhead: 'circle', startArrowhead: 'diamond' },
      { from: 'a', to: 'f', arrowhead: 'triangle' },
      { from: 'a', to: 'g', arrowhead: 'none' },
      { from: 'a', to: 'h', arrowhead: 'bar' },
    ]);
  });

  test('an edge default applies to later edges in its scope', () => {
    const { edges } = read('digraph { a -> b; edge [style=dashed]; b -> c }');
    assert.deepEqual(edges.map((e) => e.style), [undefined, 'dashed']);
  });

  test('HTML-like labels become plain lines, with a warning', () => {
    const { node, warned } = read('digraph { a [label=<<b>Orders</b><br/>service &amp; DB>]; t [label=<<table><tr><td>id</td><td>int</td></tr><tr><td>name</td></tr></table>>] }');
    assert.equal(node('a').label, 'Orders\nservice & DB');
    assert.equal(node('t').label, 'id int\nname');
    assert.ok(warned(/HTML-like labels are drawn as plain text/));
  });

  test('record labels: one line per field, ports dropped; an edge to a port ends at the node', () => {
    const { node, edges, warned } = read('digraph { r [shape=record, label="{Order|<id> id: int|total}"]; a -> r:id }');
    assert.equal(node('r').label, 'Order\nid: int\ntotal');
    assert.deepEqual(edges, [{ from: 'a', to: 'r' }]);
    assert.ok(warned(/ports \(node:port\) are not kept/));
  });

  test('invisible edges are left out and invisible nodes drawn empty, each with a warning', () => {
    const { edges, node, warned } = read('digraph { a -> b [style=invis]; c [style=invis]; a -> c }');
    assert.deepEqual(edges, [{ from: 'a', to: 'c' }]);
    assert.deepEqual(node('c'), { id: 'c', label: '', shape: 'text' });
    assert.ok(warned(/invisible edges/));
    assert.ok(warned(/invisible nodes/));
  });

  test('what is not drawn is warned about at its line: links, positions, rank=same, constraint, head labels', () => {
    const { warnings } = read('digraph {\n  a [URL="https://x"];\n  b [pos="1,2!"];\n  { rank=same; a; b }\n  a -> b [constraint=false];\n  a -> b [headlabel="1"];\n}');
    assert.deepEqual(warnings.map((w) => w.line), [2, 3, 4, 5, 6]);
    assert.match(warnings[2]!.message, /rank=same groups are not honoured yet/);
  });

  test('layout tuning attributes (nodesep, splines, fontname) are ignored without a warning', () => {
    assert.deepEqual(read('digraph { nodesep=0.5; splines=ortho; fontname="Helvetica"; a -> b }').warnings, []);
  });

  test('the graph label is the title', () => {
    assert.equal(read('digraph { label="Release\\nflow"; a }').title, 'Release flow');
    assert.equal(read('digraph { a }').title, null);
  });

  test('a syntax error names its line, column and what the parser expected', () => {
    assert.throws(
      () => importDot('digraph {\n  a -> ;\n}'),
      (error: unknown) => error instanceof SourceSyntaxError && error.line === 2 && error.column === 8 && error.message === 'unexpected ";"' && error.expected.includes('NUMBER'),
    );
    assert.throws(() => importDot('// nothing here'), (error: unknown) => error instanceof SourceSyntaxError && error.line === 1);
  });
});

describe('docs/mermaid-and-dot.md', () => {
  test('every DOT shape its table names is drawn as the table says', () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'mermaid-and-dot.md'), 'utf8');
    const dot = doc.slice(doc.indexOf('## DOT'));
    const rows = dot.split('\n').filter((line) => line.startsWith('| `shape='));
    assert.ok(rows.length >= 5, 'the table lists shapes');
    const drawnAs: Record<string, string | undefined> = { rectangle: undefined, ellipse: 'ellipse', 'a start marker (a small filled dot)': 'start', diamond: 'diamond', 'text without an outline': 'text' };
    for (const row of rows) {
      const [names, drawn] = row.split('|').slice(1, -1).map((cell) => cell.trim());
      const expected = drawn!.replace(/, warned$/, '');
      assert.ok(expected in drawnAs, `a known drawing: ${drawn}`);
      for (const name of names!.match(/`([^`]+)`/g)!.map((quoted) => quoted.slice(1, -1).replace(/^shape=/, ''))) {
        const imported = importDot(`digraph { a [shape=${name}] }`);
        const node = (imported.spec.nodes as Array<{ shape?: string }>)[0]!;
        assert.equal(node.shape, drawnAs[expected], `shape=${name}`);
        assert.equal(imported.warnings.length > 0, drawn!.endsWith('warned'), `shape=${name} warned as the table says`);
      }
    }
  });
});

/**
 * The DOT importer, construct by construct: each case reads a small graph and
 * asserts the spec it makes (and that the spec passes the spec's own checks),
 * or the warning it gives (at its line), or the syntax error.
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
  assert.deepEqual(problems, [], "the spec passes the spec's own checks");
  const nodes = (imported.spec.nodes ?? []) as Node[];
  const edges = (imported.spec.edges ?? []) as Edge[];
  return {
    ...imported,
    nodes,
    edges,
    node: (id: string) => nodes.find((n) => n.id === id)!,
    warned: (pattern: RegExp) => imported.warnings.find((w) => pattern.test(w.message)),
  };
}

describe('DOT importer: graphs, statements and scopes', () => {
  test('digraph: nodes named only in edges exist, edges in source order, arrows at the head by default', () => {
    const { nodes, edges, warnings } = read('digraph G { a -> b; b -> c; }');
    assert.deepEqual(nodes, [{ id: 'a', shape: 'ellipse' }, { id: 'b', shape: 'ellipse' }, { id: 'c', shape: 'ellipse' }]);
    assert.deepEqual(edges, [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }]);
    assert.deepEqual(warnings, []);
  });

  test('graph (undirected): edges without arrowheads', () => {
    assert.deepEqual(read('graph { a -- b }').edges, [{ from: 'a', to: 'b', arrowhead: 'none' }]);
  });

  test('chains, node groups and subgraphs as edge ends make every edge they write', () => {
    const { edges, nodes } = read('digraph { a -> b -> c; x -> {y z}; {p q} -> r; s -> subgraph t { u -> v } w -> subgraph { k } }');
    assert.deepEqual(edges.map((e) => `${e.from}>${e.to}`), ['a>b', 'b>c', 'x>y', 'x>z', 'p>r', 'q>r', 'u>v', 's>u', 's>v', 'w>k']);
    assert.ok(!nodes.some((n) => n.id === 'subgraph' || n.id === 't'), 'subgraph and its name are no nodes');
  });

  test('quoted ids are the ids, unquoted', () => {
    const { nodes, edges } = read('digraph { "web app" -> "db:main"; "say \\"x\\"" }');
    assert.deepEqual(nodes.map((n) => n.id), ['web app', 'db:main', 'say "x"']);
    assert.deepEqual(edges, [{ from: 'web app', to: 'db:main' }]);
  });

  test('strict merges repeated edges, both ways in an undirected graph, and a repeat sets attributes of the one edge', () => {
    assert.deepEqual(read('strict digraph { a -> b; a -> b [style=dashed]; b -> a }').edges, [
      { from: 'a', to: 'b', style: 'dashed' },
      { from: 'b', to: 'a' },
    ]);
    assert.equal(read('strict graph { a -- b; b -- a }').edges.length, 1);
    assert.equal(read('digraph { a -> b; a -> b }').edges.length, 2);
  });

  test('rankdir gives the direction, as an attribute statement or in graph [...]', () => {
    assert.deepEqual(read('digraph { rankdir=LR; a -> b }').spec.layout, { direction: 'LR' });
    assert.deepEqual(read('digraph { graph [rankdir="BT"]; a -> b }').spec.layout, { direction: 'BT' });
    assert.equal(read('digraph { a -> b }').spec.layout, undefined);
  });

  test('node defaults apply to nodes first named after them in their scope; explicit attributes win; a subgraph\'s defaults end with it', () => {
    const { node } = read('digraph { a; node [shape=box, color=red]; b; subgraph s { node [shape=diamond]; c } d [color=blue]; a; e }');
    assert.equal(node('a').shape, 'ellipse', "named before the defaults: dot's default ellipse, and naming it again changes nothing");
    assert.equal(node('b').shape, undefined, "a box is the spec's default rectangle");
    assert.equal(node('b').strokeColor, 'red');
    assert.equal(node('c').shape, 'diamond');
    assert.equal(node('d').strokeColor, 'blue');
    assert.equal(node('e').shape, undefined, 'the subgraph\'s diamond default does not leak out');
  });

  test('edge defaults apply to later edges in their scope', () => {
    const { edges } = read('digraph { a -> b; edge [style=dashed]; b -> c; subgraph { edge [style=dotted]; c -> d } d -> e }');
    assert.deepEqual(edges.map((e) => e.style), [undefined, 'dashed', 'dotted', 'dashed']);
  });

  test('only the first graph of a file is drawn, with a warning at the second', () => {
    const { nodes, warnings } = read('digraph one { a }\ndigraph two { b }');
    assert.throws(() => importDot('digraph one { a }\nnonsense'), SourceSyntaxError);
    assert.deepEqual(nodes.map((n) => n.id), ['a']);
    assert.deepEqual(warnings, [{ line: 2, message: 'only the first graph of the file is drawn' }]);
  });

  test('the graph label is the title, on one line', () => {
    assert.equal(read('digraph { label="Release\\nflow"; a }').title, 'Release flow');
    assert.equal(read('digraph { label=<<b>Release</b> flow>; a }').title, 'Release flow');
    assert.equal(read('digraph { a }').title, null);
  });

  test('the graph label is also its caption, drawn where Graphviz draws it: below, or above with labelloc=t; a cluster\'s label is not', () => {
    assert.deepEqual(read('digraph { label="Release\\nflow"; a }').spec, { nodes: [{ id: 'a', shape: 'ellipse' }], edges: [], caption: 'Release\nflow', layout: { captionAt: 'bottom' } });
    assert.deepEqual(read('digraph { labelloc=t; label="Release"; subgraph cluster_x { label="X"; a } }').spec.caption, 'Release');
    assert.equal(read('digraph { labelloc=t; label="Release"; a }').spec.layout, undefined);
    assert.equal(read('digraph { subgraph cluster_x { label="X"; a } }').spec.caption, undefined);
  });

  test('ids that are empty or longer than the spec takes are shortened, stably, and keep the text as their label', () => {
    const long = 'x'.repeat(150);
    const { nodes, edges, warned } = read(`digraph { "${long}" -> "" }`);
    assert.equal(nodes[0]!.label, long);
    assert.ok((nodes[0]!.id as string).length <= 100);
    assert.equal(nodes[1]!.label, '');
    assert.deepEqual(edges, [{ from: nodes[0]!.id, to: nodes[1]!.id }]);
    assert.deepEqual(importDot(`digraph { "${long}" -> "" }`).spec, read(`digraph { "${long}" -> "" }`).spec, 'the same ids every time');
    assert.ok(warned(/shortened/));
  });
});

describe('DOT importer: clusters, subgraphs and ranks', () => {
  test('nested clusters are nested containers with their labels; a node belongs to the innermost cluster naming it', () => {
    const { node } = read('digraph { subgraph cluster_outer { label="Outer"; a; subgraph cluster_inner { label=Inner; b } } a -> b; c }');
    assert.deepEqual(node('cluster_outer'), { id: 'cluster_outer', label: 'Outer' });
    assert.deepEqual(node('cluster_inner'), { id: 'cluster_inner', label: 'Inner', parent: 'cluster_outer' });
    assert.equal(node('a').parent, 'cluster_outer');
    assert.equal(node('b').parent, 'cluster_inner');
    assert.equal(node('c').parent, undefined);
  });

  test('a node named first at the top and then in a cluster moves into it', () => {
    assert.equal(read('digraph { a -> b; subgraph cluster_x { b } }').node('b').parent, 'cluster_x');
  });

  test('a cluster is named cluster… in any case, or marked cluster=true', () => {
    const { node } = read('digraph { subgraph Cluster_A { a } subgraph group { cluster=true; b } subgraph plain { c } }');
    assert.equal(node('a').parent, 'Cluster_A');
    assert.equal(node('b').parent, 'group');
    assert.equal(node('c').parent, undefined);
    assert.equal(node('plain'), undefined);
  });

  test('a cluster with an id attribute is the container of that id (as Drawbridge writes a container not named cluster…); an id taken by a node gets a suffix', () => {
    const { node } = read('digraph { x; subgraph cluster_api { id="api"; label="API"; a } subgraph cluster_x { id=x; b } subgraph cluster_c { c } }');
    assert.deepEqual(node('api'), { id: 'api', label: 'API' });
    assert.equal(node('a').parent, 'api');
    assert.equal(node('b').parent, 'x~2');
    assert.equal(node('c').parent, 'cluster_c');
  });

  test('a subgraph that is not a cluster only groups statements; its attributes label no container', () => {
    const { nodes, node } = read('digraph { subgraph cluster_x { label=X; subgraph g { label=G; a -> b } } { c } }');
    assert.deepEqual(nodes.map((n) => n.id), ['cluster_x', 'a', 'b', 'c']);
    assert.equal(node('cluster_x').label, 'X');
    assert.equal(node('a').parent, 'cluster_x');
  });

  test('clusters take the graph attributes in force where they open, as Graphviz scopes them', () => {
    const { node } = read('digraph { subgraph cluster_a { a } color=red; style=filled; fillcolor=lightyellow; subgraph cluster_b { b; subgraph cluster_c { c } } }');
    assert.equal(node('cluster_a').strokeColor, undefined, 'opened before the colour was set');
    assert.deepEqual([node('cluster_b').strokeColor, node('cluster_b').backgroundColor, node('cluster_b').fillStyle], ['red', 'lightyellow', 'solid']);
    assert.equal(node('cluster_c').backgroundColor, 'lightyellow', 'nested clusters inherit too');
  });

  test('cluster styles: bgcolor fills, pencolor outlines, fontcolor colours the label, bold and penwidth widen, invis hides', () => {
    const { node } = read(
      'digraph { subgraph cluster_a { bgcolor="#eeeeee"; pencolor=blue; fontcolor=darkgreen; a } subgraph cluster_b { style=bold; b } subgraph cluster_c { penwidth=3; c } subgraph cluster_d { style=invis; d } subgraph cluster_e { peripheries=0; label=E; e } }',
    );
    assert.deepEqual(node('cluster_a'), { id: 'cluster_a', label: '', backgroundColor: '#eeeeee', fillStyle: 'solid', strokeColor: 'blue', textColor: 'darkgreen' });
    assert.equal(node('cluster_b').strokeWidth, 4);
    assert.equal(node('cluster_c').strokeWidth, 6);
    assert.equal(node('cluster_d').invisible, true);
    assert.deepEqual([node('cluster_e').strokeColor, node('cluster_e').textColor], ['transparent', '#1e1e1e']);
  });

  test('a dashed cluster stays dashed and then clusters without a style are drawn solid, as Graphviz draws them', () => {
    const { node } = read('digraph { subgraph cluster_a { style=dashed; a } subgraph cluster_b { b } }');
    assert.equal(node('cluster_a').strokeStyle, 'dashed');
    assert.equal(node('cluster_b').strokeStyle, 'solid');
    assert.equal(read('digraph { subgraph cluster_b { b } }').node('cluster_b').strokeStyle, undefined, "without a dashed one, Drawbridge's container look");
  });

  test('rank=same makes a sameRank group of the subgraph\'s nodes, nested and edge-named ones included', () => {
    const { spec } = read('digraph { a -> b; { rank=same; b; c -> d } subgraph cluster_x { rank=same; e; f } }');
    assert.deepEqual(spec.layout, { sameRank: [['b', 'c', 'd'], ['e', 'f']] });
  });

  test('groups that share a node are merged into one', () => {
    assert.deepEqual(read('digraph { {rank=same; a; b} {rank=same; c; d} {rank=same; b; c} x }').spec.layout, { sameRank: [['a', 'b', 'c', 'd']] });
  });

  test('rank=min, source, max and sink keep their nodes on one rank, with a warning that it is not the first or last', () => {
    const { spec, warnings } = read('digraph {\n  a -> b -> c\n  { rank=min; a; x }\n  { rank=sink; c }\n}');
    assert.deepEqual(spec.layout, { sameRank: [['a', 'x']] });
    assert.deepEqual(warnings, [{ line: 3, message: 'rank=min keeps its nodes on one rank, but not on the first' }]);
  });

  test('rank at the top level does nothing, as in Graphviz', () => {
    const { spec, warnings } = read('digraph { rank=same; a -> b }');
    assert.equal(spec.layout, undefined);
    assert.deepEqual(warnings, []);
  });

  test('a cluster named like a node gets its own id', () => {
    const { nodes } = read('digraph { cluster_a -> b; subgraph cluster_a { c } }');
    assert.deepEqual(nodes.map((n) => n.id).sort(), ['b', 'c', 'cluster_a', 'cluster_a~2']);
  });
});

describe('DOT importer: labels', () => {
  test('\\n \\l \\r break lines, \\N \\G \\E \\T \\H are names, \\" \\\\ and other escapes are the character', () => {
    const { node, edges } = read('digraph G { a [label="one\\ntwo\\lthree\\r"]; b [label="node \\N of \\G"]; c [label="say \\"hi\\" \\\\ \\q"]; a -> b [label="\\E: \\T to \\H"] }');
    assert.equal(node('a').label, 'one\ntwo\nthree');
    assert.equal(node('b').label, 'node b of G');
    assert.equal(node('c').label, 'say "hi" \\ q');
    assert.equal(edges[0]!.label, 'a->b: a to b');
  });

  test('a node without a label shows its name as dot does, its escapes read: "Statement\\nAssignment" is two lines', () => {
    // rustc's MIR diagram names its nodes this way and gives them no label.
    const { spec } = read('digraph { "Statement\\nAssignment" -> Place; plain }');
    const nodes = spec.nodes as Array<{ id: string; label?: string }>;
    assert.deepEqual(
      nodes.map((n) => n.label ?? n.id),
      ['Statement\nAssignment', 'Place', 'plain'],
    );
  });

  test('a backslash at a line end continues the string, and "a" + "b" is one string; later lines keep their numbers', () => {
    const { node, warnings } = read('digraph {\n  a [label="first \\\nhalf"];\n  b [label="one" +\n "two"];\n  c [URL="x"]\n}');
    assert.equal(node('a').label, 'first half');
    assert.equal(node('b').label, 'onetwo');
    assert.deepEqual(warnings.map((w) => w.line), [6]);
  });

  test('spaces around a label\'s lines and blank lines around it are dropped; blank lines within stay', () => {
    const { node, edges } = read('digraph { a [label="\\nTitle\\n\\n  body  \\n"]; a -> b [label="  uses"] }');
    assert.equal(node('a').label, 'Title\n\nbody');
    assert.equal(edges[0]!.label, 'uses');
  });

  test('an empty label shows none; a label equal to the id is left to default', () => {
    const { node } = read('digraph { a [label=""]; b [label="b"]; c [label="\\N"] }');
    assert.equal(node('a').label, '');
    assert.equal(node('b').label, undefined);
    assert.equal(node('c').label, undefined);
  });

  test('record labels: side-by-side fields joined by " | " in a top-down graph, braces stack them, ports dropped, warned', () => {
    const { node, warned } = read('digraph { r [shape=record, label="<f0> left|<f1> mid\\ dle|<f2> right"]; s [shape=Mrecord, label="{Order|<id> id: int|total}"]; t [shape=record, label="{a|{b|c}|d}"] }');
    assert.equal(node('r').label, 'left | mid dle | right');
    assert.equal(node('s').label, 'Order\nid: int\ntotal');
    assert.equal(node('t').label, 'a\nb | c\nd');
    assert.equal(node('r').shape, undefined, 'a rectangle');
    assert.ok(warned(/record labels are drawn as text/));
  });

  test('record labels turn with the graph: in a left-to-right graph the top-level fields stack', () => {
    assert.equal(read('digraph { rankdir=LR; r [shape=record, label="a|b|{c|d}"] }').node('r').label, 'a\nb\nc | d');
  });

  test('record escapes: \\{ \\| \\< \\> are literal', () => {
    assert.equal(read('digraph { r [shape=record, label="x \\{ y \\| z \\<w\\>"] }').node('r').label, 'x { y | z <w>');
  });

  test('HTML-like labels: <br/> and table rows break lines, cells join with " | ", entities are decoded, and the flattening is warned', () => {
    const { node, warned } = read('digraph { a [label=<Orders<br/>service &amp; DB>]; t [shape=plaintext, label=<<table border="0"><tr><td>id</td><td>int</td></tr><tr><td>name</td><td></td></tr></table>>] }');
    assert.equal(node('a').label, 'Orders\nservice & DB');
    assert.equal(node('t').label, 'id | int\nname');
    assert.equal(node('t').shape, 'text', 'a borderless table on plaintext is text');
    assert.ok(warned(/HTML-like labels are drawn as plain text/));
  });

  test('an HTML label in bold, italics or one font colour throughout keeps that look, without a warning', () => {
    const { node, warnings } = read('digraph { a [label=<<b>Orders</b><br/><b>API</b>>]; b [label=<<i>maybe</i>>]; c [label=<<font color="red">hot</font>>] }');
    assert.deepEqual([node('a').label, node('a').bold], ['Orders\nAPI', true]);
    assert.equal(node('b').italic, true);
    assert.equal(node('c').textColor, 'red');
    assert.deepEqual(warnings, []);
  });

  test('an HTML label bold only in part is flattened, warned', () => {
    const { node, warned } = read('digraph { a [label=<<b>Orders</b> API>] }');
    assert.equal(node('a').bold, undefined);
    assert.ok(warned(/HTML-like labels/));
  });

  test('an HTML table with a border on a plaintext node draws a box; nested tables flatten into lines; images are warned', () => {
    const { node, warned } = read('digraph { t [shape=none, label=<<table><tr><td>User</td></tr><tr><td><table><tr><td>id</td><td>int</td></tr></table></td></tr><tr><td><img src="x.png"/></td></tr></table>>] }');
    assert.equal(node('t').shape, undefined, 'a rectangle');
    assert.equal(node('t').label, 'User\nid | int');
    assert.ok(warned(/images/));
  });

  test('a borderless HTML table with cell borders also draws a box, and a table\'s background colour fills the node', () => {
    const { node } = read('digraph { t [shape=plaintext, label=<<table border="0" cellborder="1" bgcolor="lightyellow"><tr><td>a</td></tr></table>>] }');
    assert.deepEqual(node('t'), { id: 't', label: 'a', backgroundColor: 'lightyellow', fillStyle: 'solid' });
  });

  test('edge labels: label, then xlabel when there is none; head and tail labels (escapes and all) become headLabel and tailLabel, without a warning', () => {
    const { edges, warnings } = read('digraph { a -> b [label="x\\ny"]; b -> c [xlabel="side"]; c -> d [headlabel="1", taillabel="0..\\n*", labelangle=30, labeldistance=2]; d -> e [headlabel=" "] }');
    assert.deepEqual(edges.map((e) => e.label), ['x\ny', 'side', undefined, undefined]);
    assert.deepEqual(edges.map((e) => [e.headLabel, e.tailLabel]), [[undefined, undefined], [undefined, undefined], ['1', '0..\n*'], [undefined, undefined]]);
    assert.deepEqual(warnings, []);
  });

  test('a node xlabel is warned', () => {
    assert.deepEqual(read('digraph {\n a [xlabel="outside"]\n}').warnings, [{ line: 2, message: 'external node labels (xlabel) are not drawn' }]);
  });
});

describe('DOT importer: node shapes and looks', () => {
  const shapeOf = (shape: string) => {
    const imported = importDot(`digraph { a [shape=${shape}] }`);
    return { shape: (imported.spec.nodes as Node[])[0]!.shape ?? 'rectangle', warnings: imported.warnings.map((w) => w.message) };
  };

  test('shapes with a likeness in the spec map to it without a warning', () => {
    const expected: Record<string, string> = {
      box: 'rectangle', rect: 'rectangle', rectangle: 'rectangle', square: 'rectangle', Msquare: 'rectangle', record: 'rectangle', Mrecord: 'rectangle',
      ellipse: 'ellipse', oval: 'ellipse', egg: 'ellipse', circle: 'circle', Mcircle: 'circle', point: 'start', diamond: 'diamond', Mdiamond: 'diamond',
      cylinder: 'cylinder', hexagon: 'hexagon', octagon: 'hexagon', septagon: 'hexagon', pentagon: 'hexagon', parallelogram: 'parallelogram',
      note: 'document', component: 'subroutine', plaintext: 'text', plain: 'text', none: 'text',
    };
    for (const [name, shape] of Object.entries(expected)) assert.deepEqual(shapeOf(name), { shape, warnings: [] }, name);
  });

  test('shapes drawn with less than Graphviz draws are warned, saying what is missing', () => {
    assert.deepEqual(shapeOf('doublecircle'), { shape: 'doublecircle', warnings: [] });
    assert.deepEqual(shapeOf('doubleoctagon'), { shape: 'hexagon', warnings: ['shape=doubleoctagon is drawn as a hexagon with one outline'] });
    assert.deepEqual(shapeOf('trapezium'), { shape: 'parallelogram', warnings: ['shape=trapezium is drawn as a parallelogram'] });
    assert.deepEqual(shapeOf('underline'), { shape: 'text', warnings: ['shape=underline is drawn as text without the line under it'] });
    for (const name of ['tab', 'folder', 'box3d', 'house', 'star', 'cds']) assert.deepEqual(shapeOf(name), { shape: 'rectangle', warnings: [`shape=${name} is drawn as a rectangle`] });
    assert.deepEqual(shapeOf('blob'), { shape: 'rectangle', warnings: ['shape=blob is not a Graphviz shape; drawn as a rectangle, as Graphviz draws it'] });
  });

  test('a polygon is a parallelogram when skewed, a hexagon with five sides or more, else a rectangle', () => {
    const { node } = read('digraph { a [shape=polygon, skew=0.4]; b [shape=polygon, sides=7]; c [shape=polygon] }');
    assert.deepEqual([node('a').shape, node('b').shape, node('c').shape], ['parallelogram', 'hexagon', undefined]);
  });

  test('a shape warning is given once, at the line where the shape is written', () => {
    const { warnings } = read('digraph {\n node [shape=tab]\n a; b\n c [shape=tab]\n}');
    assert.deepEqual(warnings, [{ line: 2, message: 'shape=tab is drawn as a rectangle' }]);
  });

  test('a point is a start marker (a small filled dot) in its colour; it has no label', () => {
    assert.deepEqual(read('digraph { p [shape=point, label="x"] }').node('p'), { id: 'p', shape: 'start' });
    assert.deepEqual(read('digraph { p [shape=point, color=red] }').node('p'), { id: 'p', shape: 'start', strokeColor: 'red' });
  });

  test('a point with a ring around it (peripheries=2, Graphviz\'s final state) is an end marker', () => {
    assert.deepEqual(read('digraph { e [shape=point, peripheries=2, label="x"] }').node('e'), { id: 'e', shape: 'end' });
    assert.deepEqual(read('digraph { e [shape=point, peripheries=2, color=blue] }').node('e'), { id: 'e', shape: 'end', strokeColor: 'blue' });
  });

  test('colours: CSS names and hex as they are, X11 shades and HSV converted, black left to the default ink', () => {
    const { node } = read('digraph { node [shape=box]; a [color="#1971c2"]; b [style=filled, fillcolor=gray90]; c [style=filled, fillcolor="0.000 1.000 1.000"]; d [color="#ff000080"]; e [color=black] }');
    assert.equal(node('a').strokeColor, '#1971c2');
    assert.deepEqual([node('b').backgroundColor, node('b').fillStyle], ['#e5e5e5', 'solid'], 'X11 gray90');
    assert.equal(node('c').backgroundColor, '#ff0000');
    assert.equal(node('d').strokeColor, '#ff000080');
    assert.deepEqual(node('e'), { id: 'e' });
  });

  test('style=filled fills with fillcolor, else color, else light grey; a fillcolor without filled draws no fill', () => {
    const { node } = read('digraph { node [shape=box]; a [style=filled, fillcolor=yellow]; b [style=filled, color=lightblue2]; c [style=filled]; d [fillcolor=red] }');
    assert.equal(node('a').backgroundColor, 'yellow');
    assert.equal(node('b').backgroundColor, '#a1c9d6');
    assert.equal(node('c').backgroundColor, 'lightgrey');
    assert.equal(node('d').backgroundColor, undefined);
  });

  test('a colour list is drawn in its first colour, warned; an unknown colour is left out, warned', () => {
    const { node, warned } = read('digraph { node [shape=box]; a [style=filled, fillcolor="red:blue"]; b [color=notacolour] }');
    assert.equal(node('a').backgroundColor, 'red');
    assert.equal(node('b').strokeColor, undefined);
    assert.ok(warned(/colour lists/));
    assert.ok(warned(/"notacolour" is not one Drawbridge knows/));
  });

  test('the label keeps its own colour, as Graphviz draws it: fontcolor, else black on a coloured outline', () => {
    const { node } = read('digraph { node [shape=box]; a [fontcolor=red]; b [color=blue]; c [color=blue, fontcolor=blue]; d [color=navy, fontcolor=darkgreen] }');
    assert.deepEqual(node('a'), { id: 'a', textColor: 'red' });
    assert.deepEqual(node('b'), { id: 'b', strokeColor: 'blue', textColor: '#1e1e1e' });
    assert.deepEqual(node('c'), { id: 'c', strokeColor: 'blue' });
    assert.deepEqual(node('d'), { id: 'd', strokeColor: 'navy', textColor: 'darkgreen' });
  });

  test('a filled node whose outline colour is its fill keeps a readable label; an unreadable label colour is shaded until it reads, warned', () => {
    const { node, warned } = read('digraph { node [shape=box, style=filled]; a [color=lightblue2]; b [fillcolor=navy]; c [fillcolor=white, fontcolor=white]; d [style=solid, fontcolor=orange]; e [fillcolor=black, fontcolor=navy] }');
    assert.deepEqual(node('a'), { id: 'a', backgroundColor: '#a1c9d6', fillStyle: 'solid', strokeColor: '#a1c9d6', textColor: '#1e1e1e' });
    assert.equal(node('b').textColor, '#ffffff', 'black on navy is unreadable: white');
    assert.equal(node('c').textColor, '#808080', 'white on white: a grey that reads');
    assert.equal(node('d').textColor, '#cc8400', 'orange on the white page: a darker orange');
    assert.equal(node('e').textColor, '#6666b3', 'navy on black: a lighter navy');
    assert.ok(warned(/label colours that would not be readable on their fill \(or the white page\) are shaded/));
  });

  test('outline styles: dashed and dotted, bold and penwidth as widths (Graphviz 1 is the spec\'s 2), rounded is the spec\'s rectangle', () => {
    const { node, warnings } = read('digraph { node [shape=box]; a [style=dashed]; b [style=dotted]; c [style=bold]; d [penwidth=3]; e [penwidth=0.5]; f [style="rounded,filled", fillcolor=white]; g [style="setlinewidth(2)"] }');
    assert.equal(node('a').strokeStyle, 'dashed');
    assert.equal(node('b').strokeStyle, 'dotted');
    assert.equal(node('c').strokeWidth, 4);
    assert.equal(node('d').strokeWidth, 6);
    assert.equal(node('e').strokeWidth, 1);
    assert.deepEqual(node('f'), { id: 'f', backgroundColor: 'white', fillStyle: 'solid' });
    assert.equal(node('g').strokeWidth, 4);
    assert.deepEqual(warnings, []);
  });

  test('no outline: peripheries=0, penwidth=0 or a transparent colour; a filled plaintext is a filled box without one', () => {
    const { node } = read('digraph { node [shape=box]; a [peripheries=0]; b [penwidth=0]; c [color=transparent]; d [shape=plaintext, style=filled, fillcolor=yellow] }');
    for (const id of ['a', 'b', 'c']) assert.deepEqual(node(id), { id, strokeColor: 'transparent', textColor: '#1e1e1e' }, id);
    assert.deepEqual(node('d'), { id: 'd', backgroundColor: 'yellow', fillStyle: 'solid', strokeColor: 'transparent', textColor: '#1e1e1e' });
  });

  test('style=invis makes an invisible node that still takes its place', () => {
    assert.deepEqual(read('digraph { node [shape=box]; a [style=invis]; a -> b }').node('a'), { id: 'a', invisible: true });
  });

  test('a font name with Bold, Black or Heavy makes the label bold; Italic or Oblique italic', () => {
    const { node } = read('digraph { node [shape=box]; a [fontname="Helvetica-Bold"]; b [fontname="Times Italic"]; c [fontname="Courier"] }');
    assert.equal(node('a').bold, true);
    assert.equal(node('b').italic, true);
    assert.deepEqual(node('c'), { id: 'c' });
  });

  test('font sizes that differ between nodes are warned, at the first odd one', () => {
    const { warnings } = read('digraph {\n node [fontsize=10]\n a; b; c\n d [fontsize=20]\n}');
    assert.deepEqual(warnings, [{ line: 4, message: 'font sizes (fontsize) are not drawn: every label is drawn at one size' }]);
    assert.deepEqual(read('digraph { node [fontsize=10]; a; b }').warnings, [], 'one size throughout: nothing lost');
  });
});

describe('DOT importer: edges', () => {
  test('edge colours (the first of a list), widths and styles: dashed, dotted, bold, penwidth, invis', () => {
    const { edges } = read('digraph { a -> b [color=red]; a -> c [color="blue:green"]; a -> d [style=dashed]; a -> e [style=dotted]; a -> f [style=bold]; a -> g [penwidth=2.5]; a -> h [style=invis]; a -> i [color=black] }');
    assert.deepEqual(edges, [
      { from: 'a', to: 'b', strokeColor: 'red' },
      { from: 'a', to: 'c', strokeColor: 'blue' },
      { from: 'a', to: 'd', style: 'dashed' },
      { from: 'a', to: 'e', style: 'dotted' },
      { from: 'a', to: 'f', strokeWidth: 4 },
      { from: 'a', to: 'g', strokeWidth: 5 },
      { from: 'a', to: 'h', style: 'invisible' },
      { from: 'a', to: 'i' },
    ]);
  });

  test('arrowheads: dir picks the ends, arrowhead and arrowtail the shapes', () => {
    const { edges } = read(
      'digraph { a -> b [dir=back]; a -> c [dir=both, arrowhead=odot, arrowtail=diamond]; a -> d [arrowhead=empty]; a -> e [dir=none]; a -> f [arrowhead=tee]; a -> g [arrowhead=onormal]; a -> h [arrowhead=vee]; a -> i [arrowhead=dot]; a -> j [arrowhead=odiamond]; a -> k [arrowhead=none]; a -> l [arrowhead=open] }',
    );
    assert.deepEqual(
      edges.map(({ arrowhead, startArrowhead }) => [arrowhead ?? 'arrow', startArrowhead ?? 'none']),
      [['none', 'arrow'], ['circle', 'diamond'], ['triangle', 'none'], ['none', 'none'], ['bar', 'none'], ['triangle', 'none'], ['arrow', 'none'], ['dot', 'none'], ['diamond', 'none'], ['none', 'none'], ['arrow', 'none']],
    );
  });

  test('an undirected graph draws heads only where dir asks', () => {
    assert.deepEqual(read('graph { a -- b [dir=forward, arrowhead=dot] }').edges, [{ from: 'a', to: 'b', arrowhead: 'dot' }]);
  });

  test('arrow shapes the spec has no likeness for, several shapes, and half heads are drawn as the nearest, warned', () => {
    const { edges, warned } = read('digraph { a -> b [arrowhead=crow]; a -> c [arrowhead=veeodot]; a -> d [arrowhead=lnormal]; a -> e [arrowhead=zigzag] }');
    assert.deepEqual(edges.map((e) => e.arrowhead ?? 'arrow'), ['arrow', 'arrow', 'arrow', 'arrow']);
    assert.ok(warned(/the arrowhead "crow" is drawn as an arrow/));
    assert.ok(warned(/several shapes/));
    assert.ok(warned(/half arrowheads/));
    assert.ok(warned(/"zigzag" is not one Graphviz draws/));
  });

  test('constraint=false and minlen become constraint and minLength; minlen is kept within 0–10; weight is ignored', () => {
    const { edges, warnings } = read('digraph {\n a -> b [constraint=false]\n a -> c [minlen=2]\n a -> d [minlen=0]\n a -> e [minlen=1, constraint=true, weight=5]\n a -> f [minlen=40]\n}');
    assert.deepEqual(edges, [
      { from: 'a', to: 'b', constraint: false },
      { from: 'a', to: 'c', minLength: 2 },
      { from: 'a', to: 'd', minLength: 0 },
      { from: 'a', to: 'e' },
      { from: 'a', to: 'f', minLength: 10 },
    ]);
    assert.deepEqual(warnings, [{ line: 6, message: 'minlen is kept within 0–10 ranks' }]);
  });

  test('lhead and ltail with compound=true end the edge at the cluster\'s container', () => {
    const { edges } = read('digraph { compound=true; subgraph cluster_a { a1; a2 } subgraph cluster_b { b1 } a1 -> b1 [lhead=cluster_b]; b1 -> a2 [ltail=cluster_b, lhead=cluster_a]; x -> a1 [lhead=cluster_a] }');
    assert.deepEqual(edges, [
      { from: 'a1', to: 'cluster_b' },
      { from: 'cluster_b', to: 'cluster_a' },
      { from: 'x', to: 'cluster_a' },
    ]);
  });

  test('lhead without compound=true, or naming a cluster its head is not in, is ignored as Graphviz ignores it', () => {
    assert.deepEqual(read('digraph { subgraph cluster_b { b } a -> b [lhead=cluster_b] }').edges, [{ from: 'a', to: 'b' }]);
    const { edges, warned } = read('digraph { compound=true; subgraph cluster_b { b; d } a -> c [lhead=cluster_b]; d -> b [lhead=cluster_b] }');
    assert.deepEqual(edges, [{ from: 'a', to: 'c' }, { from: 'd', to: 'b' }], 'c is not in the cluster; d is in it already');
    assert.ok(warned(/lhead=cluster_b is ignored/));
  });

  test('edges to node:port and node:compass end at the node, warned at their line', () => {
    const { edges, warnings } = read('digraph {\n  r\n  x -> r:p\n  y -> r:n\n}');
    assert.deepEqual(edges, [{ from: 'x', to: 'r' }, { from: 'y', to: 'r' }]);
    assert.deepEqual(warnings, [{ line: 3, message: 'ports and compass points (node:port, headport, tailport) are not kept: edges end at the node' }]);
  });

  test('an end with both a port and a compass point (two letters, _, quoted, spaced) is the node, and the edge keeps its label', () => {
    // varnish's request state machine: lookup:busy:s -> lookup:top:ne [label=" waitinglist"] made a node "e" holding the label.
    const { nodes, edges, warnings } = read('digraph {\n  a:p:s -> a:top:ne [label="wait"]\n  a -> b:top:sw\n  a -> "b":"top":"nw"\n  b : top : _ -> c:x:c [label="go"]\n}');
    assert.deepEqual(nodes.map((n) => n.id).sort(), ['a', 'b', 'c']);
    assert.deepEqual(edges, [
      { from: 'a', to: 'a', label: 'wait' },
      { from: 'a', to: 'b' },
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c', label: 'go' },
    ]);
    assert.deepEqual(warnings, [{ line: 2, message: 'ports and compass points (node:port, headport, tailport) are not kept: edges end at the node' }]);
  });

  test('edges leaving a record from its fields come in the order of the fields: a binary tree keeps its left child on the left', () => {
    // graphviz's tree example writes each node's right edge before its left one.
    const { edges } = read('digraph { node [shape=record]; g [label="<l> |<k> G|<r> "]; g:r -> r; g:l -> e; e:r -> f; x -> g }');
    assert.deepEqual(
      edges.map((e) => `${e.from}>${e.to}`),
      ['g>e', 'g>r', 'e>f', 'x>g'],
    );
  });

  test('an edge label colour of its own is warned', () => {
    assert.ok(read('digraph { a -> b [label=x, fontcolor=red] }').warned(/edge label colours/));
  });
});

describe('DOT importer: what Graphviz takes and the parser alone does not', () => {
  test('attribute lists one after another are one list', () => {
    assert.deepEqual(read('digraph { a -> b [label="x"] [style=dashed] }').edges, [{ from: 'a', to: 'b', label: 'x', style: 'dashed' }]);
  });

  test('line breaks around = and before a comma are taken, and later lines keep their numbers', () => {
    const { node, warnings } = read('digraph {\n  a [label =\n    "x"\n    , color\n = red]\n  b [URL="u"]\n}');
    assert.deepEqual([node('a').label, node('a').strokeColor], ['x', 'red']);
    assert.deepEqual(warnings.map((w) => w.line), [6]);
  });

  test('nodes separated by commas at an edge\'s end are each an end', () => {
    assert.deepEqual(read('digraph { a, b -> c -> d:p, e }').edges.map((e) => `${e.from}>${e.to}`), ['a>c', 'b>c', 'c>d', 'c>e']);
  });

  test('a // comment before a line break that moves still ends where it did', () => {
    assert.equal(read('digraph {\n  a [label="x" // note\n  , color=red]\n}').node('a').strokeColor, 'red');
  });
});

describe('DOT importer: warnings and errors', () => {
  test('what is not drawn is warned about once, at the line where it is written', () => {
    const { warnings } = read('digraph {\n  bgcolor=black\n  a [URL="https://x"];\n  b [pos="1,2!"];\n  c [image="c.png"]\n  d [href="y"]\n  a -> b [headport=n];\n}');
    assert.deepEqual(warnings, [
      { line: 2, message: 'the background colour (bgcolor) is not drawn' },
      { line: 3, message: 'links (URL, href) are not kept' },
      { line: 4, message: 'fixed positions (pos) are not kept: Drawbridge lays the diagram out' },
      { line: 5, message: 'images (image, <img>) are not drawn' },
      { line: 7, message: 'ports and compass points (node:port, headport, tailport) are not kept: edges end at the node' },
    ]);
  });

  test('layout tuning (nodesep, ranksep, splines, size, concentrate, fontname, ordering) is ignored without a warning; an unknown graph attribute is warned', () => {
    assert.deepEqual(read('digraph { nodesep=0.5; ranksep=1; splines=ortho; size="7,7"; concentrate=true; fontname="Helvetica"; ordering=out; a -> b }').warnings, []);
    assert.deepEqual(read('digraph {\n frobnicate=1\n}').warnings, [{ line: 2, message: 'the graph attribute frobnicate is not used' }]);
  });

  test('a syntax error names its line, column and what the parser expected', () => {
    assert.throws(
      () => importDot('digraph {\n  a -> ;\n}'),
      (error: unknown) => error instanceof SourceSyntaxError && error.line === 2 && error.column === 8 && error.message === 'unexpected ";"' && error.expected.includes('NUMBER') && error.expected.includes('"{"'),
    );
    assert.throws(
      () => importDot('digraph {\n  a [color=red\n}'),
      (error: unknown) => error instanceof SourceSyntaxError && error.line === 3 && error.column === 1 && error.expected.includes('"]"'),
    );
    assert.throws(() => importDot('digraph { a -> b'), (error: unknown) => error instanceof SourceSyntaxError && error.line === 1 && error.message === 'unexpected the end of the text');
    assert.throws(() => importDot('// nothing here'), (error: unknown) => error instanceof SourceSyntaxError && error.line === 1);
  });

  test('a subgraph of statements as an edge\'s end, which Graphviz takes but the parser does not, is a syntax error at its place', () => {
    assert.throws(() => importDot('digraph {\n  a -> { rank=same; b c }\n}'), (error: unknown) => error instanceof SourceSyntaxError && error.line === 2 && error.column === 14);
  });
});

describe('DOT importer: speed', () => {
  test('a 50-node graph with clusters and attributes imports in well under a quarter second, on a busy machine too', () => {
    const lines = ['digraph G {', '  node [shape=box, style=filled, fillcolor=lightyellow];'];
    for (let c = 0; c < 5; c++) {
      lines.push(`  subgraph cluster_${c} { label="Group ${c}"; color=blue;`);
      for (let i = 0; i < 10; i++) lines.push(`    n${c}_${i} [label="Node ${c}.${i}\\nline two", color="0.6 0.3 0.9"];`);
      lines.push('  }');
    }
    for (let c = 0; c < 5; c++) for (let i = 0; i < 9; i++) lines.push(`  n${c}_${i} -> n${c}_${i + 1} [label="e${i}"];`);
    for (let c = 0; c < 4; c++) lines.push(`  n${c}_9 -> n${c + 1}_0 [style=dashed];`);
    lines.push('}');
    const text = lines.join('\n');
    importDot(text);
    const start = performance.now();
    const runs = 20;
    for (let i = 0; i < runs; i++) importDot(text);
    const each = (performance.now() - start) / runs;
    assert.equal((importDot(text).spec.nodes as Node[]).length, 55);
    assert.ok(each < 250, `${each.toFixed(2)} ms per import`);
  });
});

describe('DOT importer: the repository\'s own DOT files', () => {
  test('every .dot and .gv file in the repository imports', () => {
    const root = path.join(import.meta.dirname, '..', '..');
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(dot|gv)$/.test(entry.name)) found.push(full);
      }
    };
    walk(root);
    assert.ok(found.length > 0, 'the repository holds DOT files');
    for (const file of found) {
      const { spec } = importDot(fs.readFileSync(file, 'utf8'));
      assert.ok((spec.nodes as Node[]).length > 0, path.relative(root, file));
    }
  });
});

describe('docs/mermaid-and-dot.md', () => {
  test('every DOT shape its table names is drawn as the table says', () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'mermaid-and-dot.md'), 'utf8');
    const dot = doc.slice(doc.indexOf('## DOT'));
    const rows = dot.split('\n').filter((line) => line.startsWith('| `shape='));
    assert.ok(rows.length >= 8, 'the table lists shapes');
    for (const row of rows) {
      const [names, drawn] = row.split('|').slice(1, -1).map((cell) => cell.trim());
      const expected = /^([a-z]+)/.exec(drawn!)![1]!;
      for (const name of names!.match(/`([^`]+)`/g)!.map((quoted) => quoted.slice(1, -1).replace(/^shape=/, ''))) {
        const imported = importDot(`digraph { a [shape=${name}] }`);
        const node = (imported.spec.nodes as Array<{ shape?: string }>)[0]!;
        assert.equal(node.shape ?? 'rectangle', expected, `shape=${name}`);
        assert.equal(imported.warnings.length > 0, /\bwarned\b/.test(drawn!), `shape=${name} warned as the table says`);
      }
    }
  });
});

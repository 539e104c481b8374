/**
 * `npm run bench:quality`: Drawbridge's drawings of the realistic specs in
 * bench/quality/corpus/ against Graphviz dot's drawings of the same graphs.
 *
 * Both drawings come out of the same sceneFromSpec (same node sizes, labels and
 * element builders); only the geometry differs: our layoutGraph, or dot's
 * layout converted by bench/quality/dot-layout.ts. Both are measured by the same
 * code (bench/quality/measure.ts): crossings, lint issues by kind, arrows drawn
 * against the flow, aspect ratio and size; then layout time beside elkjs's.
 * Prints two tables, the totals and the targets; it never fails on the figures.
 * Installs Debian's graphviz when `dot` is missing.
 */
import os from 'node:os';
import { layoutGraph } from '../src/domain/layout/layout.ts';
import type { LayoutInput } from '../src/domain/layout/types.ts';
import { clusteredDag, layeredDag, layoutWithElk, layoutWithElkNested, timeBest } from './layout-engine.ts';
import { drawBoth, loadCorpus } from './quality/corpus.ts';
import { dotLayout, ensureDot } from './quality/dot-layout.ts';
import { defectCount, lintColumns, measureScene, type SceneMeasures } from './quality/measure.ts';
import { importEntry, loadRealCorpus } from './quality/real.ts';
import { isCatalogIcon } from '../src/domain/icons/catalog.ts';
import { sceneFromSpec } from '../src/domain/scene/from-spec.ts';
import { parseSpec } from '../src/domain/spec/parse.ts';
import { edgeDirections } from '../src/domain/layout/containers/own-direction.ts';

interface Row {
  name: string;
  input: LayoutInput;
  ours: SceneMeasures;
  dot: SceneMeasures;
  /** Arrows ours draws against the flow that dot draws with it. */
  reversedOnlyByUs: string[];
  ms: { ours: number; dot: number; elk: number };
}

const TIMING_RUNS = { ours: 5, dot: 3, elk: 3 };

async function measureCorpus(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const entry of loadCorpus()) {
    const drawn = drawBoth(entry.spec);
    const ours = measureScene(drawn.ours, drawn.direction, edgeDirections(drawn.input));
    const dot = measureScene(drawn.dot, drawn.direction, edgeDirections(drawn.input));
    const ms = {
      ours: (await timeBest(TIMING_RUNS.ours, () => layoutGraph(drawn.input))).ms,
      dot: (await timeBest(TIMING_RUNS.dot, () => dotLayout(drawn.input))).ms,
      elk: (await timeBest(TIMING_RUNS.elk, () => layoutWithElk(drawn.input))).ms,
    };
    const dotReversed = new Set(dot.againstFlow);
    rows.push({ name: entry.name, input: drawn.input, ours, dot, reversedOnlyByUs: ours.againstFlow.filter((id) => !dotReversed.has(id)), ms });
  }
  return rows;
}

const pair = (ours: number | string, dot: number | string) => `${ours} / ${dot}`;
const aspect = (m: SceneMeasures) => (m.height === 0 ? '-' : (m.width / m.height).toFixed(2));
const size = (m: SceneMeasures) => `${Math.round(m.width)}×${Math.round(m.height)}`;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const fixed = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));

function table(header: string[], rows: string[][]): void {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

function printMain(rows: Row[]): void {
  table(
    ['spec', 'nodes', 'edges', 'crossings', 'defects', 'against flow', 'aspect w/h', 'size (Drawbridge)', 'size (dot)', 'layout ms: Drawbridge / dot / elkjs'],
    [
      ...rows.map((r) => [
        r.name,
        String(r.input.nodes.length),
        String(r.input.edges.length),
        pair(r.ours.crossings, r.dot.crossings),
        pair(defectCount(r.ours), defectCount(r.dot)),
        pair(r.ours.againstFlow.length, r.dot.againstFlow.length),
        pair(aspect(r.ours), aspect(r.dot)),
        size(r.ours),
        size(r.dot),
        `${fixed(r.ms.ours)} / ${fixed(r.ms.dot)} / ${fixed(r.ms.elk)}`,
      ]),
      [
        '**total**',
        String(sum(rows.map((r) => r.input.nodes.length))),
        String(sum(rows.map((r) => r.input.edges.length))),
        pair(sum(rows.map((r) => r.ours.crossings)), sum(rows.map((r) => r.dot.crossings))),
        pair(sum(rows.map((r) => defectCount(r.ours))), sum(rows.map((r) => defectCount(r.dot)))),
        pair(sum(rows.map((r) => r.ours.againstFlow.length)), sum(rows.map((r) => r.dot.againstFlow.length))),
        '',
        '',
        '',
        `${fixed(sum(rows.map((r) => r.ms.ours)))} / ${fixed(sum(rows.map((r) => r.ms.dot)))} / ${fixed(sum(rows.map((r) => r.ms.elk)))}`,
      ],
    ],
  );
}

/** Every lint kind about how the drawing reads, and those about the scene that occurred, one column each. */
function printLint(rows: Row[]): void {
  const kinds = lintColumns(rows.flatMap((r) => [r.ours, r.dot]));
  const count = (m: SceneMeasures, kind: string) => m.lint.get(kind) ?? 0;
  table(
    ['spec', ...kinds],
    [
      ...rows.map((r) => [r.name, ...kinds.map((k) => pair(count(r.ours, k), count(r.dot, k)))]),
      ['**total**', ...kinds.map((k) => pair(sum(rows.map((r) => count(r.ours, k))), sum(rows.map((r) => count(r.dot, k)))))],
    ],
  );
  console.log('(kinds about the scene itself are shown only when they occur)');
}

interface DagTimes {
  ours: number;
  elk: number;
  dot: number;
  /** The same DAG with 300 nodes in containers: Drawbridge, and elkjs laying out the whole hierarchy. */
  clusteredOurs: number;
  clusteredElk: number;
}

async function timeDag(): Promise<DagTimes> {
  const dag = layeredDag();
  const clustered = clusteredDag();
  return {
    ours: (await timeBest(3, () => layoutGraph(dag))).ms,
    elk: (await timeBest(3, () => layoutWithElk(dag))).ms,
    dot: (await timeBest(1, () => dotLayout(dag))).ms,
    clusteredOurs: (await timeBest(3, () => layoutGraph(clustered))).ms,
    clusteredElk: (await timeBest(3, () => layoutWithElkNested(clustered))).ms,
  };
}

function printTargets(rows: Row[], dag: DagTimes): void {
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  const defective = rows.filter((r) => defectCount(r.ours) > 0);
  const kinds = [...new Set(defective.flatMap((r) => [...r.ours.lint.keys()]))].sort();
  console.log(
    `- zero defects of every kind on every spec: ${verdict(defective.length === 0)}` +
      (defective.length ? ` (${sum(defective.map((r) => defectCount(r.ours)))} issues on ${defective.length} specs; kinds: ${kinds.join(', ')})` : ''),
  );
  const oursCrossings = sum(rows.map((r) => r.ours.crossings));
  const dotCrossings = sum(rows.map((r) => r.dot.crossings));
  const atMostDot = rows.filter((r) => r.ours.crossings <= r.dot.crossings).length;
  const share = atMostDot / rows.length;
  console.log(
    `- crossings ≤ dot's in total (${oursCrossings} vs ${dotCrossings}) and on ≥ 90 % of specs (${atMostDot}/${rows.length}, ${Math.round(share * 100)} %): ${verdict(oursCrossings <= dotCrossings && share >= 0.9)}`,
  );
  const flowRegressions = rows.filter((r) => r.dot.againstFlow.length === 0 && r.ours.againstFlow.length > 0);
  console.log(
    `- no arrow against the flow where dot draws none: ${verdict(flowRegressions.length === 0)}` +
      (flowRegressions.length ? ` (${flowRegressions.map((r) => `${r.name}: ${r.ours.againstFlow.join(', ')}`).join('; ')})` : ''),
  );
  const onlyUs = rows.filter((r) => r.reversedOnlyByUs.length > 0);
  console.log(
    `  arrows we draw against the flow that dot draws with it: ${sum(onlyUs.map((r) => r.reversedOnlyByUs.length))}` +
      (onlyUs.length ? ` (${onlyUs.map((r) => `${r.name}: ${r.reversedOnlyByUs.join(', ')}`).join('; ')})` : ''),
  );
  const ratio = dag.ours / dag.elk;
  console.log(
    `- 1000-node DAG under ¼ of elkjs's time: ${verdict(ratio < 0.25)} (Drawbridge ${fixed(dag.ours)} ms, elkjs ${fixed(dag.elk)} ms, ratio ${ratio.toFixed(2)}; dot ${fixed(dag.dot)} ms)`,
  );
  console.log(
    `  (not a target) the same DAG with 300 nodes in 6 containers: Drawbridge ${fixed(dag.clusteredOurs)} ms, elkjs laying out the hierarchy ${fixed(dag.clusteredElk)} ms, ratio ${(dag.clusteredOurs / dag.clusteredElk).toFixed(2)}`,
  );
}

// ---------------------------------------------------------------------------
// The real corpus: Mermaid and DOT from public projects, through the importers

interface RealRow {
  name: string;
  language: string;
  input: LayoutInput | null;
  ours: SceneMeasures | null;
  dot: SceneMeasures | null;
  warnings: number;
  /** Reading the source, checking its spec and laying it out into a scene: best of 3. */
  importMs: number;
  error: string | null;
}

async function measureReal(): Promise<RealRow[]> {
  const rows: RealRow[] = [];
  for (const entry of loadRealCorpus()) {
    try {
      const imported = await importEntry(entry);
      const drawn = drawBoth(imported.spec);
      const importMs = (
        await timeBest(3, async () => {
          const { spec } = await importEntry(entry);
          sceneFromSpec(parseSpec(spec, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph });
        })
      ).ms;
      rows.push({ name: entry.name, language: entry.language, input: drawn.input, ours: measureScene(drawn.ours, drawn.direction, edgeDirections(drawn.input)), dot: measureScene(drawn.dot, drawn.direction, edgeDirections(drawn.input)), warnings: imported.warnings.length, importMs, error: null });
    } catch (error) {
      rows.push({ name: entry.name, language: entry.language, input: null, ours: null, dot: null, warnings: 0, importMs: 0, error: (error as Error).message.split('\n')[0]! });
    }
  }
  return rows;
}

const areaOf = (m: SceneMeasures) => Math.max(1, m.width * m.height);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};

function printReal(rows: RealRow[]): void {
  const drawn = rows.filter((r): r is RealRow & { input: LayoutInput; ours: SceneMeasures; dot: SceneMeasures } => r.error === null);
  const kinds = lintColumns(drawn.flatMap((r) => [r.ours, r.dot]));
  const count = (m: SceneMeasures, kind: string) => m.lint.get(kind) ?? 0;
  table(
    ['diagram', 'from', 'nodes', 'edges', 'crossings', 'against flow', 'area ÷ dot', 'warnings', 'import + layout ms', ...kinds],
    [
      ...rows.map((r) =>
        r.error !== null || !r.ours || !r.dot || !r.input
          ? [r.name, r.language, '-', '-', '-', '-', '-', '-', '-', ...kinds.map(() => '-'), `NOT IMPORTED: ${r.error}`]
          : [
              r.name,
              r.language,
              String(r.input.nodes.length),
              String(r.input.edges.length),
              pair(r.ours.crossings, r.dot.crossings),
              pair(r.ours.againstFlow.length, r.dot.againstFlow.length),
              (areaOf(r.ours) / areaOf(r.dot)).toFixed(2),
              String(r.warnings),
              fixed(r.importMs),
              ...kinds.map((k) => pair(count(r.ours!, k), count(r.dot!, k))),
            ],
      ),
      [
        '**total**',
        '',
        String(sum(drawn.map((r) => r.input.nodes.length))),
        String(sum(drawn.map((r) => r.input.edges.length))),
        pair(sum(drawn.map((r) => r.ours.crossings)), sum(drawn.map((r) => r.dot.crossings))),
        pair(sum(drawn.map((r) => r.ours.againstFlow.length)), sum(drawn.map((r) => r.dot.againstFlow.length))),
        `median ${median(drawn.map((r) => areaOf(r.ours) / areaOf(r.dot))).toFixed(2)}`,
        String(sum(drawn.map((r) => r.warnings))),
        `p50 ${fixed(median(drawn.map((r) => r.importMs)))}`,
        ...kinds.map((k) => pair(sum(drawn.map((r) => count(r.ours, k))), sum(drawn.map((r) => count(r.dot, k))))),
      ],
    ],
  );
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  console.log('');
  console.log('Targets on the real corpus:');
  console.log(`- every diagram imported: ${verdict(drawn.length === rows.length)} (${drawn.length}/${rows.length})`);
  const defective = drawn.filter((r) => defectCount(r.ours) > 0);
  console.log(`- no lint issue of any kind on our drawings: ${verdict(defective.length === 0)} (${sum(defective.map((r) => defectCount(r.ours)))} issues on ${defective.length} diagrams)`);
  const [oursFlow, dotFlow] = [sum(drawn.map((r) => r.ours.againstFlow.length)), sum(drawn.map((r) => r.dot.againstFlow.length))];
  console.log(`- edges against the flow ≤ dot's: ${verdict(oursFlow <= dotFlow)} (${oursFlow} vs ${dotFlow})`);
  const [oursCrossings, dotCrossings] = [sum(drawn.map((r) => r.ours.crossings)), sum(drawn.map((r) => r.dot.crossings))];
  console.log(`- crossings ≤ dot's: ${verdict(oursCrossings <= dotCrossings)} (${oursCrossings} vs ${dotCrossings})`);
  const area = median(drawn.map((r) => areaOf(r.ours) / areaOf(r.dot)));
  console.log(`- median area ≤ 1.2× dot's: ${verdict(area <= 1.2)} (${area.toFixed(2)}×)`);
  const p50 = median(drawn.map((r) => r.importMs));
  console.log(`- import + layout p50 under 100 ms: ${verdict(p50 < 100)} (${fixed(p50)} ms)`);
}

ensureDot();
const real = loadRealCorpus();
if (real.length > 0) {
  console.log(`# Real diagrams: ${real.length} Mermaid and DOT sources from public projects (bench/quality/real/), read by the importers — each cell Drawbridge / dot`);
  console.log('');
  printReal(await measureReal());
  console.log('');
}
console.log(`# Drawbridge vs Graphviz dot on ${loadCorpus().length} realistic specs — ${os.cpus().length} CPU(s), node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('# each cell: Drawbridge / dot, both drawn by sceneFromSpec and measured by the same code (bench/quality/measure.ts)');
console.log(
  `# layout ms: best of ${TIMING_RUNS.ours} (Drawbridge, in-process), ${TIMING_RUNS.dot} (dot, spawning \`dot -Tjson\` included), ${TIMING_RUNS.elk} (elkjs layered, in-process, flat graph, top-down)`,
);
console.log('');
const rows = await measureCorpus();
printMain(rows);
console.log('');
console.log('Lint issues by kind (Drawbridge / dot):');
console.log('');
printLint(rows);
console.log('');
console.log('Targets:');
printTargets(rows, await timeDag());

/**
 * `npm run bench:regenerate`: the work of a regenerate that keeps a person's
 * arrangement, beside a fresh layout of the same spec measured in the same
 * run, and the export of a 1,000-element scene as text, beside reading and
 * writing that scene's JSON (what every GET of it does). In process, in a
 * scene worker's shoes: no HTTP, no database.
 *
 * - keep: a 200-node diagram whose nodes a person moved (every tenth node 60 px
 *   right), regenerated with 5 new nodes each linked to an old one; against
 *   a fresh layout of that 205-node spec (target: under 2×);
 * - export: the 1,000-element service diagram as a spec, Mermaid and DOT
 *   (target: each under 50 ms at p50).
 */
import os from 'node:os';
import { regenerateKeeping } from '../src/domain/edit/keep.ts';
import type { SceneElement } from '../src/domain/edit/types.ts';
import { exportScene } from '../src/domain/export/export.ts';
import { isCatalogIcon } from '../src/domain/icons/catalog.ts';
import { layoutGraph } from '../src/domain/layout/layout.ts';
import { applyPatch } from '../src/domain/patch/apply.ts';
import { sceneFromSpec } from '../src/domain/scene/from-spec.ts';
import { parseSpec } from '../src/domain/spec/parse.ts';
import { percentile, random, serviceSpec } from './service-spec.ts';

const RUNS = Number(process.env.RUNS ?? 20);
const options = { isIcon: isCatalogIcon, layout: layoutGraph };
const stamp = { now: 2, nonce: () => 7 };

/** A 200-node flow: a spine with branches, labelled as a person would. */
function flow(nodes: number, extra = 0) {
  const next = random(200);
  const spec = {
    nodes: Array.from({ length: nodes }, (_, i) => ({ id: `s${i}`, label: `Step ${i}` })),
    edges: Array.from({ length: nodes - 1 }, (_, i) => `s${Math.floor(next() * (i + 1))} -> s${i + 1}`),
  };
  for (let k = 0; k < extra; k++) {
    spec.nodes.push({ id: `new${k}`, label: `New step ${k}` });
    spec.edges.push(`s${(k * 37) % nodes} -> new${k}`);
  }
  return spec;
}

function timed(run: () => void): number[] {
  run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

console.log(`# Drawbridge regenerate-and-export benchmark — ${os.cpus().length} CPU(s), node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${RUNS} runs each, in process`);

const before = flow(200);
const drawn = sceneFromSpec(parseSpec(before, options), { updated: 1, layout: layoutGraph }) as SceneElement[];
const arranged = applyPatch(drawn, before.nodes.filter((_, i) => i % 10 === 0).map((n) => ({ op: 'move' as const, id: n.id, dx: 60, dy: 0 })), stamp, options).elements;
const after = flow(200, 5);
const checked = parseSpec(after, options);
const fresh = timed(() => sceneFromSpec(parseSpec(after, options), { updated: 1, layout: layoutGraph }));
const keep = timed(() => {
  if (regenerateKeeping(arranged, after, checked, stamp, options) === null) throw new Error('the arrangement could not be kept');
});
const kept = regenerateKeeping(arranged, after, checked, stamp, options)!;
const row = (label: string, t: number[], peer: number[], peerName: string) =>
  console.log(`${label.padEnd(44)} p50 ${percentile(t, 0.5).toFixed(1).padStart(7)} ms   p99 ${percentile(t, 0.99).toFixed(1).padStart(7)} ms   ${(percentile(t, 0.5) / percentile(peer, 0.5)).toFixed(2)}× ${peerName}`);
console.log('');
row('fresh layout, 205 nodes (peer)', fresh, fresh, 'fresh');
row(`keep: ${kept.kept.length} kept, ${kept.placed.length} placed`, keep, fresh, 'fresh');

const scene = sceneFromSpec(parseSpec(serviceSpec(), options), { updated: 1, layout: layoutGraph }) as SceneElement[];
const json = JSON.stringify(scene);
const roundTrip = timed(() => JSON.stringify(JSON.parse(json)));
const exports = (['spec', 'mermaid', 'dot'] as const).map((language) => [language, timed(() => exportScene(JSON.parse(json) as SceneElement[], language))] as const);
console.log('');
row(`scene JSON read and written, ${scene.length} elements (peer)`, roundTrip, roundTrip, 'JSON');
for (const [language, t] of exports) row(`export as ${language}`, t, roundTrip, 'JSON');

console.log('');
const ratio = percentile(keep, 0.5) / percentile(fresh, 0.5);
console.log(`target: keep p50 < 2× fresh p50: ${ratio < 2 ? 'MET' : 'MISSED'} (${ratio.toFixed(2)}×)`);
const slowest = Math.max(...exports.map(([, t]) => percentile(t, 0.5)));
console.log(`target: export of ${scene.length} elements p50 < 50 ms: ${slowest < 50 ? 'MET' : 'MISSED'} (slowest ${slowest.toFixed(1)} ms)`);

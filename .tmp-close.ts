import { drawBoth } from './bench/quality/corpus.ts';
import { importEntry, loadRealCorpus } from './bench/quality/real.ts';
import { lintScene } from './src/domain/lint/lint.ts';
const name = process.argv[2]!;
const entry = loadRealCorpus().find((e) => e.name === name)!;
const { spec } = await importEntry(entry);
const drawn = drawBoth(spec);
const els: any[] = (drawn.ours as any).elements ?? drawn.ours;
const byId = new Map(els.map((e) => [e.id, e]));
const pts = (e: any) => e.points.map(([x, y]: number[]) => `${Math.round(e.x + x)},${Math.round(e.y + y)}`).join(' ');
for (const issue of lintScene(els, { maxIssuesPerKind: 1000 })) {
  if (issue.kind !== (process.argv[3] ?? 'edges_too_close')) continue;
  console.log(issue.message);
  for (const id of issue.elementIds) { const e = byId.get(id); console.log('   ', id, e.startBinding?.elementId, '->', e.endBinding?.elementId, pts(e)); }
}

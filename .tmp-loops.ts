import { drawBoth } from './bench/quality/corpus.ts';
import { importEntry, loadRealCorpus } from './bench/quality/real.ts';
import { lintScene } from './src/domain/lint/lint.ts';
const counts = new Map<string, number>();
for (const entry of loadRealCorpus()) {
  const { spec } = await importEntry(entry);
  const drawn = drawBoth(spec);
  const els: any[] = (drawn.ours as any).elements ?? drawn.ours;
  for (const issue of lintScene(els, { maxIssuesPerKind: 1000 })) {
    if (issue.kind !== 'hidden_self_loop') continue;
    const key = issue.message.replace(/"[^"]*"/g, 'X').replace(/\d+/g, 'N');
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if ((counts.get(key) ?? 0) <= 1) console.log(entry.name, issue.message);
  }
}
console.log(counts);

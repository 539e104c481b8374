/**
 * `npm run gallery:real`: every diagram of the real corpus (bench/quality/real/,
 * Mermaid and DOT from public projects) drawn three ways side by side, to be
 * looked at: Drawbridge's faithful render of what the importer made of it;
 * the same graph laid out by Graphviz dot (same node sizes, same renderer);
 * and the source's own renderer's picture (Mermaid's, in headless Chromium,
 * for Mermaid; Graphviz's `dot -Tpng` of the file itself for DOT). Beside each:
 * the measures of bench:quality and the importer's warnings.
 *
 * Writes .tmp/gallery-real/index.html and its pictures (about 25 MB, so not
 * kept in the repository). Needs Debian's graphviz and chromium (installed
 * by the script when missing, as bench:quality installs graphviz).
 * `ONLY=name,name` draws only the diagrams whose name contains one of them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { drawBoth } from './corpus.ts';
import { ensureDot } from './dot-layout.ts';
import { startMermaidPeer } from './mermaid-peer.ts';
import { defectCount, measureScene, type SceneMeasures } from './measure.ts';
import { importEntry, loadRealCorpus } from './real.ts';
import { startPngRenderer } from './render-png.ts';
import { edgeDirections } from '../../src/domain/layout/containers/own-direction.ts';

const ONLY = (process.env.ONLY ?? '').split(',').filter((name) => name.length > 0);
const OUT = path.join(import.meta.dirname, '..', '..', '.tmp', 'gallery-real');
const WIDTH = 900;

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const lint = (m: SceneMeasures) => (defectCount(m) === 0 ? 'none' : [...m.lint].map(([kind, n]) => `${kind} ${n}`).join(', '));

function ensureChromium(): void {
  if (fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) return;
  console.log('installing Debian\'s chromium for Mermaid\'s renderer ...');
  execFileSync('apt-get', ['install', '-y', '-q', 'chromium'], { stdio: 'inherit' });
}

ensureDot();
ensureChromium();
fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(OUT, { recursive: true });
const sources = new Map((JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'real', 'sources.json'), 'utf8')) as Array<{ file: string; url: string; repository: string }>).map((s) => [s.file, s]));
const renderer = startPngRenderer();
const mermaid = await startMermaidPeer();
const sections: string[] = [];
try {
  for (const entry of loadRealCorpus().filter((e) => ONLY.length === 0 || ONLY.some((name) => e.name.includes(name)))) {
    const { spec, warnings } = await importEntry(entry);
    const drawn = drawBoth(spec);
    fs.writeFileSync(path.join(OUT, `${entry.name}-drawbridge.png`), await renderer.png(drawn.ours));
    fs.writeFileSync(path.join(OUT, `${entry.name}-dot-layout.png`), await renderer.png(drawn.dot));
    // The source's own renderer may fail where the importer did not (Mermaid throws on some edge curves): the gallery says so and goes on.
    let ownFailure: string | null = null;
    try {
      const own = entry.language === 'mermaid' ? await mermaid.png(entry.text, WIDTH) : execFileSync('dot', ['-Tpng', '-Gdpi=72'], { input: entry.text, maxBuffer: 64 * 2 ** 20 });
      fs.writeFileSync(path.join(OUT, `${entry.name}-own.png`), own);
    } catch (error) {
      ownFailure = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    }
    const [ours, dot] = [measureScene(drawn.ours, drawn.direction, edgeDirections(drawn.input)), measureScene(drawn.dot, drawn.direction, edgeDirections(drawn.input))];
    const source = sources.get(path.basename(entry.file));
    sections.push(`<section id="${entry.name}"><h2>${escape(entry.name)}</h2>
<p>${entry.language === 'mermaid' ? 'Mermaid' : 'DOT'} · ${drawn.input.nodes.length} nodes · ${drawn.input.edges.length} edges · ${source ? `<a href="${escape(source.url)}">${escape(source.repository)}</a>` : ''}</p>
<table><tr><th></th><th>Drawbridge</th><th>dot's layout</th></tr>
<tr><td>crossings</td><td>${ours.crossings}</td><td>${dot.crossings}</td></tr>
<tr><td>against the flow</td><td>${ours.againstFlow.length}</td><td>${dot.againstFlow.length}</td></tr>
<tr><td>lint</td><td>${escape(lint(ours))}</td><td>${escape(lint(dot))}</td></tr>
<tr><td>size</td><td>${Math.round(ours.width)} × ${Math.round(ours.height)}</td><td>${Math.round(dot.width)} × ${Math.round(dot.height)}</td></tr></table>
${warnings.length ? `<details><summary>${warnings.length} warnings</summary><ul>${warnings.map((w) => `<li>line ${w.line}: ${escape(w.message)}</li>`).join('')}</ul></details>` : ''}
<div class="row"><figure><img src="${entry.name}-drawbridge.png"><figcaption>Drawbridge</figcaption></figure><figure><img src="${entry.name}-dot-layout.png"><figcaption>dot's layout, drawn by Drawbridge</figcaption></figure><figure>${ownFailure === null ? `<img src="${entry.name}-own.png">` : `<p>failed: ${escape(ownFailure)}</p>`}<figcaption>${entry.language === 'mermaid' ? 'Mermaid' : 'Graphviz'}'s own picture</figcaption></figure></div>
<details><summary>source</summary><pre>${escape(entry.text)}</pre></details></section>`);
    console.log(`drew ${entry.name}`);
  }
} finally {
  await mermaid.close();
  await renderer.close();
}
fs.writeFileSync(
  path.join(OUT, 'index.html'),
  `<!doctype html><meta charset="utf-8"><title>Real diagrams: Drawbridge, dot, and their own renderers</title>
<style>body{font:14px system-ui;margin:24px}.row{display:flex;gap:12px;align-items:flex-start}figure{margin:0;flex:1;min-width:0}img{max-width:100%;border:1px solid #ddd}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left}section{border-top:1px solid #ccc;padding-top:12px;margin-top:24px}</style>
<h1>Real diagrams: Drawbridge, dot, and their own renderers</h1>
<p>${sections.length} Mermaid and DOT diagrams from public projects (bench/quality/real/SOURCES.md). Regenerate with <code>npm run gallery:real</code>.</p>
${sections.join('\n')}`,
);
console.log(`wrote ${path.relative(process.cwd(), path.join(OUT, 'index.html'))} and ${sections.length * 3} pictures`);

/**
 * `npm run bench:render`: renders of the 50-, 1,000- and 5,000-element scenes
 * of bench/render-scenes.ts — fast SVG and PNG, faithful SVG and PNG on a warm
 * pool, the first faithful render after start (cold), and cached (beside a
 * bare Fastify sending as many bytes as the SVG) — beside a
 * plain GET of the same diagram measured in the same run; the same faithful
 * renders by the editor's own exporter in headless Chromium
 * (bench/chromium-peer.ts), on the elements Drawbridge stored for each diagram
 * (GET /diagrams/:id), each right after Drawbridge's render of it: in a warm
 * page kept open (the page's SVG with its fonts embedded, as Drawbridge's;
 * also without, for reference), and, on PEER_RUNS of them, in a page opened
 * for the render and in a browser launched for it. Then the latency of a
 * stream of small requests (GET /me) while renders run, beside the same
 * stream idle. Ends with a table of the figures the targets are about, with
 * Drawbridge/peer ratios, and how each side's time grows from 1,000 to 5,000
 * elements.
 *
 * Every uncached figure renders a diagram never rendered before (its labels
 * differ), so the cache cannot answer. RUNS (default 20) per figure, LARGE_RUNS
 * (default 5) at 5,000 elements, PEER_RUNS (default 3) for the page and the
 * browser made per render.
 */
import os from 'node:os';
import { type ChromiumPeer, startChromiumPeer } from './chromium-peer.ts';
import { freePort, runBenchmark, seedBenchUser, startApiServer, startChild, stopChild, waitForHttp } from './processes.ts';
import { SIZES, spec } from './render-scenes.ts';
import { RENDER_NICE } from '../src/render/renderer.ts';

const RUNS = Number(process.env.RUNS ?? 20);
const LARGE_RUNS = Number(process.env.LARGE_RUNS ?? 5);
const PEER_RUNS = Number(process.env.PEER_RUNS ?? 3);
const runsOf = (name: string) => (name.startsWith('5000') ? LARGE_RUNS : RUNS);

/** The PNG width both sides render at (Drawbridge's default). */
const PNG_WIDTH = 1024;
const TARGETS =
  'targets: faithful PNG and SVG p50 ≤ 0.8× the warm Chromium page at 50, 1,000 and 5,000 elements, growing from 1,000 to 5,000 no faster than the page; fast PNG (50) p50 < 25 ms; cached p50 < 3 ms at 1,000 elements and < 10 ms at 5,000; GET /me p99 during renders < 20 ms';
const PEER_TARGET = 0.8;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const p50 = (t: number[]) => percentile(t, 0.5);
const p99 = (t: number[]) => percentile(t, 0.99);

await runBenchmark('bench:render', async (dataDir) => {
  const token = await seedBenchUser(dataDir, 'read,write');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let { child, base } = await startApiServer(dataDir);
  const get = async (url: string) => {
    const start = performance.now();
    const res = await fetch(`${base}${url}`, { headers });
    const body = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - start;
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.toString().slice(0, 300)}`);
    const png = res.headers.get('content-type') === 'image/png';
    return { ms, quality: res.headers.get('x-render-quality'), bytes: body.length, size: png ? `${body.readUInt32BE(16)}×${body.readUInt32BE(20)} px` : `${body.length} bytes` };
  };
  const create = async (body: unknown): Promise<{ id: string; elementCount: number }> => {
    const res = await fetch(`${base}/api/v1/diagrams`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string; elementCount: number };
  };
  const sizes = new Map<string, string>();
  /** Bytes of the last answer to each query: what the bare server sends beside the cached render. */
  const bytesOf = new Map<string, number>();
  /** `times` fetches of a BODY_BYTES-long body from a bare Fastify (bench/hello-server.ts), sorted. */
  const bareSending = async (bodyBytes: number, times: number): Promise<number[]> => {
    const port = await freePort();
    const hello = startChild('hello-world', ['--import', 'tsx', 'bench/hello-server.ts'], { ...process.env, PORT: String(port), BODY_BYTES: String(bodyBytes) });
    try {
      await waitForHttp(hello, `http://127.0.0.1:${port}/`);
      const url = `http://127.0.0.1:${port}/sized`;
      await (await fetch(url)).arrayBuffer();
      const out: number[] = [];
      for (let i = 0; i < times; i++) {
        const start = performance.now();
        await (await fetch(url)).arrayBuffer();
        out.push(performance.now() - start);
      }
      return out.sort((a, b) => a - b);
    } finally {
      await stopChild(hello);
    }
  };
  const timed = async (ids: string[], query: string, expectQuality: string) => {
    const times: number[] = [];
    for (const id of ids) {
      const { ms, quality, size, bytes } = await get(`/api/v1/diagrams/${id}/render?${query}`);
      if (quality !== expectQuality) throw new Error(`${query} delivered ${quality}, not ${expectQuality}`);
      times.push(ms);
      sizes.set(query, size);
      bytesOf.set(query, bytes);
    }
    return times.sort((a, b) => a - b);
  };

  console.log(`# Drawbridge render benchmark — ${os.cpus().length} CPU(s), node ${process.version}, SQLite; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`# ${RUNS} runs per figure, each uncached figure on diagrams never rendered before; PNGs ${PNG_WIDTH} px wide`);
  console.log(`# peer: the editor's exporter in a warm headless Chromium page (${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'}), at nice ${RENDER_NICE} as Drawbridge's render workers\n`);
  const diagrams: Record<string, { ids: string[]; elementCount: number }> = {};
  for (const [name, [nodes, edges, labelled]] of Object.entries(SIZES)) {
    const ids: string[] = [];
    let elementCount = 0;
    // Five sets of distinct diagrams: fast svg, fast png, faithful svg, faithful png, and one for the cold start.
    for (let i = 0; i < runsOf(name) * 4 + 1; i++) {
      const created = await create({ title: `${name} ${i}`, spec: spec(nodes, edges, i, labelled) });
      ids.push(created.id);
      elementCount = created.elementCount;
    }
    diagrams[name] = { ids, elementCount };
  }

  // Cold: a fresh server, and at once the first faithful PNG (the render workers are still loading the editor).
  await stopChild(child);
  ({ child, base } = await startApiServer(dataDir));
  const cold = await get(`/api/v1/diagrams/${diagrams['50 elements']!.ids.at(-1)}/render?format=png`);

  // The stored elements of every diagram, as a self-hoster's service would read them.
  const stored = new Map<string, unknown[]>();
  for (const { ids } of Object.values(diagrams)) {
    for (const id of ids) stored.set(id, ((await (await fetch(`${base}/api/v1/diagrams/${id}`, { headers })).json()) as { scene: { elements: unknown[] } }).scene.elements);
  }
  // Warm, both sides: each has rendered the cold start's diagram (which no figure uses) each way.
  const warmId = diagrams['50 elements']!.ids.at(-1)!;
  await get(`/api/v1/diagrams/${warmId}/render?format=svg`);
  await get(`/api/v1/diagrams/${warmId}/render?format=png&quality=fast`);
  const peer: ChromiumPeer = await startChromiumPeer(stored.get(warmId)!, PNG_WIDTH, RENDER_NICE);
  const summary: Array<{ figure: string; ours: number[]; peer?: number[]; newPage?: number[]; newBrowser?: number[]; target: string; met: (ours: number[], peer?: number[]) => boolean }> = [];
  const withinPeer = (ours: number[], theirs?: number[]) => p50(ours) <= PEER_TARGET * p50(theirs!);
  /** p50 of the faithful renders by size and format, both sides: how each grows. */
  const growth = new Map<string, { ours: number; page: number }>();

  try {
    for (const [name, { ids, elementCount }] of Object.entries(diagrams)) {
      const runs = runsOf(name);
      const slice = (k: number) => ids.slice(k * runs, (k + 1) * runs);
      const getTimes: number[] = [];
      for (const id of slice(0)) {
        const start = performance.now();
        await (await fetch(`${base}/api/v1/diagrams/${id}`, { headers })).arrayBuffer();
        getTimes.push(performance.now() - start);
      }
      getTimes.sort((a, b) => a - b);
      /** Drawbridge's faithful render of each diagram, then the page's export of the same stored elements (for SVG, also without embedding fonts). */
      const sideBySide = async (slice: string[], format: 'svg' | 'png') => {
        const ours: number[] = [];
        const theirs: number[] = [];
        const unembedded: number[] = [];
        const inPage: number[] = [];
        const time = async <T>(run: () => Promise<T>, into: number[]) => {
          const start = performance.now();
          const result = await run();
          into.push(performance.now() - start);
          return result;
        };
        for (const id of slice) {
          ours.push((await timed([id], `format=${format}`, 'faithful'))[0]!);
          const elements = stored.get(id)!;
          if (format === 'svg') {
            sizes.set('peer svg', `${(await time(() => peer.svg(elements), theirs)).length} bytes`);
            inPage.push(await peer.lastInPageMs());
            await time(() => peer.svgUnembedded(elements), unembedded);
          } else {
            const png = await time(() => peer.png(elements, PNG_WIDTH), theirs);
            inPage.push(await peer.lastInPageMs());
            sizes.set('peer png', `${png.readUInt32BE(16)}×${png.readUInt32BE(20)} px`);
          }
        }
        // The page made per render and the browser made per render, on the first few of the same diagrams.
        const newPage: number[] = [];
        const newBrowser: number[] = [];
        for (const id of slice.slice(0, PEER_RUNS)) {
          await time(() => peer.inNewPage(stored.get(id)!, format, PNG_WIDTH), newPage);
          await time(() => peer.inNewBrowser(stored.get(id)!, format, PNG_WIDTH), newBrowser);
        }
        const sorted = (t: number[]) => t.sort((a, b) => a - b);
        return [sorted(ours), sorted(theirs), sorted(unembedded), sorted(newPage), sorted(newBrowser), sorted(inPage)] as const;
      };
      const fastSvg = await timed(slice(0), 'format=svg&quality=fast', 'fast');
      const fastPng = await timed(slice(1), 'format=png&quality=fast', 'fast');
      const [faithfulSvg, peerSvg, peerSvgUnembedded, pageSvg, browserSvg, inPageSvg] = await sideBySide(slice(2), 'svg');
      const [faithfulPng, peerPng, , pagePng, browserPng, inPagePng] = await sideBySide(slice(3), 'png');
      // Cached: three passes over the diagrams just rendered, every answer from the cache.
      const thrice = (ids: string[]) => [...ids, ...ids, ...ids];
      const cachedPng = await timed(thrice(slice(3)), 'format=png', 'faithful');
      const cachedSvg = await timed(thrice(slice(2)), 'format=svg', 'faithful');
      // What moving the same bytes costs: a bare Fastify sending a body as long as the last SVG, fetched as often the same way.
      const bareSvg = await bareSending(bytesOf.get('format=svg')!, cachedSvg.length);
      const rows: Array<[string, number[]]> = [
        ['fast SVG', fastSvg],
        ['fast PNG', fastPng],
        ['faithful SVG, warm pool', faithfulSvg],
        ['  warm Chromium page, SVG', peerSvg],
        ['    of which in the page', inPageSvg],
        ['  the same, fonts not embedded', peerSvgUnembedded],
        ['  a page per render, SVG', pageSvg],
        ['  a browser per render, SVG', browserSvg],
        ['faithful PNG, warm pool', faithfulPng],
        ['  warm Chromium page, PNG', peerPng],
        ['    of which in the page', inPagePng],
        ['  a page per render, PNG', pagePng],
        ['  a browser per render, PNG', browserPng],
        ['faithful PNG, cached', cachedPng],
        ['faithful SVG, cached', cachedSvg],
        ['  bare Fastify, same bytes', bareSvg],
      ];
      console.log(`## ${name} (${elementCount})`);
      console.log(`${'GET /diagrams/:id (baseline)'.padEnd(30)} p50 ${p50(getTimes).toFixed(1).padStart(7)} ms   p99 ${p99(getTimes).toFixed(1).padStart(7)} ms`);
      for (const [label, t] of rows) {
        console.log(`${label.padEnd(30)} p50 ${p50(t).toFixed(1).padStart(7)} ms   p99 ${p99(t).toFixed(1).padStart(7)} ms   ${(p50(t) / p50(getTimes)).toFixed(1).padStart(6)}× GET`);
      }
      console.log(`(last PNG: ${sizes.get('format=png')}, page's ${sizes.get('peer png')}; last faithful SVG: ${sizes.get('format=svg')}, page's ${sizes.get('peer svg')})`);
      console.log('');
      const count = name.split(' ')[0];
      growth.set(`png ${count}`, { ours: p50(faithfulPng), page: p50(peerPng) });
      growth.set(`svg ${count}`, { ours: p50(faithfulSvg), page: p50(peerSvg) });
      summary.push(
        { figure: `faithful PNG, ${count}`, ours: faithfulPng, peer: peerPng, newPage: pagePng, newBrowser: browserPng, target: `≤ ${PEER_TARGET}× page`, met: withinPeer },
        { figure: `  (in the page alone)`, ours: faithfulPng, peer: inPagePng, target: 'for reference', met: withinPeer },
        { figure: `faithful SVG, ${count}`, ours: faithfulSvg, peer: peerSvg, newPage: pageSvg, newBrowser: browserSvg, target: `≤ ${PEER_TARGET}× page`, met: withinPeer },
        { figure: `  (in the page alone)`, ours: faithfulSvg, peer: inPageSvg, target: 'for reference', met: withinPeer },
        { figure: `  (page, no fonts)`, ours: faithfulSvg, peer: peerSvgUnembedded, target: 'for reference', met: withinPeer },
      );
      if (name === '50 elements') summary.push({ figure: 'fast PNG, 50', ours: fastPng, target: '< 25 ms', met: (ours) => p50(ours) < 25 });
      const cachedTarget = count === '5000' ? 10 : count === '1000' ? 3 : 3;
      summary.push(
        { figure: `cached PNG, ${count}`, ours: cachedPng, target: `< ${cachedTarget} ms`, met: (ours) => p50(ours) < cachedTarget },
        { figure: `cached SVG, ${count}`, ours: cachedSvg, target: `< ${cachedTarget} ms`, met: (ours) => p50(ours) < cachedTarget },
        { figure: `  (bare Fastify, same bytes)`, ours: cachedSvg, peer: bareSvg, target: 'for reference', met: (ours) => p50(ours) < cachedTarget },
      );
    }
  } finally {
    await peer.close();
  }
  console.log(`first faithful PNG after start (cold, 50 elements): ${cold.ms.toFixed(0)} ms, delivered ${cold.quality}\n`);

  // Small requests while renders run: four clients rendering 1000-element diagrams (faithful and fast, uncached) against a stream of GET /me.
  const stream = async (until: () => boolean) => {
    const times: number[] = [];
    while (!until()) {
      const start = performance.now();
      await (await fetch(`${base}/api/v1/me`, { headers })).arrayBuffer();
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b);
  };
  const idleEnd = performance.now() + 3000;
  const idle = await stream(() => performance.now() > idleEnd);
  const fresh: string[] = [];
  for (let i = 0; i < 8; i++) fresh.push((await create({ title: `load ${i}`, spec: spec(300, 400, 1000 + i) })).id);
  let rendering = true;
  const renders = Promise.all(
    [0, 1, 2, 3].map(async (client) => {
      for (let k = client; k < fresh.length; k += 4) {
        await get(`/api/v1/diagrams/${fresh[k]}/render?format=json&quality=${k % 2 === 0 ? 'faithful' : 'fast'}`);
      }
    }),
  ).finally(() => (rendering = false));
  const busy = await stream(() => !rendering);
  await renders;
  console.log(`GET /me alone:                p50 ${p50(idle).toFixed(1)} ms   p99 ${p99(idle).toFixed(1)} ms   (${idle.length} requests)`);
  console.log(`GET /me during 8 renders:     p50 ${p50(busy).toFixed(1)} ms   p99 ${p99(busy).toFixed(1)} ms   (${busy.length} requests; ${(p99(busy) - p99(idle)).toFixed(1)} ms added at p99)`);
  console.log(`\n${TARGETS}\n`);
  const ms = (t: number[] | undefined, at: (t: number[]) => number) => (t && t.length > 0 ? at(t).toFixed(1) : '—').padStart(8);
  const ratioOf = (ours: number[], theirs?: number[]) => (theirs && theirs.length > 0 ? `${(p50(ours) / p50(theirs)).toFixed(2)}×` : '—');
  console.log(
    `${'figure'.padEnd(22)} ${'Drawbridge p50'.padStart(14)} ${'p99'.padStart(8)} ${'page p50'.padStart(9)} ${'p99'.padStart(8)} ${'ratio'.padStart(7)} ${'new page'.padStart(9)} ${'ratio'.padStart(7)} ${'new browser'.padStart(12)} ${'ratio'.padStart(7)}   target          met`,
  );
  for (const { figure, ours, peer: theirs, newPage, newBrowser, target, met } of summary) {
    console.log(
      `${figure.padEnd(22)} ${ms(ours, p50).padStart(14)} ${ms(ours, p99)} ${ms(theirs, p50).padStart(9)} ${ms(theirs, p99)} ${ratioOf(ours, theirs).padStart(7)} ${ms(newPage, p50).padStart(9)} ${ratioOf(ours, newPage).padStart(7)} ${ms(newBrowser, p50).padStart(12)} ${ratioOf(ours, newBrowser).padStart(7)}   ${target.padEnd(15)} ${met(ours, theirs) ? 'yes' : 'NO'}`,
    );
  }
  console.log('(ms; ratio = Drawbridge p50 / the peer\'s p50; Drawbridge over HTTP, the peer from page.evaluate (or opening the page, or launching the browser) to the bytes in Node)');
  for (const format of ['png', 'svg']) {
    const [small, large] = [growth.get(`${format} 1000`), growth.get(`${format} 5000`)];
    if (!small || !large) continue;
    const exponent = (from: number, to: number) => Math.log(to / from) / Math.log(5);
    const [ours, page] = [exponent(small.ours, large.ours), exponent(small.page, large.page)];
    console.log(`growth of faithful ${format.toUpperCase()} from 1,000 to 5,000 elements: Drawbridge n^${ours.toFixed(2)}, page n^${page.toFixed(2)} (target: no steeper than the page: ${ours <= page ? 'yes' : 'NO'})`);
  }
});

/**
 * Rendering as the API serves it (GET /diagrams/:id/render): the
 * faithful renderer in worker processes, the fast one in worker processes too, a
 * disk cache in front of both, and the fallbacks and notes the answer carries
 * (docs/rendering.md).
 * Nothing here runs a render on the caller's event loop. Each caller gets a
 * fair share of the workers (FairShare), so one caller's burst cannot starve
 * the others.
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_SCENE_ELEMENTS } from '../domain/scene/validate.ts';
import { ApiError } from '../errors.ts';
import { FairShare } from '../workers/fair-share.ts';
import { WorkerFailure, WorkerPool, type WorkerPoolStats } from '../workers/pool.ts';
import { RenderCache, renderCacheKey } from './cache.ts';
import { excalidrawVersion } from './editor-fonts.ts';
import type { FastJob } from './fast-job.ts';
import { renderOptionsKey } from './options.ts';
import { oversizedPlaceholderSvg, placeholderSvg } from './placeholder.ts';
import { MAX_SVG_BYTES, type RenderFormat, type RenderJob, type RenderNote, type RenderOptions, type RenderOutput, type RenderQuality } from './types.ts';

/** Bump when a renderer's output changes for the same scene: cached renders of older versions are never served. */
const RENDERER_VERSION = 'drawbridge-render/6';
/** Renders run below the server's priority, so API requests stay quick while every core renders. */
export const RENDER_NICE = 10;
/**
 * Renders one caller may have in each worker pool at once, running or waiting
 * for a worker; their others wait in a queue of their own (docs/rendering.md, "Fair share").
 */
const RENDERS_PER_CALLER = 2;

export interface RenderRequest {
  elementsJson: string;
  elementCount: number;
  /**
   * A name that always stands for these same elements (a diagram's id and content revision): the cache
   * is keyed by it, so a cached render costs no digest of the scene. Absent: the elements key themselves.
   */
  contentKey?: string;
  format: RenderFormat;
  quality: RenderQuality;
  /** Size, padding, background, theme and part of the scene (options.ts); absent: the defaults. */
  options?: RenderOptions;
  /** Who asks (`user:<id>`, `public:<slug>`: docs/rendering.md, "Fair share"), for their fair share of the workers; a render without one is not held back. */
  caller?: string;
}

export interface RenderResult {
  isEmpty: boolean;
  svg: string | null;
  /**
   * `svg` as UTF-8, when the renderer holds it so (a render from the cache, or just made): sent as it is.
   * Whatever changes `svg` must drop it.
   */
  svgBytes?: Buffer;
  png: Buffer | null;
  /** Only for format=pdf. */
  pdf?: Buffer | null;
  quality: RenderQuality;
  note?: RenderNote;
}

/** The media type of each format a render answers with as bytes. */
const CONTENT_TYPES = { svg: 'image/svg+xml; charset=utf-8', png: 'image/png', pdf: 'application/pdf' } as const;

/** What a render of one format (svg, png or pdf) answers with: its bytes and their media type. */
export interface RenderedImage {
  bytes: Buffer;
  contentType: (typeof CONTENT_TYPES)[keyof typeof CONTENT_TYPES];
}

/** The image a render of `format` produced (the one part it rendered); null for an empty scene. */
export function imageOf(result: RenderResult, format: keyof typeof CONTENT_TYPES): RenderedImage | null {
  if (result.isEmpty) return null;
  const part = format === 'svg' ? (result.svgBytes ?? result.svg) : format === 'png' ? result.png : result.pdf;
  if (part === null || part === undefined) throw new Error(`a render of ${format} produced none`);
  return { bytes: typeof part === 'string' ? Buffer.from(part, 'utf8') : part, contentType: CONTENT_TYPES[format] };
}

/**
 * How a render of a non-empty scene ended: rendered as asked (`ok`), served
 * whole from the cache (`cached`), answered with something else than asked
 * (`fallback`: the fast preview for a faithful render, or the placeholder of
 * a scene too large to draw), or not answered: no worker in time (`timeout`)
 * or any other failure (`error`).
 */
export type RenderOutcome = 'ok' | 'cached' | 'fallback' | 'timeout' | 'error';

/** What the renderer reports as it works (the metrics listen); every call is cheap and synchronous. */
export interface RenderObserver {
  /** A render ended: the quality and format asked for, and how. A caller's mistake (an invalid selection) is not reported. */
  rendered(quality: RenderQuality, format: RenderFormat, outcome: RenderOutcome): void;
  /** A job waited this long for a worker of `quality` (its caller's fair share, then the pool's queue), whether one took it or not. */
  queued(quality: RenderQuality, seconds: number): void;
  /** A worker of `quality` spent this long on a job, answered or failed. */
  ran(quality: RenderQuality, seconds: number): void;
  /** The render cache was asked for one image part. */
  cacheLookup(hit: boolean): void;
}

/** A render pool as it stands: its workers and queue, and the jobs held back by their callers' fair share. */
export interface RenderPoolLoad {
  pool: WorkerPoolStats;
  fairShareWaiting: number;
}

/** What one render did, for its outcome. */
interface Trace {
  /** A worker ran a job for it (else every part came from the cache). */
  worked: boolean;
  /** It failed because no worker answered in time. */
  timedOut: boolean;
}

/**
 * Each half of a faithful worker's young generation, MB. Node sizes it from the machine's memory; at 8 MB a
 * worker held about 40 MB less once loaded and peaked about 120 MB lower on a 5,000-element render (351
 * against 474 MB: `npm run bench:start`). Renders of 1,000 elements take as long; a 5,000-element SVG about
 * a third longer (608 against 450 ms: `npm run bench:render`). At 16 MB the peak would be some 20 MB
 * higher and that SVG as fast as without.
 */
const FAITHFUL_SEMI_SPACE_MB = 8;

export interface RendererOptions {
  /** RENDER_FAITHFUL: false makes the faithful renderer unavailable (every render falls back). */
  faithful: boolean;
  /** RENDER_WORKERS: faithful render worker processes. */
  workers: number;
  /** FAST_WORKERS: fast render worker processes. */
  fastWorkers: number;
  timeoutMs: number;
  /** WORKER_IDLE_SECONDS: a worker idle this long is stopped, and started again when renders come; absent: never. */
  idleMs?: number;
  dataDirectory: string;
  cacheBytes: number;
  log: FastifyBaseLogger;
  observer?: RenderObserver;
}

type Part = 'svg' | 'png' | 'pdf';

const EMPTY: RenderResult = { isEmpty: true, svg: null, png: null, quality: 'fast' };

/** The options' `elements` or `frame` name nothing the scene draws: the caller's mistake, never a reason to fall back. */
class InvalidSelectionError extends ApiError {
  constructor(message: string) {
    super('invalid_selection', message);
  }
}

/** A renderer drew an SVG over MAX_SVG_BYTES: faithful falls back to fast, fast answers the placeholder. */
class SvgTooLarge extends Error {
  readonly svgBytes: number;

  constructor(quality: RenderQuality, svgBytes: number) {
    super(`the ${quality} SVG would be ${svgBytes} bytes, over the ${MAX_SVG_BYTES} limit`);
    this.svgBytes = svgBytes;
  }
}

export class Renderer {
  private readonly faithfulPool: WorkerPool<RenderJob, RenderOutput> | undefined;
  private readonly fastPool: WorkerPool<FastJob, RenderOutput>;
  private readonly faithfulShare = new FairShare(RENDERS_PER_CALLER);
  private readonly fastShare = new FairShare(RENDERS_PER_CALLER);
  private readonly cache: RenderCache;
  private readonly fontsDirectory: string;
  private readonly log: FastifyBaseLogger;
  private readonly observer: RenderObserver | undefined;

  constructor(options: RendererOptions) {
    const timeoutMs = options.timeoutMs;
    const idle = options.idleMs === undefined ? {} : { idleMs: options.idleMs };
    if (options.faithful) {
      this.faithfulPool = new WorkerPool(new URL('./faithful-worker.ts', import.meta.url), {
        size: options.workers,
        timeoutMs,
        ...idle,
        kind: 'process',
        nice: RENDER_NICE,
        semiSpaceMb: FAITHFUL_SEMI_SPACE_MB,
      });
    }
    this.fastPool = new WorkerPool(new URL('./fast-worker.ts', import.meta.url), { size: options.fastWorkers, timeoutMs, ...idle, kind: 'process', nice: RENDER_NICE });
    this.cache = new RenderCache(path.join(options.dataDirectory, 'render-cache'), options.cacheBytes, options.log);
    this.fontsDirectory = path.join(options.dataDirectory, 'fonts');
    this.log = options.log;
    this.observer = options.observer;
  }

  /**
   * Starts one faithful worker now, so the first faithful render does not wait for the editor to load
   * (a second or so); the others start when renders need them.
   */
  warmFirst(): void {
    this.faithfulPool?.warm(1);
  }

  /** Starts every render worker now. */
  warm(): void {
    this.faithfulPool?.warm();
    this.fastPool.warm();
  }

  /** Process ids of the faithful render workers (for operators, and tests that kill one). */
  faithfulWorkerPids(): number[] {
    return this.faithfulPool?.pids() ?? [];
  }

  /** Process ids of the fast render workers started so far (all FAST_WORKERS of them once warm). */
  fastWorkerPids(): number[] {
    return this.fastPool.pids();
  }

  async close(): Promise<void> {
    await Promise.all([this.faithfulPool?.close(), this.fastPool.close()]);
  }

  /** The render pools as they stand (no faithful one when RENDER_FAITHFUL is off). */
  poolLoad(): Partial<Record<RenderQuality, RenderPoolLoad>> {
    const fast = { pool: this.fastPool.stats(), fairShareWaiting: this.fastShare.waiting() };
    return this.faithfulPool ? { faithful: { pool: this.faithfulPool.stats(), fairShareWaiting: this.faithfulShare.waiting() }, fast } : { fast };
  }

  /** Bytes the render cache holds on disk, as this process knows it. */
  cacheBytes(): number {
    return this.cache.size();
  }

  async render(request: RenderRequest): Promise<RenderResult> {
    if (request.elementCount === 0) return EMPTY;
    const trace: Trace = { worked: false, timedOut: false };
    try {
      const result = await this.renderScene(request, trace);
      this.observer?.rendered(request.quality, request.format, outcomeOf(request, result, trace));
      return result;
    } catch (error) {
      if (!(error instanceof InvalidSelectionError)) this.observer?.rendered(request.quality, request.format, trace.timedOut ? 'timeout' : 'error');
      throw error;
    }
  }

  private async renderScene(request: RenderRequest, trace: Trace): Promise<RenderResult> {
    // The envelope carries the SVG and the PNG; a PDF is asked for on its own.
    const parts: Part[] = request.format === 'json' ? ['svg', 'png'] : [request.format];
    if (request.elementCount > MAX_SCENE_ELEMENTS) return this.placeholder(placeholderSvg(request.elementCount, MAX_SCENE_ELEMENTS), request, parts, trace);
    if (request.quality === 'faithful') {
      const pool = this.faithfulPool;
      if (pool) {
        try {
          return await this.cached('faithful', request, parts, (job) => this.runJob('faithful', this.faithfulShare, pool, request.caller, job, trace));
        } catch (error) {
          if (error instanceof InvalidSelectionError) throw error;
          this.log.warn({ err: error }, 'faithful render failed; serving the fast preview');
        }
      }
      return this.fast(request, parts, trace, 'faithful_unavailable');
    }
    return this.fast(request, parts, trace);
  }

  /** Runs one job in a pool within its caller's fair share, telling the observer how long it waited for a worker and how long the worker took. */
  private async runJob<Job>(quality: RenderQuality, share: FairShare, pool: WorkerPool<Job, RenderOutput>, caller: string | undefined, job: Job, trace: Trace): Promise<RenderOutput> {
    trace.worked = true;
    const asked = performance.now();
    let taken: number | undefined;
    try {
      return await share.run(caller, () =>
        pool.run(job, () => {
          taken = performance.now();
          this.observer?.queued(quality, (taken - asked) / 1000);
        }),
      );
    } catch (error) {
      if (error instanceof WorkerFailure && (error.reason === 'timeout' || error.reason === 'busy')) trace.timedOut = true;
      throw error;
    } finally {
      if (taken === undefined) this.observer?.queued(quality, (performance.now() - asked) / 1000);
      else this.observer?.ran(quality, (performance.now() - taken) / 1000);
    }
  }

  private async fast(request: RenderRequest, parts: Part[], trace: Trace, note?: RenderNote): Promise<RenderResult> {
    let result: RenderResult;
    // A faithful render that failed may have timed out: what counts now is whether the fast one does.
    trace.timedOut = false;
    try {
      // Catalog icons are drawn; a placeholder stands in only for an image with nothing to draw.
      result = await this.cached('fast', request, parts, (job) => this.runJob('fast', this.fastShare, this.fastPool, request.caller, job, trace));
    } catch (error) {
      if (error instanceof InvalidSelectionError) throw error;
      if (error instanceof SvgTooLarge) return this.placeholder(oversizedPlaceholderSvg(error.svgBytes, MAX_SVG_BYTES), request, parts, trace);
      this.log.error({ err: error }, 'fast render failed');
      throw new ApiError('render_failed', 'the diagram could not be rendered in time; try again');
    }
    if (result.note === 'render_failed' && parts.length === 1) {
      throw new ApiError('render_failed', 'the PNG could not be produced; try again, or ask for format=svg');
    }
    return note && !result.note ? { ...result, note } : result;
  }

  private async placeholder(svg: string, request: RenderRequest, parts: Part[], trace: Trace): Promise<RenderResult> {
    let png: Buffer | null = null;
    let pdf: Buffer | null = null;
    if (parts.includes('png') || parts.includes('pdf')) {
      try {
        const job = { placeholderSvg: svg, fontsDirectory: this.fontsDirectory, ...(parts.includes('pdf') ? { pdf: true } : {}) };
        const output = await this.runJob('fast', this.fastShare, this.fastPool, request.caller, job, trace);
        if (parts.includes('png')) png = Buffer.from(output.png!);
        if (parts.includes('pdf')) {
          if (output.pdf === undefined) throw new Error('the fast renderer produced no PDF of the placeholder');
          pdf = Buffer.from(output.pdf);
        }
      } catch (error) {
        this.log.error({ err: error }, 'placeholder render failed');
        throw new ApiError('render_failed', 'the placeholder image could not be rendered; try again');
      }
    }
    return { isEmpty: false, svg: parts.includes('svg') ? svg : null, png, ...(parts.includes('pdf') ? { pdf } : {}), quality: 'fast', note: 'large_diagram_placeholder' };
  }

  /**
   * Serves each part from the cache, renders what is missing in one job, and
   * caches it. The key holds the normalised options when there are any (the
   * defaults keep the keys they always had, so renders cached before options
   * existed are still served).
   */
  private async cached(quality: RenderQuality, request: RenderRequest, parts: Part[], run: (job: RenderJob) => Promise<RenderOutput>): Promise<RenderResult> {
    const { elementsJson } = request;
    const optionsKey = renderOptionsKey(request.options);
    const options = optionsKey === '' ? {} : { options: request.options! };
    const content = request.contentKey === undefined ? elementsJson : `content:${request.contentKey}`;
    const keys = new Map(parts.map((part) => [part, renderCacheKey([RENDERER_VERSION, excalidrawVersion(), quality, part, ...(optionsKey === '' ? [] : [optionsKey]), content])]));
    const found = new Map<Part, Buffer>();
    let imagesTruncated = false;
    let textTruncated = false;
    let pngFailed = false;
    for (const [part, key] of keys) {
      const hit = await this.cache.get(key);
      this.observer?.cacheLookup(hit !== undefined);
      if (!hit) continue;
      found.set(part, hit.bytes);
      imagesTruncated ||= hit.imagesTruncated;
      textTruncated ||= hit.textTruncated;
    }
    const missing = parts.filter((part) => !found.has(part));
    if (missing.length > 0) {
      const output = await run({
        elementsJson,
        svg: missing.includes('svg'),
        png: missing.includes('png'),
        ...(missing.includes('pdf') ? { pdf: true } : {}),
        ...options,
        fontsDirectory: this.fontsDirectory,
      });
      if (output.invalidSelection !== undefined) throw new InvalidSelectionError(output.invalidSelection);
      if (output.empty) return EMPTY;
      if (output.svgTooLarge !== undefined) throw new SvgTooLarge(quality, output.svgTooLarge);
      if (output.pngFailed) {
        // Faithful falls back to fast; fast reports it (render_failed) rather than fail the SVG too.
        if (quality === 'faithful') throw new Error(`the faithful PNG failed: ${output.pngFailed}`);
        this.log.error({ reason: output.pngFailed }, 'PNG render failed');
        pngFailed = true;
      }
      imagesTruncated ||= output.imagesTruncated === true;
      textTruncated ||= output.textTruncated === true;
      for (const part of missing) {
        const produced = output[part];
        if (produced === undefined) {
          if (part === 'png' && pngFailed) continue;
          throw new Error(`the ${quality} renderer produced no ${part}`);
        }
        const bytes = typeof produced === 'string' ? Buffer.from(produced, 'utf8') : Buffer.from(produced);
        found.set(part, bytes);
        await this.cache.put(keys.get(part)!, { bytes, imagesTruncated: output.imagesTruncated === true, textTruncated: output.textTruncated === true }).catch((error: unknown) => {
          this.log.warn({ err: error }, 'could not write the render cache');
        });
      }
    }
    const svg = found.get('svg');
    const note: RenderNote | undefined = pngFailed ? 'render_failed' : textTruncated ? 'text_truncated' : imagesTruncated ? 'images_truncated' : undefined;
    return {
      isEmpty: false,
      svg: svg === undefined ? null : svg.toString('utf8'),
      ...(svg === undefined ? {} : { svgBytes: svg }),
      png: found.get('png') ?? null,
      ...(parts.includes('pdf') ? { pdf: found.get('pdf') ?? null } : {}),
      quality,
      ...(note ? { note } : {}),
    };
  }
}

/** How a render that answered ended (see RenderOutcome). */
function outcomeOf(request: RenderRequest, result: RenderResult, trace: Trace): RenderOutcome {
  if (!result.isEmpty) {
    if (result.quality !== request.quality || result.note === 'large_diagram_placeholder') return 'fallback';
    if (result.note === 'render_failed') return 'error';
  }
  return trace.worked ? 'ok' : 'cached';
}

/**
 * A diagram's content from what a client sends: a raw scene (validated, stored
 * as supplied) or a spec (validated and laid out in a scene worker), and the
 * rules every content write shares.
 */
import { type ContentKind, contentProblems } from '../../domain/content-problems.ts';
import { CONTENT_CODES, type Problem, throwFirst } from '../../domain/problems.ts';
import { isCatalogIcon } from '../../domain/icons/catalog.ts';
import { sanitizeTitle } from '../../domain/title.ts';
import { ApiError, badRequest, type ErrorCode } from '../../errors.ts';
import { sceneOfFile } from '../../domain/scene/embedded.ts';
import { WorkerFailure } from '../../workers/pool.ts';
import { SCENE_HEAP_MB, SCENE_TIMEOUT_MS } from '../../workers/scene-limits.ts';
import type { SourceWarning } from '../../domain/source/types.ts';
import type { AnySpecInput } from '../../domain/spec/any-spec.ts';
import type { CheckedContent, GeneratedScene, ImportedScene, SceneJob, SceneOutput } from '../../workers/scene-worker.ts';
import type { Caller, ServiceDeps } from '../deps.ts';

/**
 * The `updated` stamp of generated elements. Fixed, so the same spec always
 * gives byte-identical elements; later edits stamp real times.
 */
const GENERATED_UPDATED = 1;

export interface SceneContent {
  elementsJson: string;
  elementCount: number;
  /** Made from a source: what the drawing leaves out, and the title the source gives itself. */
  warnings?: SourceWarning[];
  sourceTitle?: string | null;
}

/** Refuses a scene with a problem (the first, as the domain words it); a large scene is checked in a scene worker, against the caller's share. */
export async function checkScene(deps: ServiceDeps, scene: unknown, caller: Caller): Promise<void> {
  throwFirst(await contentProblemsOf(deps, caller, 'scene', scene));
}

/** A raw scene as the client sent it, checked (checkScene), stored as supplied; `appState` and the rest dropped. */
export async function contentFromScene(deps: ServiceDeps, given: unknown, caller: Caller): Promise<SceneContent> {
  // A file that carries its scene (an SVG's text, a PNG's data URL) gives that scene.
  const scene = typeof given === 'string' ? sceneOfFile(given) : given;
  await checkScene(deps, scene, caller);
  const { elements } = scene as { elements: unknown[] };
  return { elementsJson: JSON.stringify(elements), elementCount: elements.length };
}


/** The errors work in a scene worker can end in beyond the job's own: too heavy, or no worker free. */
export const SCENE_WORK_ERRORS = ['SCENE_TOO_LARGE', 'service_busy'] as const;

/** The content-model codes a spec or scene can be refused with (PROTO_KEY is listed for every body already). */
export const SPEC_CONTENT_ERRORS: ErrorCode[] = CONTENT_CODES.filter((code) => code !== 'PROTO_KEY');

/** The codes a raw scene written over a diagram's can be refused with. */
export const SCENE_CONTENT_ERRORS: ErrorCode[] = ['INVALID_SPEC', 'NOT_A_SCENE', 'BAD_LINK_SCHEME', 'UNKNOWN_ICON'];

/**
 * Runs work on a scene in a worker thread, off the event loop; a refusal there
 * (the client's mistake) is thrown here as the ApiError it was.
 */
export async function sceneWork<T extends Exclude<SceneOutput, { refused: unknown }>>(deps: ServiceDeps, job: SceneJob, caller: Caller): Promise<T> {
  let output: SceneOutput;
  try {
    output = await deps.scenes.run(job, `user:${caller.user.id}`);
  } catch (error) {
    if (!(error instanceof WorkerFailure)) throw error;
    if (error.reason === 'timeout' || error.reason === 'crashed') {
      throw new ApiError('SCENE_TOO_LARGE', `working on this scene needed more than a job may take (${SCENE_TIMEOUT_MS / 1000} s, ${SCENE_HEAP_MB} MB); send a smaller scene, spec or patch`);
    }
    throw new ApiError('service_busy', 'the server is too busy to work on scenes right now; retry in a few seconds', { 'retry-after': '5' });
  }
  if ('refused' in output) throw new ApiError(output.refused.code, output.refused.message);
  return output as T;
}

/**
 * A spec (past the DiagramSpec schema, at the edge) checked, laid out and generated in a scene worker: its
 * semantic checks on a large spec cost as much as its layout.
 */
export function contentFromSpec(deps: ServiceDeps, spec: AnySpecInput, caller: Caller): Promise<SceneContent> {
  return sceneWork<GeneratedScene>(deps, { task: 'generate', spec, updated: GENERATED_UPDATED }, caller);
}

/** A source (Mermaid or DOT text) read, laid out and generated in a scene worker, with its warnings. */
export function contentFromSource(deps: ServiceDeps, source: unknown, caller: Caller): Promise<SceneContent> {
  return sceneWork<ImportedScene>(deps, { task: 'import', source, updated: GENERATED_UPDATED }, caller);
}

/**
 * A diagram's whole content as a client sends it: exactly one of a spec or a source (laid out here) and a scene
 * (stored as supplied). A spec has passed the DiagramSpec schema already (the edge parses it); a scene and a
 * source are checked here.
 */
export interface ContentInput {
  spec?: AnySpecInput;
  scene?: unknown;
  source?: unknown;
}

const CONTENT_FIELDS = ['spec', 'scene', 'source'] as const;

/** The content from exactly one of `spec`, `scene` and `source`; bad_request when several or none are sent. */
export async function contentFromInput(deps: ServiceDeps, input: ContentInput, caller: Caller): Promise<SceneContent> {
  requireOneContent(input);
  if (input.spec !== undefined) return contentFromSpec(deps, input.spec, caller);
  if (input.source !== undefined) return contentFromSource(deps, input.source, caller);
  return contentFromScene(deps, input.scene, caller);
}

/** Refuses a request that sends several of a spec, a scene and a source, or none. */
export function requireOneContent(input: ContentInput): void {
  const given = CONTENT_FIELDS.filter((field) => input[field] !== undefined);
  if (given.length !== 1) throw badRequest(`send exactly one of "spec", "scene" or "source"${given.length > 1 ? `; got ${given.join(' and ')}` : ''}`);
}

/** A new title as a client sends it: sanitised, and refused when nothing is left; undefined stays undefined (no change). */
export function changedTitle(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const title = sanitizeTitle(raw);
  if (title === '') throw badRequest('title is empty after removing control characters and whitespace');
  return title;
}

/**
 * Content with more list entries than this (a spec's nodes and edges, ops, a
 * scene's elements, an edit's lists) is checked in a scene worker. Below it,
 * checking on the event loop costs under half a millisecond, about what the
 * hop to a worker and back costs.
 */
export const CHECKED_HERE_MAX_ENTRIES = 50;

/** How many entries content's lists hold: the content itself when it is a list, else its lists one level down. */
function listEntries(content: unknown): number {
  if (Array.isArray(content)) return content.length;
  if (typeof content !== 'object' || content === null) return 0;
  return Object.values(content).reduce((sum: number, value) => sum + (Array.isArray(value) ? value.length : 0), 0);
}

/**
 * Every problem content shows on its own: large content checked in a scene
 * worker, against the caller's share (without a caller, here). For the
 * validation endpoint, and for a write's body whose content fails its schema.
 */
export async function contentProblemsOf(deps: ServiceDeps, caller: Caller | undefined, kind: ContentKind, content: unknown): Promise<Problem[]> {
  if (caller === undefined || listEntries(content) <= CHECKED_HERE_MAX_ENTRIES) return contentProblems(kind, content, null, { isIcon: isCatalogIcon });
  return (await sceneWork<CheckedContent>(deps, { task: 'check', kind, elementsJson: null, content }, caller)).problems;
}

import { isCatalogIcon } from '../domain/icons/catalog.ts';
import { MAX_SCENE_ELEMENTS, validateScene } from '../domain/scene/validate.ts';
import { generatedElementCount } from '../domain/scene/from-spec.ts';
import { parseSpec } from '../domain/spec/parse.ts';
import { ApiError } from '../errors.ts';
import { WorkerFailure } from '../workers/pool.ts';
import type { GeneratedScene, SceneJob, SceneOutput } from '../workers/scene-worker.ts';
import type { Caller } from './diagram-access.ts';
import type { ServiceDeps } from './route.ts';

/**
 * The `updated` stamp of generated elements. Fixed, so the same spec always
 * gives byte-identical elements; later edits stamp real times.
 */
export const GENERATED_UPDATED = 1;

export interface SceneContent {
  elementsJson: string;
  elementCount: number;
}

/** A raw scene as the client sent it, validated; `appState` and the rest dropped. */
export function contentFromScene(scene: unknown): SceneContent {
  const { elements } = validateScene(scene, { isIcon: isCatalogIcon });
  return { elementsJson: JSON.stringify(elements), elementCount: elements.length };
}

/** A scene job that takes longer than this is abandoned (its worker replaced) and refused as too large. */
export const SCENE_TIMEOUT_MS = 30_000;
/** The heap a scene worker may hold: a job needing more is refused as too large, and the server's memory stays bounded. */
export const SCENE_HEAP_MB = 256;

/** The errors work in a scene worker can end in beyond the job's own: too heavy, or no worker free. */
export const SCENE_WORK_ERRORS = ['SCENE_TOO_LARGE', 'service_busy'] as const;

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

/** A spec validated here, then laid out and generated in a worker thread. */
export async function contentFromSpec(deps: ServiceDeps, rawSpec: unknown, caller: Caller): Promise<SceneContent> {
  const spec = parseSpec(rawSpec, { isIcon: isCatalogIcon });
  const count = generatedElementCount(spec);
  if (count > MAX_SCENE_ELEMENTS) {
    throw new ApiError('SCENE_TOO_LARGE', `this spec would make ${count} elements; the limit is ${MAX_SCENE_ELEMENTS}`);
  }
  return sceneWork<GeneratedScene>(deps, { task: 'generate', spec, updated: GENERATED_UPDATED }, caller);
}

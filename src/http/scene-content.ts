import { isCatalogIcon } from '../domain/icons/catalog.ts';
import { MAX_SCENE_ELEMENTS, validateScene } from '../domain/scene/validate.ts';
import { generatedElementCount } from '../domain/scene/from-spec.ts';
import { parseSpec } from '../domain/spec/parse.ts';
import { ApiError } from '../errors.ts';
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

/**
 * Runs work on a scene in a worker thread, off the event loop; a refusal there
 * (the client's mistake) is thrown here as the ApiError it was.
 */
export async function sceneWork<T extends Exclude<SceneOutput, { refused: unknown }>>(deps: ServiceDeps, job: SceneJob, caller: Caller): Promise<T> {
  const output = await deps.scenes.run(job, `user:${caller.user.id}`);
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

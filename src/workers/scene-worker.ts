import { parentPort } from 'node:worker_threads';
import { layoutGraph } from '../domain/layout/layout.ts';
import { sceneFromSpec } from '../domain/scene/from-spec.ts';
import type { DiagramSpec } from '../domain/spec/types.ts';
import { serveWorker } from './pool.ts';

export interface SceneJob {
  spec: DiagramSpec;
  updated: number;
}

export interface SceneOutput {
  elementsJson: string;
  elementCount: number;
}

/** Lays out a parsed spec and generates its elements, off the API's event loop. */
serveWorker<SceneJob, SceneOutput>(parentPort!, ({ spec, updated }) => {
  const elements = sceneFromSpec(spec, { updated, layout: layoutGraph });
  return { elementsJson: JSON.stringify(elements), elementCount: elements.length };
});

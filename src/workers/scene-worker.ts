import { parentPort } from 'node:worker_threads';
import { layoutGraph } from '../domain/layout/layout.ts';
import { lintReport, type LintReport } from '../domain/lint/lint.ts';
import { sceneFromSpec } from '../domain/scene/from-spec.ts';
import type { DiagramSpec } from '../domain/spec/types.ts';
import { serveWorker } from './pool.ts';

/** Work on a scene whose cost grows with it, done off the API's event loop. */
export type SceneJob = { task: 'generate'; spec: DiagramSpec; updated: number } | { task: 'lint'; elementsJson: string };

export interface GeneratedScene {
  elementsJson: string;
  elementCount: number;
}

export type SceneOutput = GeneratedScene | LintReport;

serveWorker<SceneJob, SceneOutput>(parentPort!, (job) => {
  if (job.task === 'lint') return lintReport(JSON.parse(job.elementsJson) as unknown[]);
  // Lays out a parsed spec and generates its elements.
  const elements = sceneFromSpec(job.spec, { updated: job.updated, layout: layoutGraph });
  return { elementsJson: JSON.stringify(elements), elementCount: elements.length };
});

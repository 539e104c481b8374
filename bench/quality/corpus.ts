/**
 * The quality corpus (bench/quality/corpus/NN-name.json, each the `spec` body
 * of POST /api/v1/diagrams) and its drawings: the same spec laid out by our
 * engine and by dot, built into scenes by the same sceneFromSpec.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import type { Direction, LayoutInput, LayoutResult } from '../../src/domain/layout/types.ts';
import type { ExcalidrawElement } from '../../src/domain/scene/elements.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { dotLayout } from './dot-layout.ts';

export const CORPUS_DIRECTORY = path.join(import.meta.dirname, 'corpus');

export interface CorpusEntry {
  /** The file name without `.json`: `03-tcp-state-machine`. */
  name: string;
  file: string;
  spec: unknown;
}

export function loadCorpus(): CorpusEntry[] {
  return fs
    .readdirSync(CORPUS_DIRECTORY)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ''), file: path.join(CORPUS_DIRECTORY, f), spec: JSON.parse(fs.readFileSync(path.join(CORPUS_DIRECTORY, f), 'utf8')) }));
}

export interface Drawings {
  direction: Direction;
  /** What sceneFromSpec handed the layout engine: the graph both engines lay out. */
  input: LayoutInput;
  ours: ExcalidrawElement[];
  dot: ExcalidrawElement[];
}

/** The spec drawn twice with exactly our element builders: geometry from our engine, then from dot. */
export function drawBoth(rawSpec: unknown): Drawings {
  const spec = parseSpec(rawSpec, { isIcon: isCatalogIcon });
  let input: LayoutInput | undefined;
  const recording = (layout: (input: LayoutInput) => LayoutResult) => (given: LayoutInput) => {
    input = given;
    return layout(given);
  };
  const ours = sceneFromSpec(spec, { updated: 1, layout: recording(layoutGraph) });
  const dot = sceneFromSpec(spec, { updated: 1, layout: dotLayout });
  return { direction: spec.direction, input: input!, ours, dot };
}

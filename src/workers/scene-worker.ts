import { randomInt } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { type ContentKind, contentProblems } from '../domain/content-problems.ts';
import { applyEdit } from '../domain/edit/apply.ts';
import { regenerateKeeping } from '../domain/edit/keep.ts';
import type { EditFragmentInput } from '../domain/edit/schema.ts';
import type { SceneElement, WriteStamp } from '../domain/edit/types.ts';
import { type ExportedSource, exportScene } from '../domain/export/export.ts';
import type { ExportLanguage } from '../domain/export/languages.ts';
import { isCatalogIcon } from '../domain/icons/catalog.ts';
import { layoutGraph } from '../domain/layout/layout.ts';
import { lintReport, type LintReport } from '../domain/lint/lint.ts';
import { applyPatch } from '../domain/patch/apply.ts';
import type { PatchOpInput } from '../domain/patch/schema.ts';
import { type SceneChange, sceneChange } from '../domain/history/change.ts';
import type { SceneChain } from '../domain/history/delta.ts';
import { type DiffSides, revisionDiffJson } from '../domain/history/revision-diff.ts';
import { type Problem, throwFirst } from '../domain/problems.ts';
import { mermaidLoaded } from '../domain/source/mermaid.ts';
import { readSource } from '../domain/source/read-source.ts';
import type { SourceWarning } from '../domain/source/types.ts';
import { generatedElementCount } from '../domain/scene/from-spec.ts';
import { type AnySpecInput, type CheckedSpec, checkAnySpec, isFlow, isFlowInput, sceneOfSpec } from '../domain/spec/any-spec.ts';
import { MAX_SCENE_ELEMENTS } from '../domain/scene/validate.ts';
import { specFrom } from '../domain/spec/parse.ts';
import type { DiagramSpecInput } from '../domain/spec/schema.ts';
import type { DiagramSpec } from '../domain/spec/types.ts';
import { ApiError, type ErrorCode } from '../errors.ts';
import { serveProcessWorker, serveWorker } from './pool.ts';

/** Work on a scene whose cost grows with it, done off the API's event loop. */
export type SceneJob =
  /** A spec as the client sent it, past the DiagramSpec schema (at the edge): its semantic checks, then laid out and generated. */
  | { task: 'generate'; spec: AnySpecInput; updated: number }
  /** A source (Mermaid, DOT) as the client sent it: read into a spec, checked, laid out and generated. */
  | { task: 'import'; source: unknown; updated: number }
  /** Every problem a source would meet, and its warnings; nothing is laid out. */
  | { task: 'check-source'; source: unknown }
  | { task: 'lint'; elementsJson: string }
  /** A stored scene written as text: the spec it draws, Mermaid or DOT. */
  | { task: 'export'; elementsJson: string; language: ExportLanguage }
  /** A spec, or a source read into one, drawn over a stored scene keeping what stays where it is (regenerate's layout "keep"). */
  | { task: 'keep'; elementsJson: string; spec?: AnySpecInput; source?: unknown; now: number }
  /** A patch's ops, or an edit's fragment, applied to a stored scene at time `now`. */
  | { task: 'patch'; elementsJson: string; ops: PatchOpInput[]; now: number }
  | { task: 'edit'; elementsJson: string; fragment: EditFragmentInput; now: number }
  /** Every problem content would meet, and for an edit or ops given a stored scene, on that scene; nothing is written. */
  | { task: 'check'; kind: ContentKind; elementsJson: string | null; content: unknown }
  /** What changed between two revisions' scenes, as the history's diff answers it. */
  | { task: 'diff'; from: SceneChain; to: SceneChain; sides: DiffSides };

export interface GeneratedScene {
  elementsJson: string;
  elementCount: number;
}

/** A scene generated from a source, with what the drawing leaves out and the title the source gives itself. */
export interface ImportedScene extends GeneratedScene {
  warnings: SourceWarning[];
  sourceTitle: string | null;
}

export interface CheckedSource extends CheckedContent {
  warnings: SourceWarning[];
}

/** A changed scene, serialised here, with what the write needs to know of it. */
export interface ChangedScene extends GeneratedScene {
  elementIds: string[];
  /** What changed from the scene the job was given, for the diagram's history: worked out here, where both are at hand. */
  history: SceneChange;
}

export type PatchedScene = ChangedScene & { applied: number; deleted: number };
/** A regenerate that kept the stored arrangement: what stayed, what was placed, what went; `fresh` when it could not be kept (a new container). */
export type KeptScene = (ChangedScene & { kept: string[]; placed: string[]; removed: string[]; warnings?: SourceWarning[] }) | { fresh: true };
export type EditedScene = ChangedScene & { added: string[]; updated: string[]; merged: number };

export interface CheckedContent {
  problems: Problem[];
}

/** A history diff's answer, serialised here. */
export interface DiffText {
  diffJson: string;
}

export type SceneOutput =
  | GeneratedScene
  | ImportedScene
  | CheckedContent
  | CheckedSource
  | LintReport
  | ExportedSource
  | PatchedScene
  | KeptScene
  | EditedScene
  | DiffText
  /** The client's mistake, as an ApiError's code and message: it crosses back to be thrown as one. */
  | { refused: { code: ErrorCode; message: string } };

/** A worker whose heap grew past this (a layout of thousands of edges) is replaced after its job. */
const RETIRE_ABOVE_HEAP_MB = 128;
/** What Mermaid and its DOM keep once a worker has read a Mermaid source: not counted as growth, or every such worker would be replaced after its job and load Mermaid again (2 s). */
const MERMAID_HEAP_MB = 140;
const retireAbove = () => RETIRE_ABOVE_HEAP_MB + (mermaidLoaded() ? MERMAID_HEAP_MB : 0);

function changed(before: readonly SceneElement[], elements: readonly SceneElement[]): ChangedScene {
  // Patches and edits keep the elements they leave alone, so the change compares those by reference.
  return { elementsJson: JSON.stringify(elements), elementCount: elements.length, elementIds: elements.map((e) => e.id), history: sceneChange(before, elements) };
}

/** A checked spec laid out and generated. */
function generated(spec: CheckedSpec, updated: number): GeneratedScene {
  const tooLarge = (count: number) => new ApiError('SCENE_TOO_LARGE', `this spec would make ${count} elements; the limit is ${MAX_SCENE_ELEMENTS}`);
  const counted = isFlow(spec) ? generatedElementCount(spec) : 0;
  if (counted > MAX_SCENE_ELEMENTS) throw tooLarge(counted);
  const elements = sceneOfSpec(spec, { updated, layout: layoutGraph });
  // The count of a sequence, class or ER diagram is known once drawn (frames, activations, compartments vary).
  if (elements.length > MAX_SCENE_ELEMENTS) throw tooLarge(elements.length);
  return { elementsJson: JSON.stringify(elements), elementCount: elements.length };
}

/** A spec as the client sent it (past its schema at the edge), checked with its semantic rules; its first problem refuses it. */
function checkedSpec(input: AnySpecInput): CheckedSpec {
  if (isFlowInput(input)) return specFrom(input, { isIcon: isCatalogIcon });
  const { problems, spec } = checkAnySpec(input, { isIcon: isCatalogIcon });
  throwFirst(problems);
  return spec!;
}

/** A source read as create reads it, then laid out; its first problem refuses it. */
async function imported(source: unknown, updated: number): Promise<ImportedScene> {
  const reading = await readSource(source, { isIcon: isCatalogIcon });
  throwFirst(reading.problems);
  return { ...generated(reading.checked!, updated), warnings: reading.warnings, sourceTitle: reading.title };
}

const stampAt = (now: number): WriteStamp => ({ now, nonce: () => randomInt(1, 2 ** 31) });

async function handle(job: SceneJob): Promise<SceneOutput> {
  try {
    switch (job.task) {
      case 'lint':
        return lintReport(JSON.parse(job.elementsJson) as unknown[]);
      case 'export':
        return exportScene(JSON.parse(job.elementsJson) as SceneElement[], job.language);
      case 'patch': {
        const before = JSON.parse(job.elementsJson) as SceneElement[];
        const { elements, applied, deleted } = applyPatch(before, job.ops, stampAt(job.now), { isIcon: isCatalogIcon });
        return { ...changed(before, elements), applied, deleted };
      }
      case 'keep': {
        const before = JSON.parse(job.elementsJson) as SceneElement[];
        let input: DiagramSpecInput;
        let checked: DiagramSpec;
        let warnings: SourceWarning[] | undefined;
        if (job.source !== undefined) {
          const reading = await readSource(job.source, { isIcon: isCatalogIcon });
          throwFirst(reading.problems);
          // A sequence diagram is laid out whole: its rows follow from its steps.
          if (!isFlow(reading.checked!)) return { fresh: true };
          [input, checked, warnings] = [reading.spec as DiagramSpecInput, reading.checked!, reading.warnings];
        } else if (!isFlowInput(job.spec)) {
          // A sequence diagram is laid out whole: its rows follow from its steps.
          return { fresh: true };
        } else {
          [input, checked] = [job.spec!, specFrom(job.spec!, { isIcon: isCatalogIcon })];
        }
        const kept = regenerateKeeping(before, input, checked, stampAt(job.now), { isIcon: isCatalogIcon, layout: layoutGraph });
        if (kept === null) return { fresh: true };
        return { ...changed(before, kept.elements), kept: kept.kept, placed: kept.placed, removed: kept.removed, ...(warnings === undefined ? {} : { warnings }) };
      }
      case 'edit': {
        const before = JSON.parse(job.elementsJson) as SceneElement[];
        const { elements, added, updated, merged } = applyEdit(before, job.fragment, stampAt(job.now), { isIcon: isCatalogIcon });
        return { ...changed(before, elements), added, updated, merged };
      }
      case 'check': {
        const elements = job.elementsJson === null ? null : (JSON.parse(job.elementsJson) as SceneElement[]);
        return { problems: contentProblems(job.kind, job.content, elements, { isIcon: isCatalogIcon }) };
      }
      case 'generate':
        return generated(checkedSpec(job.spec), job.updated);
      case 'import':
        return await imported(job.source, job.updated);
      case 'check-source': {
        const { problems, warnings } = await readSource(job.source, { isIcon: isCatalogIcon });
        return { problems, warnings };
      }
      case 'diff':
        return { diffJson: revisionDiffJson(job.from, job.to, job.sides) };
    }
  } catch (error) {
    if (error instanceof ApiError) return { refused: { code: error.code, message: error.message } };
    throw error;
  }
}

// A process of the server's scene pool; a thread where a caller runs the module in a thread pool.
if (parentPort) serveWorker(parentPort, handle, { retireAboveHeapMb: retireAbove });
else serveProcessWorker(handle, { retireAboveHeapMb: retireAbove });

import { ApiError, badRequest } from '../../errors.ts';
import type { RenderOptionsQuery } from '../../api/render-options.ts';
import { InvalidRenderOption, renderOptionsOf } from '../../render/options.ts';
import { imageOf, type RenderedImage, type RenderResult } from '../../render/renderer.ts';
import type { RenderFormat, RenderOptions, RenderQuality } from '../../render/types.ts';
import type { DiagramMeta, DiagramRecord } from '../../store/store.ts';
import { embedSceneInPng, embedSceneInSvg, sceneFileJson } from '../../domain/scene/embedded.ts';
import { imageFiles } from '../../render/image-files.ts';
import { diagramFor, diagramWithElementsFor } from '../access.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { revisionWithScene } from '../history/get-revision.ts';

export interface RenderedDiagram extends RenderResult {
  diagram: DiagramRecord;
  /** For format png, svg or pdf: the image in that format (null for an empty scene); null for json. */
  image: RenderedImage | null;
}

/**
 * The render options a query asks for (width, scale, padding, background,
 * theme, elements, frame: docs/rendering.md, "Options"), each read by
 * RenderOptionsQuery; two that exclude each other are 400 bad_request.
 */
export function renderOptionsFrom(query: RenderOptionsQuery): RenderOptions {
  try {
    return renderOptionsOf(query);
  } catch (error) {
    if (error instanceof InvalidRenderOption) throw badRequest(error.message);
    throw error;
  }
}

/**
 * Renders a diagram the caller may view, as the editor draws it (`faithful`,
 * the default) or as the lightweight preview (`fast`); anything else is
 * invalid_quality. `rev` renders a past revision from the diagram's history.
 * `options` size, frame, theme or crop it; ids in them that name nothing
 * drawn are invalid_selection. `embed: 'scene'` embeds the diagram's whole
 * scene in the PNG and the SVG. The render counts against the caller's fair
 * share of the render workers.
 */
export async function renderDiagram(
  deps: ServiceDeps,
  caller: Caller,
  id: string,
  format: RenderFormat,
  quality: unknown = 'faithful',
  rev?: string,
  options: RenderOptions = {},
  embed?: 'scene',
): Promise<RenderedDiagram> {
  if (quality !== 'faithful' && quality !== 'fast') {
    throw new ApiError('invalid_quality', `quality must be "faithful" or "fast", got ${JSON.stringify(quality)}`);
  }
  if (embed === 'scene' && format === 'pdf') throw badRequest('embed=scene applies to png, svg and json renders: a PDF carries no scene');
  const diagram = rev === undefined ? await diagramWithElementsFor(deps, caller, id, 'read') : await pastDiagram(deps, caller, id, rev);
  const rendered = await deps.renderer.render({
    elementsJson: diagram.elementsJson,
    elementCount: diagram.elementCount,
    contentKey: rev === undefined ? contentKeyOf(diagram) : `${diagram.id}@rev:${rev}`,
    format,
    quality: quality as RenderQuality,
    options,
    caller: callerShare(caller),
  });
  const result = embed === 'scene' && !rendered.isEmpty ? withScene(rendered, diagram.elementsJson, deps.config.publicUrl, options) : rendered;
  return { ...result, diagram, image: format === 'json' ? null : imageOf(result, format) };
}

/**
 * The render with the diagram's whole scene embedded, as the editor's "Embed scene" export embeds it: the
 * PNG and the SVG open again in Excalidraw (or in a new diagram here) as the editable drawing.
 */
function withScene(result: RenderResult, elementsJson: string, publicUrl: string, options: RenderOptions): RenderResult {
  const elements = JSON.parse(elementsJson) as Record<string, unknown>[];
  const background = options.background !== undefined && options.background !== 'transparent' ? options.background : '#ffffff';
  const scene = sceneFileJson(elements, imageFiles(elements).files, publicUrl, background);
  const { svgBytes: _drawn, ...drawn } = result;
  return { ...drawn, svg: result.svg === null ? null : embedSceneInSvg(result.svg, scene), png: result.png === null ? null : embedSceneInPng(result.png, scene) };
}

/** The diagram with the elements of one of its past revisions. */
async function pastDiagram(deps: ServiceDeps, caller: Caller, id: string, rev: string): Promise<DiagramRecord> {
  const { diagram, record, elementsJson } = await revisionWithScene(deps, caller, id, rev);
  return { ...diagram, elementsJson, elementCount: record.elementCount };
}

/**
 * What names a diagram's current elements for the render cache: its id and content revision (every
 * content write moves the revision, so one name never stands for two scenes), and its element count.
 */
export function contentKeyOf(diagram: DiagramRecord): string {
  return `${diagram.id}@${thumbnailRevision(diagram)}#${diagram.elementCount}`;
}

/** A thumbnail: current (the client's copy, named by revision, is still good) or the picture of the revision rendered. */
export type Thumbnail = { current: true; revision: string } | { current: false; revision: string; png: Buffer | null };

/** The revision a thumbnail shows: the content's last change (older diagrams: their last update). */
export function thumbnailRevision(diagram: Pick<DiagramMeta, 'docUpdatedAt' | 'updatedAt'>): string {
  return diagram.docUpdatedAt ?? diagram.updatedAt;
}

/**
 * A diagram's thumbnail for a dashboard card: the fast PNG with catalog icons
 * drawn. When the client's copy is of the current revision (`isCurrent`), the
 * scene is not even loaded.
 */
export async function diagramThumbnail(deps: ServiceDeps, caller: Caller, id: string, isCurrent: (revision: string) => boolean): Promise<Thumbnail> {
  const meta = await diagramFor(deps, caller, id, 'read');
  if (isCurrent(thumbnailRevision(meta))) return { current: true, revision: thumbnailRevision(meta) };
  const diagram = await diagramWithElementsFor(deps, caller, id, 'read');
  const result = await deps.renderer.render({
    elementsJson: diagram.elementsJson,
    elementCount: diagram.elementCount,
    contentKey: contentKeyOf(diagram),
    format: 'png',
    quality: 'fast',
    // The signed-in person's fair share of the workers, the one their API renders count against.
    caller: callerShare(caller),
  });
  // The revision of the elements actually rendered, should a write have landed since the first read.
  return { current: false, revision: thumbnailRevision(diagram), png: result.isEmpty ? null : result.png };
}

/** Whose fair share of the render workers a person's renders count against: theirs, whichever way they ask. */
export function callerShare(caller: Caller): string {
  return `user:${caller.user.id}`;
}

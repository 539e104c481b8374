import { ApiError } from '../../errors.ts';
import { isPlainObject } from '../payload.ts';

export const MAX_SCENE_ELEMENTS = 5000;
const ALLOWED_LINK_SCHEMES = new Set(['http', 'https', 'mailto']);

export interface ValidScene {
  elements: Record<string, unknown>[];
}

function describe(index: number, element: Record<string, unknown>): string {
  return typeof element.id === 'string' ? `scene.elements[${index}] (id ${JSON.stringify(element.id)})` : `scene.elements[${index}]`;
}

/** The scheme of a link, as a browser would read it, or null when it has none. */
export function linkScheme(link: string): string | null {
  // Browsers ignore leading whitespace/control characters and tabs or newlines inside the scheme.
  const normalised = link.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(normalised);
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Checks a raw scene in the editor's format and returns its elements, as
 * supplied. Throws NOT_A_SCENE, SCENE_TOO_LARGE, BAD_LINK_SCHEME or UNKNOWN_ICON
 * (an image whose `icon-…` fileId is not a catalog id) naming the offending element. `appState` and everything else at the top level is dropped.
 */
export function validateScene(scene: unknown, options: { isIcon: (id: string) => boolean }): ValidScene {
  if (!isPlainObject(scene)) throw new ApiError('NOT_A_SCENE', 'scene must be an object with an "elements" array');
  const { elements } = scene;
  if (!Array.isArray(elements)) throw new ApiError('NOT_A_SCENE', 'scene.elements must be an array');
  if (elements.length > MAX_SCENE_ELEMENTS) {
    throw new ApiError('SCENE_TOO_LARGE', `scene has ${elements.length} elements; the limit is ${MAX_SCENE_ELEMENTS}`);
  }
  const seen = new Set<string>();
  elements.forEach((element: unknown, index) => {
    if (!isPlainObject(element)) throw new ApiError('NOT_A_SCENE', `scene.elements[${index}] must be an object`);
    const where = describe(index, element);
    if (typeof element.id !== 'string' || element.id === '') {
      throw new ApiError('NOT_A_SCENE', `${where} must have a non-empty string "id"`);
    }
    if (typeof element.type !== 'string' || element.type === '') {
      throw new ApiError('NOT_A_SCENE', `${where} must have a non-empty string "type"`);
    }
    if (seen.has(element.id)) throw new ApiError('NOT_A_SCENE', `${where} repeats an id used by an earlier element`);
    seen.add(element.id);
    if (element.type === 'image' && typeof element.fileId === 'string' && element.fileId.startsWith('icon-') && !options.isIcon(element.fileId)) {
      throw new ApiError('UNKNOWN_ICON', `${where}: fileId ${JSON.stringify(element.fileId)} is not in the icon catalog (GET /api/v1/icons)`);
    }
    const { link } = element;
    if (link !== undefined && link !== null) {
      if (typeof link !== 'string') throw new ApiError('NOT_A_SCENE', `${where}: "link" must be a string or null`);
      const scheme = linkScheme(link);
      if (scheme === null || !ALLOWED_LINK_SCHEMES.has(scheme)) {
        throw new ApiError(
          'BAD_LINK_SCHEME',
          `${where}: link ${scheme ? `scheme "${scheme}:"` : 'without a scheme'} is not allowed; use http, https or mailto`,
        );
      }
    }
  });
  return { elements: elements as Record<string, unknown>[] };
}

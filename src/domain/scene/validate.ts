import { isPlainObject } from '../payload.ts';
import { type PathKey, type Problem, ProblemList, pointer, throwFirst } from '../problems.ts';
import { MAX_SCENE_ELEMENTS, Scene, SceneElement } from './schema.ts';

export { MAX_SCENE_ELEMENTS };
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

const ELEMENT_FIELD_RANK: Record<string, number> = { id: 1, type: 2, link: 3 };

/** The scene's own problems and each element's, from the Scene and SceneElement schemas. */
function shapeProblems(scene: unknown, out: ProblemList): unknown[] {
  const result = Scene.safeParse(scene);
  const root = isPlainObject(scene) ? scene : {};
  for (const issue of result.success ? [] : result.error.issues) {
    const [field, index] = issue.path as PathKey[];
    if (field === 'elements' && index !== undefined) continue;
    const path = pointer(issue.path as PathKey[]);
    if (field === undefined) {
      const hint = 'nodes' in root || 'edges' in root ? 'this looks like a DiagramSpec: send it as "spec"' : 'a scene is { "elements": [...] } as the editor exports it';
      out.schema([0, 0], { code: 'NOT_A_SCENE', message: 'scene must be an object with an "elements" array', path, hint });
    } else if (field === 'elements') {
      if (issue.code === 'too_big') out.schema([0, 1], { code: 'SCENE_TOO_LARGE', message: `scene has ${(root.elements as unknown[]).length} elements; the limit is ${MAX_SCENE_ELEMENTS}`, path });
      else out.schema([0, 1], { code: 'NOT_A_SCENE', message: 'scene.elements must be an array', path, hint: 'nodes' in root ? 'this looks like a DiagramSpec: send it as "spec"' : undefined });
    } else out.schema([0, 2], { code: 'NOT_A_SCENE', message: `scene.${String(field)} must be an object`, path });
  }
  const elements = root.elements;
  if (!Array.isArray(elements) || elements.length > MAX_SCENE_ELEMENTS) return [];
  elements.forEach((element: unknown, i) => {
    const parsed = SceneElement.safeParse(element);
    if (parsed.success) return;
    if (!isPlainObject(element)) {
      out.schema([1, i, 0], { code: 'NOT_A_SCENE', message: `scene.elements[${i}] must be an object`, path: pointer(['elements', i]) });
      return;
    }
    const where = describe(i, element);
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      const path = pointer(['elements', i, ...(issue.path as PathKey[])]);
      const rank = [1, i, ELEMENT_FIELD_RANK[field] ?? 4];
      if (field === 'link') out.schema(rank, { code: 'NOT_A_SCENE', message: `${where}: "link" must be a string or null`, path });
      else out.schema(rank, { code: 'NOT_A_SCENE', message: `${where} must have a non-empty string "${field}"`, path, hint: field === 'type' ? 'type is the element kind: rectangle, ellipse, diamond, text, arrow, line, image…' : undefined });
    }
  });
  return elements;
}

/**
 * Every problem with a raw scene in the editor's format: its schema's (Scene,
 * SceneElement), then repeated ids, `icon-…` image files not in the catalog
 * (UNKNOWN_ICON) and links with a scheme other than http, https or mailto
 * (BAD_LINK_SCHEME).
 */
export function sceneProblems(scene: unknown, options: { isIcon: (id: string) => boolean }): Problem[] {
  const out = new ProblemList();
  const elements = shapeProblems(scene, out);
  const seen = new Set<string>();
  elements.forEach((element, i) => {
    if (!isPlainObject(element) || typeof element.id !== 'string' || element.id === '') return;
    const where = describe(i, element);
    if (seen.has(element.id)) out.add({ code: 'NOT_A_SCENE', message: `${where} repeats an id used by an earlier element`, path: pointer(['elements', i, 'id']), hint: 'every element needs its own id' });
    seen.add(element.id);
    if (element.type === 'image' && typeof element.fileId === 'string' && element.fileId.startsWith('icon-') && !options.isIcon(element.fileId)) {
      out.add({ code: 'UNKNOWN_ICON', message: `${where}: fileId ${JSON.stringify(element.fileId)} is not in the icon catalog (GET /api/v1/icons)`, path: pointer(['elements', i, 'fileId']) });
    }
    const { link } = element;
    if (typeof link === 'string') {
      const scheme = linkScheme(link);
      if (scheme === null || !ALLOWED_LINK_SCHEMES.has(scheme)) {
        out.add({
          code: 'BAD_LINK_SCHEME',
          message: `${where}: link ${scheme ? `scheme "${scheme}:"` : 'without a scheme'} is not allowed; use http, https or mailto`,
          path: pointer(['elements', i, 'link']),
        });
      }
    }
  });
  return out.list();
}

/**
 * Checks a raw scene in the editor's format and returns its elements, as
 * supplied. Throws the first of sceneProblems (NOT_A_SCENE, SCENE_TOO_LARGE,
 * BAD_LINK_SCHEME or UNKNOWN_ICON) naming the offending element. `appState`
 * and everything else at the top level is dropped.
 */
export function validateScene(scene: unknown, options: { isIcon: (id: string) => boolean }): ValidScene {
  throwFirst(sceneProblems(scene, options));
  return { elements: (scene as { elements: Record<string, unknown>[] }).elements };
}

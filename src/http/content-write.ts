import { randomInt } from 'node:crypto';
import type { SceneElement, WriteStamp } from '../domain/edit/types.ts';
import { ApiError } from '../errors.ts';
import type { ContentWriteResult, DiagramRecord } from '../store/store.ts';
import { type Caller, diagramWithElementsFor } from './diagram-access.ts';
import type { ServiceDeps } from './route.ts';

/** Writers that lose a race without an expectedUpdatedAt recompute on the new revision this many times. */
const ATTEMPTS = 5;
/** Parsed scenes kept for the next write: agents patch the same diagram again and again. */
const PARSED_SCENES = 32;

/**
 * Parsed elements by (diagram, revision). The domain functions never mutate
 * their input, so a parsed scene can be shared; a revision's content never
 * changes, so an entry is never stale.
 */
const parsedScenes = new Map<string, readonly SceneElement[]>();

function remember(id: string, revision: string, elements: readonly SceneElement[]): void {
  parsedScenes.delete(`${id}\u0000${revision}`);
  parsedScenes.set(`${id}\u0000${revision}`, elements);
  if (parsedScenes.size > PARSED_SCENES) parsedScenes.delete(parsedScenes.keys().next().value!);
}

function elementsOf(diagram: DiagramRecord): readonly SceneElement[] {
  const key = `${diagram.id}\u0000${diagram.docUpdatedAt}`;
  const cached = parsedScenes.get(key);
  if (cached) return cached;
  const elements = JSON.parse(diagram.elementsJson) as SceneElement[];
  if (diagram.docUpdatedAt !== null) remember(diagram.id, diagram.docUpdatedAt, elements);
  return elements;
}

export interface NextContent {
  elements: readonly SceneElement[];
  title?: string;
}

export function writeStamp(deps: ServiceDeps): WriteStamp {
  return { now: deps.now().getTime(), nonce: () => randomInt(1, 2 ** 31) };
}

/**
 * A content write as one read-compute-write: the new content is computed from
 * the revision read and written only if that revision is still current. With
 * `expected` (the client's expectedUpdatedAt) a changed diagram is 409
 * stale_read and nothing is written; without it, a lost race is recomputed on
 * the newer revision, so no concurrent write is ever silently overwritten.
 */
export async function writeContent<T extends NextContent>(
  deps: ServiceDeps,
  actor: Caller,
  id: string,
  expected: string | null,
  compute: (elements: readonly SceneElement[], current: DiagramRecord) => Promise<T> | T,
): Promise<{ next: T; result: Extract<ContentWriteResult, { status: 'written' }> }> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await diagramWithElementsFor(deps, actor, id, 'write');
    if (expected !== null && expected !== current.docUpdatedAt) throw staleRead(current.docUpdatedAt);
    const next = await compute(elementsOf(current), current);
    const elementsJson = JSON.stringify(next.elements);
    const result = await deps.store.writeContent({
      id: current.id,
      elementsJson,
      elementCount: next.elements.length,
      elementIds: new Set(next.elements.map((e) => e.id)),
      expectedDocUpdatedAt: current.docUpdatedAt,
      now: deps.now(),
      ...(next.title === undefined ? {} : { title: next.title }),
    });
    if (result.status === 'written') {
      remember(current.id, result.docUpdatedAt, next.elements);
      return { next, result };
    }
    if (result.status === 'missing') throw new ApiError('not_found');
    if (expected !== null) throw staleRead(result.docUpdatedAt);
  }
  throw new ApiError('stale_read', 'the diagram kept changing under this write; read it again and retry');
}

function staleRead(current: string | null): ApiError {
  return new ApiError('stale_read', `the diagram changed since expectedUpdatedAt; its docUpdatedAt is now ${current}`);
}

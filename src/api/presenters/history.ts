// What leaves the server is built by the presenters in this folder, one file per resource, field by field, from
// the records the use cases read: every transport (the REST API, the web app, MCP through the API) answers with them.
import { revisionId } from '../revision-id.ts';
import type { SceneElement } from '../../domain/edit/types.ts';
import type { RevisionRecord } from '../../store/store.ts';

/** One revision as a client sees it. */
export function revision(record: RevisionRecord) {
  return {
    rev: revisionId(record.seq),
    at: record.at,
    author: record.author,
    via: record.via,
    kind: record.kind,
    elementCount: record.elementCount,
    summary: record.summary,
    hasScene: record.hasScene,
    ...(record.detail?.restoredFrom === undefined ? {} : { restoredFrom: revisionId(record.detail.restoredFrom) }),
    ...(record.detail?.saves === undefined ? {} : { saves: record.detail.saves }),
    ...(record.kind === 'save' ? { contributors: record.contributors } : {}),
  };
}

/** A past revision with its scene, as JSON text: the stored elements spliced in without a parse and re-serialisation. */
export function revisionJson(record: RevisionRecord, elementsJson: string): string {
  const head = JSON.stringify({ id: record.diagramId, rev: revisionId(record.seq), at: record.at, kind: record.kind, elementCount: record.elementCount });
  return `${head.slice(0, -1)},"scene":{"elements":${elementsJson},"appState":{}}}`;
}

/** A past revision with its elements, as the web editor's history panel shows it. */
export const revisionElements = (record: RevisionRecord, elementsJson: string) => ({
  rev: revisionId(record.seq),
  at: record.at,
  kind: record.kind,
  elementCount: record.elementCount,
  elements: JSON.parse(elementsJson) as SceneElement[],
});

import { RegenerateBody, RegenerateResult } from '../../../api/schemas.ts';
import { continueVersions } from '../../../domain/edit/regenerate.ts';
import type { SceneElement } from '../../../domain/edit/types.ts';
import { sanitizeTitle } from '../../../domain/title.ts';
import { badRequest } from '../../../errors.ts';
import { writeContent, writeStamp } from '../../content-write.ts';
import { defineRoute } from '../../route.ts';
import { contentFromScene, contentFromSpec, SCENE_WORK_ERRORS } from '../../scene-content.ts';
import { SPEC_CONTENT_ERRORS } from './createDiagram.ts';

export const regenerateDiagram = defineRoute({
  operationId: 'regenerateDiagram',
  method: 'POST',
  url: '/api/v1/diagrams/:id/regenerate',
  access: { capability: 'write' },
  tags: ['editing'],
  summary: 'Replace the whole scene in place',
  description:
    'From a `spec` (laid out again; ids are deterministic, so comments on reused ids stay anchored) or a `scene` (swapped in as supplied). Keeps the id and URL. With `expectedUpdatedAt`, a diagram changed since is 409 stale_read and nothing is written; of concurrent regenerates with the same value exactly one succeeds.',
  body: RegenerateBody,
  response: { status: 200, schema: RegenerateResult, description: 'What was replaced' },
  errors: ['not_found', 'stale_read', ...SPEC_CONTENT_ERRORS, ...SCENE_WORK_ERRORS],
  handler: async ({ body, params, actor, deps }) => {
    if ((body.spec === undefined) === (body.scene === undefined)) throw badRequest('send exactly one of "spec" or "scene"');
    const title = body.title === undefined ? undefined : sanitizeTitle(body.title);
    if (title === '') throw badRequest('title is empty after removing control characters and whitespace');
    // Validate and lay out once; only the version continuation depends on the revision read.
    const content = body.spec !== undefined ? await contentFromSpec(deps, body.spec, actor) : contentFromScene(body.scene);
    const elements = JSON.parse(content.elementsJson) as SceneElement[];
    const stamp = writeStamp(deps);
    const { result } = await writeContent(deps, actor, params.id!, body.expectedUpdatedAt ?? null, (previous) => ({
      elements: body.spec !== undefined ? continueVersions(previous(), elements, stamp) : elements,
      ...(title === undefined ? {} : { title }),
    }));
    return {
      json: { id: params.id!, replaced: elements.length, orphanedComments: result.orphanedComments, ...(title === undefined ? {} : { title }) },
    };
  },
});

import { PublicLink, PublicLinkBody } from '../../../api/schemas.ts';
import { hashPassword } from '../../../auth/passwords.ts';
import { randomBase62 } from '../../../auth/token.ts';
import { diagramFor } from '../../diagram-access.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';

export const SLUG_LENGTH = 24;

export const setPublicLink = defineRoute({
  operationId: 'setPublicLink',
  method: 'PUT',
  url: '/api/v1/diagrams/:id/public-link',
  access: { capability: 'publish' },
  tags: ['diagrams'],
  summary: 'Enable or disable the public link',
  description:
    'Owner only. The slug is fixed for the life of the diagram; `version` increases by one on every successful call. `password`: a string sets it, null clears it, an absent key leaves it. The public page is `url`.',
  body: PublicLinkBody,
  response: { status: 200, schema: PublicLink, description: 'The public link' },
  errors: ['not_found'],
  handler: async ({ body, params, actor, deps }) => {
    const diagram = await diagramFor(deps, actor, params.id!, 'own');
    const passwordHash = body.password === undefined ? undefined : body.password === null ? null : await hashPassword(body.password);
    const link = await deps.store.updatePublicLink(
      diagram.id,
      { enabled: body.enabled, ...(passwordHash === undefined ? {} : { passwordHash }) },
      randomBase62(SLUG_LENGTH),
      deps.now().toISOString(),
    );
    return { json: present.publicLink(link, deps.config.publicUrl) };
  },
});

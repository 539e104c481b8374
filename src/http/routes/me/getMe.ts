import { Identity } from '../../../api/schemas.ts';
import * as present from '../../../api/presenters/account.ts';
import { defineRoute } from '../../../edge/route.ts';

export const getMe = defineRoute({
  operationId: 'getMe',
  method: 'GET',
  url: '/api/v1/me',
  access: { anyToken: true },
  allowUnverified: true,
  tags: ['account'],
  summary: 'Who am I',
  description: 'The identity behind the token. Answers for any valid token, whatever its capabilities, even before the email is verified.',
  response: { status: 200, schema: Identity, description: 'The caller' },
  errors: [],
  handler: async ({ actor }) => ({ json: present.identity(actor) }),
});

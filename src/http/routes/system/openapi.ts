import { OpenApiDocument } from '../../../api/schemas.ts';
import { buildOpenApiDocument } from '../../openapi.ts';
import { defineRoute } from '../../route.ts';

let cached: string | null = null;

export const openapi = defineRoute({
  operationId: 'openapi',
  method: 'GET',
  url: '/api/v1/openapi.json',
  access: { public: true },
  tags: ['operations'],
  summary: 'This document',
  description: 'The OpenAPI 3.1 description of the API. No token needed.',
  response: { status: 200, schema: OpenApiDocument, description: 'OpenAPI document' },
  errors: [],
  handler: async ({ deps }) => {
    cached ??= JSON.stringify(buildOpenApiDocument(deps.config.publicUrl));
    return { rawJson: cached };
  },
});

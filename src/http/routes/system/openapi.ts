import { OpenApiDocument } from '../../../api/schemas.ts';
import { buildOpenApiDocument } from '../../openapi.ts';
import { defineRoute, type RouteDef } from '../../../edge/route.ts';

/** The route that serves the OpenAPI document of `routes()` (all the API's routes, itself included), built once. */
export function openapiRoute(routes: () => readonly RouteDef[]): RouteDef {
  let cached: string | null = null;
  return defineRoute({
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
      cached ??= JSON.stringify(buildOpenApiDocument(routes(), deps.config.publicUrl));
      return { rawJson: cached };
    },
  });
}

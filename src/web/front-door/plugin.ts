/** The front door's pages: the landing page at `/`, the API reference and the MCP setup (its icons and files are static-files.ts). */
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../app/deps.ts';
import { apiDocsRoutes } from './api-docs.ts';
import { landingRoutes } from './landing.ts';
import { mcpSetupRoutes } from './mcp-setup.ts';

export const frontDoorPlugin: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  await app.register(landingRoutes, { deps });
  await app.register(apiDocsRoutes, { deps });
  await app.register(mcpSetupRoutes, { deps });
};

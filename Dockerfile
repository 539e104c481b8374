# syntax=docker/dockerfile:1
# Drawbridge's container image: the server compiled to JavaScript (dist/) on Node.js 24 (LTS),
# with production dependencies only, run as a non-root user. docs/operations.md
# ("Container") tells how to build and run it; compose.yaml runs two behind Caddy.
#
# Both stages start from the same Debian image, so the native modules compiled or
# fetched in the build stage (better-sqlite3, @napi-rs/canvas, @resvg/resvg-js) load
# in the runtime stage unchanged.
ARG NODE_IMAGE=node:24.22.3-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, in a layer of their own that a change of the sources leaves cached.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Compile the server, build the web app's browser bundle into node_modules/.cache (so the
# server starts without running esbuild), then drop the dev dependencies.
RUN npm run build && node scripts/prepare-web-assets.mjs && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
# What the running server reads: the compiled server (with Redoc's bundle, which the build
# copies into dist/), its production dependencies and the prepared web bundle, the sources
# (the browser code and the admin CLI, which runs them through tsx), docs/spec.md (served
# to MCP clients) and package.json.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src ./src
COPY --from=build /app/bin ./bin
COPY --from=build /app/docs ./docs
COPY --from=build /app/scripts/healthcheck.mjs ./scripts/
# The code stays root's (read-only to the server); the data directory and the web bundle's
# cache (which a start touches, and rebuilds into if the browser sources change) are the
# server's. 1000 is the node user of the base image.
RUN mkdir -p "$DATA_DIR" && chown -R 1000:1000 "$DATA_DIR" node_modules/.cache
USER 1000:1000
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
CMD ["node", "dist/main.js"]

# syntax=docker/dockerfile:1
# The id-verify server. One image runs both processes: the API (the default CMD, `npm start`'s entry) and
# the background worker (`node server/worker.ts`, see compose.yaml); `node server/cli.ts <command>` runs
# the operator commands (`migrate`, `bootstrap`; the @id-verify/server package's `id-verify-server`).
# Configuration is by environment only: .env.example lists every variable, docs/deployment.md explains a
# deployment.
#
# test/node/server/deploy-files.test.ts checks what can be checked without building it: the commands it
# runs, its health check against a real server, and that the runtime stage holds everything they import.

ARG NODE_IMAGE=node:24-slim

# Every dependency, dev ones included: the build needs vite, tsc and the manifest analyzer. The repository
# is an npm workspace: `npm ci` needs each package's package.json (the widget in src/, the server, its
# client kit, the mock) beside the root's and the lock file.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY src/package.json ./src/
COPY server/package.json ./server/
COPY server/client/package.json ./server/client/
COPY mock/package.json ./mock/
RUN npm ci --no-audit --no-fund

# The widget's script-tag bundle (src/dist/sdk), the hosted page and the console (server/dist/web), which
# the server serves.
FROM deps AS build
COPY . .
RUN npm run build

# Runtime dependencies only: the server imports nothing from devDependencies. (The workspaces' own
# dependencies stay: the widget's lit is tiny, the mock's msw peer a few MB.)
FROM deps AS runtime-deps
RUN npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    IDV_DATA_DIR=/data
WORKDIR /app
# Node runs the server's TypeScript directly (type stripping), so the sources are the program; they are
# not under node_modules, where Node would refuse to strip types.
COPY --from=runtime-deps --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json ./
COPY --chown=root:root server ./server
COPY --from=build --chown=root:root /app/server/dist/web ./server/dist/web
# The server serves the widget bundle of the `id-verify` package: node_modules/id-verify links to src/.
COPY --from=build --chown=root:root /app/src/package.json ./src/package.json
COPY --from=build --chown=root:root /app/src/dist/sdk ./src/dist/sdk
# The capture-quality judgement the server shares with the widget (src/capture/quality/, pure TypeScript).
COPY --chown=root:root src/capture/quality ./src/capture/quality
# The liveness contrast rule the server judges by and the widget checks its frames against.
COPY --chown=root:root src/liveness/action-contrast.ts ./src/liveness/action-contrast.ts
# The code stays root-owned and read-only to the process; only IDV_DATA_DIR is its own.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
# No curl in a slim image: Node's own fetch asks /readyz, which is 503 while starting or shutting down.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]
# Node itself as PID 1 (no npm in between), so SIGTERM reaches the server's graceful stop.
CMD ["node", "server/node.ts"]

# syntax=docker/dockerfile:1
# WA Desk: one image with the server, its migrations and the built web app (docs/operations.md).
#   docker build -t wadesk .
#   docker run -p 8080:8080 -v wadesk-data:/data wadesk            (embedded database under /data)
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://... wadesk  (PostgreSQL)

ARG NODE_IMAGE=node:24-bookworm-slim

# 0. The manifests and the npm that package.json's packageManager names (the one CI checks the lockfile with:
#    scripts/test.mjs runs the `npm ci` lines of this file, dry, with that npm on Node 24, on the committed manifests).
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm install -g --no-audit --no-fund "$(node -p 'require("./package.json").packageManager')"

# 1. Build: every dependency (dev included), then contracts, web app and server.
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/contracts packages/contracts
COPY apps/server apps/server
COPY apps/web apps/web
COPY docs/guide docs/guide
RUN npm run build -w packages/contracts && npm run build -w apps/web && npm run build -w apps/server

# 2. Production dependencies of the server and the contracts only (no web, test or build tools).
FROM manifests AS deps
RUN npm ci --omit=dev --no-audit --no-fund --workspace=apps/server --workspace=packages/contracts \
  && npm cache clean --force

# 3. Runtime: production dependencies + built output, as the unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
# Debian's ffmpeg (security updates with the image) converts voice notes: it decodes strangers' files, so not the
# 2018 build of @ffmpeg-installer, which stays only as the fallback outside Docker (FFMPEG_PATH overrides both).
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data && chown node:node /data
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/packages/contracts/package.json ./packages/contracts/
COPY --from=build /app/packages/contracts/dist ./packages/contracts/dist
COPY --from=build /app/apps/server/package.json ./apps/server/
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/server/drizzle ./apps/server/drizzle
COPY --from=build /app/apps/web/dist ./apps/web/dist
# The user guide the desk serves at /guide/ (Help in the user menu).
COPY --from=build /app/docs/guide ./docs/guide
USER node
EXPOSE 8080
VOLUME ["/data"]
# Liveness: /api/health answers 200 while the database answers (readiness is /api/ready, for the proxy).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM starts the graceful shutdown (SHUTDOWN_TIMEOUT_MS); node runs as PID 1 and handles it itself.
STOPSIGNAL SIGTERM
CMD ["node", "apps/server/dist/main.js"]

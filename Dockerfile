# syntax=docker/dockerfile:1
# The gateway's production image (README "Deploying"). Two stages: the build stage has the dev
# dependencies (TypeScript, esbuild), compiles src/ to dist/src/ and bundles that with every
# dependency into dist/bundle/ (scripts/bundle.mjs); the runtime stage installs nothing and runs
# the bundle as a non-root user.

# Node 24, maintenance LTS until 2028-04-30 (README "Deploying" says why 24 and not 26). `.ci/run` reads this line
# and runs the whole test suite on this very release, taken from the npm registry's `node` package: bump both here.
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle.mjs scripts/build-console.mjs ./scripts/
COPY src ./src
# The back office (console/, a Vite build into dist/console/) and the client kit's typed documents it imports.
COPY console ./console
COPY client ./client
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
# package.json: the gateway reads its version from it, and finds the project's root (client/) by it.
COPY package.json ./
COPY --from=build /app/dist/bundle ./dist/bundle
# The back office's static files, served at /console with CONSOLE=true (no node_modules needed).
COPY --from=build /app/dist/console ./dist/console
# The client kit's documents: GraphiQL's tabs and the trusted-documents manifest are read at run time.
COPY client ./client
# The image's own unprivileged user (uid 1000).
USER node
EXPOSE 4000
# Liveness only: readiness (/health/ready) is for the load balancer, which must see it turn 503 on SIGTERM.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM starts the drain (README "Running several replicas"): give the container SHUTDOWN_GRACE_MS plus
# PAYMENT_TIMEOUT_MS plus a margin before it is killed (compose: stop_grace_period).
STOPSIGNAL SIGTERM
# node itself, not npm: the signal must reach the gateway (same command as `npm run start:prod`).
CMD ["node", "dist/bundle/main.mjs"]

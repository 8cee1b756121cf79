# The Hop server as a container: `docker build -t hop-server .`, then
# `docker run -p 3000:3000 -v hop-data:/var/lib/hop hop-server` (embedded database in the volume),
# or `docker compose up` with PostgreSQL and Redis (compose.yaml). Settings: README, Configuration.
#
# The build stage installs the workspace and packs the server exactly as `npm run pack:server`
# does; the runtime stage installs that one tarball, which carries everything it runs on (the
# dashboard's assets, the migrations, the native image library for the build's platform).

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY . .
# `npm ci` builds everything (the `prepare` script), then the server is packed.
RUN npm ci --no-audit --no-fund \
 && node scripts/pack.mjs server --out /packages \
 && mv /packages/hop-server-*.tgz /packages/hop-server.tgz

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    HOP_DATA_DIR=/var/lib/hop \
    HOP_LOG_FORMAT=json
COPY --from=build /packages/hop-server.tgz /tmp/hop-server.tgz
RUN npm install --global --offline --no-audit --no-fund /tmp/hop-server.tgz \
 && rm /tmp/hop-server.tgz \
 && npm cache clean --force \
 && mkdir -p /var/lib/hop \
 && chown node:node /var/lib/hop
# The embedded database and the generated secret; with DATABASE_URL set, only the secret (set
# HOP_SECRET instead to keep the container stateless).
VOLUME ["/var/lib/hop"]
WORKDIR /var/lib/hop
USER node
EXPOSE 3000
# /readyz answers 200 once the database answers; the image has no curl, Node has fetch.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM stops accepting, finishes in-flight requests and writes buffered clicks before exiting.
STOPSIGNAL SIGTERM
CMD ["hop-server"]

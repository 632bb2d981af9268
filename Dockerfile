# The packing service image: one image for every role (PACKING_ROLES picks what a container runs;
# docs/operations.md, "Distributed profile"). The service runs the JavaScript tsc compiled in the
# build stage (dist/); tsx runs the admin CLI and npm start's freshness checks.

# Server dependencies stage: the root package's production dependencies only; the front ends'
# workspaces (webapp/, viewer/, clients/typescript: React, three.js, …) are left out
# (--workspaces=false). better-sqlite3 compiles here when no prebuilt binary fits (python3, make,
# g++); SCARF_ANALYTICS=false keeps swagger-ui-dist's install-time telemetry off (package.json's
# allowScripts denies it too).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --workspaces=false --no-audit --no-fund && npm cache clean --force

# Build stage: every dependency of the root and its workspaces (Vite, React, three.js, TypeScript;
# no install scripts, nothing native is compiled) and the sources, then `npm run build`: the 3D
# viewer into viewer/dist and the web app into webapp/dist (scripts/build-front-ends.ts), the
# server into dist/ (scripts/build-server.ts, tsc). Only that output goes into the run stage.
FROM node:20-bookworm-slim AS front-ends
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
COPY webapp/package.json ./webapp/
COPY viewer/package.json ./viewer/
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# Run stage: the same base (the same glibc the addon was built against), no compilers.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    PACKING_DATA_DIR=/app/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# The sources, root-owned and read-only for the service; .dockerignore keeps node_modules, data,
# secrets, .git, tests and their outputs out.
COPY . .
# The built viewer and web app (with their sources records, so `npm start` finds them fresh and builds nothing).
COPY --from=front-ends /app/viewer/dist ./viewer/dist
COPY --from=front-ends /app/webapp/dist ./webapp/dist
# The compiled server (with its sources record, so `npm start` finds it fresh and needs no TypeScript).
COPY --from=front-ends /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
CMD ["npm", "start"]

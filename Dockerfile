# chatbridge gateway, compiled to JavaScript (dist/, `npm run build`): compiling on the fly with tsx, as a plain
# `npm start` on a clone does, costs memory in every replica (idle RSS about 250 MB with tsx, 185 MB compiled).
#
# Two images from one file (docs/deployment.md):
#   docker build -t chatbridge .                                   the gateway: Telegram, Slack, the embedded service
#   docker build -t chatbridge:whatsapp --target whatsapp .        the same plus Chromium, for WhatsApp Web
# The last stage is what `docker build .` builds, so the small one comes last; both start FROM `runtime`.
#
# Every stage is on one Node image, of the newest line package.json's `engines` names (README, Requirements).

# Build stage: the TypeScript compiler is a dev dependency, so it is installed here only.
FROM node:24-bookworm-slim AS build
ENV PUPPETEER_SKIP_DOWNLOAD=true
WORKDIR /app
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY adapters ./adapters
RUN npm run build

# Production dependencies only, exactly as package-lock.json records them (npm ci). tsx (and esbuild, which
# only it needs) is a dependency so that a clone runs without a build step; the image runs dist/ and never
# loads it (bin/chatbridge.js takes dist/ when no sources are beside it), so it is left out (about 12 MB).
FROM node:24-bookworm-slim AS deps
ENV PUPPETEER_SKIP_DOWNLOAD=true
WORKDIR /app
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/tsx node_modules/esbuild node_modules/@esbuild node_modules/.bin/tsx node_modules/.bin/esbuild

# What both images share. ffmpeg converts audio other than OGG/Opus voice notes (those are decoded in
# JavaScript), on every platform, so it is in both.
FROM node:24-bookworm-slim AS runtime
# HOST=0.0.0.0: with the console open (docker run -it, no platform) the gateway would listen on
# 127.0.0.1 only; in a container it must take connections from the published port either way.
ENV NODE_ENV=production HOST=0.0.0.0
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Only what runs: production dependencies, the build, the CLI entry and the default configuration and demo
# data, which the build reads from /app/config. No src/ or adapters/: nothing here can fall back to tsx.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY bin ./bin
COPY config ./config
COPY --from=build /app/dist ./dist
# Fails the build if the entry would not start from dist/ without tsx.
RUN node bin/chatbridge.js --version
EXPOSE 8080
# /healthz: the process answers. Readiness (Redis, platforms) is /readyz, for load balancers and orchestrators.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/chatbridge.js", "start"]

# WhatsApp Web runs in Debian's Chromium (with its libraries, most of this image's size); puppeteer never downloads a browser of its own.
FROM runtime AS whatsapp
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium \
 && rm -rf /var/lib/apt/lists/*
# CHROMIUM_NO_SANDBOX: Docker's default seccomp profile denies Chromium's sandbox to a plain user.
ENV CHROMIUM_PATH=/usr/bin/chromium CHROMIUM_NO_SANDBOX=true
# The image's `node` user, by number: Kubernetes' runAsNonRoot can check only a numeric user.
USER 1000:1000

# The default target: no browser.
FROM runtime AS gateway
USER 1000:1000

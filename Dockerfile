# chatbridge gateway. Chromium (for WhatsApp Web) and ffmpeg (audio
# other than voice notes) come from Debian; puppeteer never downloads a browser of its own.
# Runs the compiled JavaScript (dist/, `npm run build`): compiling on the fly with tsx, as a plain
# `npm start` on a clone does, costs memory in every replica (idle RSS about 250 MB with tsx, 185 MB compiled).

# Build stage: the TypeScript compiler is a dev dependency, so it is installed here only.
FROM node:20-bookworm-slim AS build
ENV PUPPETEER_SKIP_DOWNLOAD=true
WORKDIR /app
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
RUN npm install --no-audit --no-fund --no-save
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY adapters ./adapters
RUN npm run build

FROM node:20-bookworm-slim
# HOST=0.0.0.0: with the console open (docker run -it, no platform) the gateway would listen on
# 127.0.0.1 only; in a container it must take connections from the published port either way.
# CHROMIUM_NO_SANDBOX: Docker's default seccomp profile denies Chromium's sandbox to a plain user.
ENV NODE_ENV=production HOST=0.0.0.0 PUPPETEER_SKIP_DOWNLOAD=true CHROMIUM_PATH=/usr/bin/chromium CHROMIUM_NO_SANDBOX=true
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg chromium ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
# npm install --no-save, not npm ci: the lock cannot list unrs-resolver's optional builds for other platforms
# (see .ci/run); the versions installed are the locked ones.
RUN npm install --omit=dev --no-audit --no-fund --no-save
# Only what runs: the build, the CLI entry (it starts dist/ when there are no sources beside it) and the
# default configuration and demo data, which the build reads from /app/config.
COPY bin ./bin
COPY config ./config
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/chatbridge.js", "start"]

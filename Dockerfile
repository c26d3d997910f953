# chatbridge gateway. Chromium (for WhatsApp Web) and ffmpeg (audio
# other than voice notes) come from Debian; puppeteer never downloads a browser of its own.
# Runs the TypeScript sources through tsx (a runtime dependency), as `npm start` does: no build step.
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
# Only what runs: nothing under src/ or adapters/ imports fakes/, test/, bench/ or docs/.
COPY tsconfig.json ./
COPY bin ./bin
COPY config ./config
COPY src ./src
COPY adapters ./adapters
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/chatbridge.js", "start"]

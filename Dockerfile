# chatbridge gateway. Chromium (for WhatsApp Web) and ffmpeg (audio other than voice notes) come from Debian.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PUPPETEER_SKIP_DOWNLOAD=true CHROMIUM_PATH=/usr/bin/chromium
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg chromium ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY bin ./bin
COPY config ./config
COPY src ./src
COPY adapters ./adapters
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/chatbridge.js", "start"]

// whatsapp-web.js depends on puppeteer; never download a browser at install time.
// The WhatsApp adapter launches the system Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
module.exports = { skipDownload: true };

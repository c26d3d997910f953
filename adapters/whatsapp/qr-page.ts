/**
 * `GET /whatsapp/<bot>/qr`, the page that links a number: the QR as SVG, refreshing itself
 * (WhatsApp replaces the QR about every 20 s), then "linked" with the number. The route is
 * declared `access: 'admin'`: the runtime serves it with the admin token as a Bearer header
 * (scripts), and the inbox at /inbox/whatsapp/<bot>/qr to a signed-in operator who may see the
 * bot, so no token travels in a URL. With `Accept: application/json` it answers the link state
 * as JSON, for scripts.
 */
import type { RequestHandler } from 'express';
import QRCode from 'qrcode';
import { html, Html, type HttpRoute } from '../../src/contract.js';
import type { LinkState } from './connection.js';

/** How often the page reloads while the number is not linked (a QR lives about 20 s). */
export const QR_PAGE_REFRESH_S = 5;
/** Once linked, a slower reload still notices a logout. */
const LINKED_PAGE_REFRESH_S = 30;

export interface LinkSource {
  link(): LinkState;
}

export function qrPagePath(bot: string): string {
  return `/whatsapp/${bot}/qr`;
}

export function qrPageRoute(bot: string, source: LinkSource): HttpRoute {
  return { path: qrPagePath(bot), handler: qrPageHandler(bot, source), access: 'admin', title: 'WhatsApp link' };
}

export function qrPageHandler(bot: string, source: LinkSource): RequestHandler {
  return (req, res, next) => {
    // Mounted with use(): only the page itself, not whatever lies below its path.
    if (req.method !== 'GET' || (req.path !== '/' && req.path !== '')) return next();
    const link = source.link();
    res.set('Cache-Control', 'no-store');
    if (req.accepts(['html', 'json']) === 'json') {
      res.json(link);
      return;
    }
    renderPage(bot, link).then((html) => res.type('html').send(html), next);
  };
}

async function renderPage(bot: string, link: LinkState): Promise<string> {
  const title = `WhatsApp link of bot "${bot}"`;
  let body: Html;
  let refresh = QR_PAGE_REFRESH_S;
  switch (link.state) {
    case 'linked':
      refresh = LINKED_PAGE_REFRESH_S;
      body = html`<p class="ok">Linked: this bot answers on <strong>+${link.number}</strong>${link.name ? ` (${link.name})` : ''}.</p>`;
      break;
    case 'waiting-for-scan': {
      const notice = link.notice ? html`<p class="warn">${link.notice}</p>` : '';
      const code = link.pairingCode
        ? html`<p>${link.qr ? 'Or on' : 'On'} the phone: Linked devices → Link a device → <em>Link with phone number instead</em>,
and enter <strong class="code">${link.pairingCode}</strong>.</p>`
        : '';
      // The QR encoder's SVG: the pairing data drawn as paths, never written as text.
      const qr = link.qr ? new Html(await QRCode.toString(link.qr, { type: 'svg', margin: 2, width: 320 })) : null;
      // Linking by pairing code, whatsapp-web.js emits no QR: nothing to scan.
      const scan = qr
        ? html`<p>Not linked yet. On the phone open WhatsApp → Linked devices → Link a device, and scan:</p><div class="qr">${qr}</div>`
        : html`<p>Not linked yet.</p>`;
      body = html`${notice}${scan}${code}`;
      break;
    }
    case 'standby':
      body = html`<p>Another gateway process runs this number's browser; open this page on that process, or wait: this one takes over if it stops.</p>`;
      break;
    case 'failed':
      body = html`<p class="warn">${link.reason}</p>`;
      break;
    case 'starting':
      body = html`${link.notice ? html`<p class="warn">${link.notice}</p>` : ''}<p>Starting WhatsApp Web; the QR appears here in a moment.</p>`;
      break;
  }
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${refresh}">
<meta name="robots" content="noindex"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}.qr svg{width:320px;height:320px}
.ok{color:#126b2f}.warn{color:#a33}.code{font-family:monospace;font-size:1.4em;letter-spacing:.1em}</style>
</head><body><h1>${title}</h1><div data-state="${link.state}">${body}</div></body></html>
`.markup;
}

/**
 * STUB (the body lands with the connection work): `GET /whatsapp/<bot>/qr`, the page that
 * links a number: the QR as SVG, refreshing itself, then "linked" with the number.
 * Served behind the admin token (the route is declared `access: 'admin'`).
 */
import type { HttpRoute } from '../../src/contract.js';
import type { WhatsAppConnection } from './connection.js';

export function qrPagePath(bot: string): string {
  return `/whatsapp/${bot}/qr`;
}

export function qrPageRoute(bot: string, connection: WhatsAppConnection): HttpRoute {
  return {
    path: qrPagePath(bot),
    handler: (_request, response) => {
      response.status(503).json({ error: `the QR page of WhatsApp bot "${bot}" is not built yet`, link: connection.link().state });
    },
  };
}

/**
 * The media origin, a second server apart from the Graph API as lookaside.fbsbx.com is in
 * production (/work/shared/notes/whatsapp-cloud.md, "Media"): `GET /{media-id}` on the Graph API
 * issues a URL here that is valid for 5 minutes and itself needs the bearer token. Without the
 * token: 401; after expiry or for a URL never issued: 404. Every request is recorded, so a test
 * can prove that a too-large file was refused without being downloaded.
 */
import { randomBytes } from 'node:crypto';
import express, { type Request } from 'express';
import type { StoredMedia, World } from './world.js';

/** "The url … is valid for 5 minutes" (the notes, after Chat SDK and Meta's media page). */
export const MEDIA_URL_TTL_MS = 5 * 60 * 1000;

const PATH = '/whatsapp_business/attachments/';

/** Registers a fresh URL for the media on `origin`, expiring by the fake's clock. */
export function issueMediaUrl(world: World, origin: string, media: StoredMedia): string {
  const hash = randomBytes(12).toString('base64url');
  const expiresAt = world.now() + MEDIA_URL_TTL_MS;
  world.issuedUrls.set(hash, { mediaId: media.id, expiresAt });
  const query = new URLSearchParams({ mid: media.id, ext: String(Math.floor(expiresAt / 1000)), hash });
  return `${origin}${PATH}?${query.toString()}`;
}

function bearer(req: Request): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
}

export function createMediaApp(world: World, accessToken: string): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.get(PATH, (req, res) => {
    const hash = typeof req.query.hash === 'string' ? req.query.hash : '';
    const mid = typeof req.query.mid === 'string' ? req.query.mid : '';
    const issued = world.issuedUrls.get(hash);
    const media = issued && issued.mediaId === mid ? world.media.get(mid) : undefined;
    if (!issued || !media) {
      world.download({ mediaId: mid, authorized: bearer(req) === accessToken, bytes: 0 });
      res.status(404).type('text/plain').send('Not Found');
      return;
    }
    const authorized = bearer(req) === accessToken;
    if (!authorized) {
      world.download({ mediaId: mid, authorized, bytes: 0 });
      res.status(401).json({ error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      return;
    }
    if (world.now() > issued.expiresAt || media.fileGone) {
      world.download({ mediaId: mid, authorized, bytes: 0 });
      res.status(404).type('text/plain').send('URL signature expired');
      return;
    }
    world.download({ mediaId: mid, authorized, bytes: media.bytes.byteLength });
    res.status(200).type(media.mimeType).set('content-length', String(media.bytes.byteLength)).send(media.bytes);
  });
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });
  return app;
}

/**
 * RemoteAuth's store on the adapter's PlatformStorage (Redis): the zipped browser profile
 * of a linked number, kept as its bytes in one key per session (binary-safe, no base64), so
 * a restart or another machine picks the link up with no volume.
 *
 * whatsapp-web.js 1.34.7 hands `save` only the session's name: the store reads the zip the
 * library wrote at `<dataPath>/<session>.zip` (older versions wrote it in the working
 * directory) and must have read it all before resolving, because the library deletes it
 * right after.
 *
 * It also works around a race in the library's restore: RemoteAuth resolves its unzip on the
 * parser's 'finish', before the last files are written (unzipper's Extract reports the end of
 * the writes with 'close'), so Chromium may start on a half-unpacked profile and ask for a new
 * QR. `waitUntilUnpacked` waits until every file of the extracted zip is on disk in full.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlatformStorage } from '../../src/contract.js';
import type { WaRemoteStore } from './library.js';
import { zipFileEntries, type ZipFileEntry } from './zip-entries.js';

/** How often, and how long at most, the unpacked profile is checked for completeness. */
const UNPACK_POLL_MS = 50;
export const UNPACK_DEADLINE_MS = 30_000;

/** The storage key of a session (the library names it `RemoteAuth-<clientId>`). */
export function sessionKey(session: string): string {
  return `session:${session}`;
}

export class RedisSessionStore implements WaRemoteStore {
  /** The files of the zip each session's last extract() wrote, to check the unpacked copy against. */
  private readonly extracted = new Map<string, ZipFileEntry[]>();

  /** `dataPath` must be the one given to RemoteAuth: the zip is read from there. */
  constructor(
    private readonly storage: PlatformStorage,
    readonly dataPath: string,
  ) {}

  /** Where the library writes the zip of `session` before calling save(). */
  zipPath(session: string): string {
    return join(this.dataPath, `${session}.zip`);
  }

  sessionExists({ session }: { session: string }): Promise<boolean> {
    return this.storage.exists(sessionKey(session));
  }

  async save({ session }: { session: string }): Promise<void> {
    const bytes = await readFile(this.zipPath(session));
    await this.storage.setBytes(sessionKey(session), bytes);
  }

  async extract({ session, path }: { session: string; path: string }): Promise<void> {
    const bytes = await this.storage.getBytes(sessionKey(session));
    if (!bytes)
      throw new Error(
        `no stored WhatsApp session "${session}" to restore (it was deleted while the client started); the client will ask for a new QR`,
      );
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
    this.extracted.set(session, zipFileEntries(bytes));
  }

  /**
   * Resolves once every file of the zip last extracted for `session` is in `folder` with its
   * full size (at once when nothing was extracted); false when that did not happen within
   * `deadlineMs` (the profile is then used as it is).
   */
  async waitUntilUnpacked(session: string, folder: string, deadlineMs = UNPACK_DEADLINE_MS): Promise<boolean> {
    const entries = this.extracted.get(session) ?? [];
    this.extracted.delete(session);
    const deadline = Date.now() + deadlineMs;
    let pending = entries;
    for (;;) {
      const sizes = await Promise.all(
        pending.map((entry) =>
          stat(join(folder, entry.name)).then(
            (info) => info.size,
            () => -1,
          ),
        ),
      );
      pending = pending.filter((entry, i) => sizes[i]! < entry.size || sizes[i] === -1);
      if (pending.length === 0) return true;
      if (Date.now() >= deadline) return false;
      await sleep(UNPACK_POLL_MS);
    }
  }

  /**
   * The library's call, made on every `disconnected` that is not a state it accepts (a
   * CONFLICT, a PROXYBLOCK, an outdated WhatsApp Web …), not only when the phone removed the
   * device: honouring it would turn a passing fault into a new QR for an unattended gateway.
   * So it keeps the session; the connection deletes it with forget() when WhatsApp says it is
   * no longer valid (LOGOUT, auth_failure). A stale session kept by mistake only costs a QR.
   */
  async delete(_options: { session: string }): Promise<void> {}

  /** Deletes the stored session: the next client asks for a new QR. */
  forget(session: string): Promise<void> {
    return this.storage.delete(sessionKey(session));
  }
}

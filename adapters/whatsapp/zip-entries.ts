/**
 * The files a zip holds and their sizes, read from its central directory: enough to tell
 * when an unpacked copy is complete (see RedisSessionStore.waitUntilUnpacked). Zip64
 * archives (over 4 GB, never a browser profile) are not read.
 */

export interface ZipFileEntry {
  /** Path inside the archive, with `/`. */
  name: string;
  /** Uncompressed size in bytes. */
  size: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const END_SEARCH_BYTES = 22 + 0xffff;

/** The files (not folders) of the archive; [] when it cannot be read as a zip. */
export function zipFileEntries(bytes: Uint8Array): ZipFileEntry[] {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - END_SEARCH_BYTES); at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return [];
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipFileEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER) return [];
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength).replace(/\\/g, '/');
    if (!name.endsWith('/')) entries.push({ name, size });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The type a file is sent as: what the bytes said (the core sniffs an operator's file), unless they
 * said only their container (Office's zip or CFB) or nothing at all (text); then the name's
 * extension, through the mime-types table. A type read from the bytes wins over the name: a
 * ".pdf" that is a PNG is a PNG.
 */
import { lookup } from 'mime-types';
import type { OutboundFile } from '../adapter.js';

/** What a sniffer says of bytes it reads only as a container, or of bytes it cannot read. */
const UNDECIDED = new Set(['', 'application/octet-stream', 'application/zip', 'application/x-cfb']);

/** The file's MIME type, lower case without parameters; '' when neither its bytes nor its name tell. */
export function outboundFileType(file: Pick<OutboundFile, 'fileName' | 'mimeType'>): string {
  const declared = (file.mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!UNDECIDED.has(declared)) return declared;
  return lookup(file.fileName) || declared;
}

/**
 * Every key the embedded service keeps in the StateStore (which adds its own
 * `cb:` prefix). The README's key table (docs/architecture.md §5) lists these.
 *
 * Redis Cluster: keys that one step writes together (one MULTI, or a multi-key DEL)
 * carry the same hash tag, so they live in one slot:
 * - `{s:<serial>}` — a chatbot: its record, its listings hash and their cache token
 *   (RealEstateCreate/Delete and Chatbot/Remove are one MULTI over them; a list is one
 *   slot, one GET and, when the token changed, one HGETALL), its monthly counters;
 * - `{session:<id>}` — a chat session: its record, history and rate window (an answer
 *   appends the history and renews both in one MULTI);
 * - `{file:<id>}` — an upload: its metadata, its bytes (written together) and the claim
 *   of the PUT in progress.
 * The id sequences are one key each and need no tag. A tag is always the whole serial
 * or id, so every key of one chatbot hashes alike whatever characters its serial has
 * (Redis hashes the text between the first `{` and the next `}`).
 */
const chatbotTag = (serialNumber: string) => `{s:${serialNumber}}`;
const sessionTag = (sessionId: number) => `{session:${sessionId}}`;
const fileTag = (fileId: number) => `{file:${fileId}}`;

export const svcKeys = {
  chatbot: (serialNumber: string) => `svc:chatbot:${chatbotTag(serialNumber)}`,
  session: (sessionId: number) => `svc:session:${sessionTag(sessionId)}`,
  history: (sessionId: number) => `svc:history:${sessionTag(sessionId)}`,
  listings: (serialNumber: string) => `svc:listings:${chatbotTag(serialNumber)}`,
  listingsVersion: (serialNumber: string) => `svc:listings-version:${chatbotTag(serialNumber)}`,
  file: (fileId: number) => `svc:file:${fileTag(fileId)}`,
  fileData: (fileId: number) => `svc:filedata:${fileTag(fileId)}`,
  /** Held while one PUT of the file's bytes is being read, so a URL buffers one body at a time. */
  uploadClaim: (fileId: number) => `svc:upload-claim:${fileTag(fileId)}`,
  rateWindow: (sessionId: number) => `svc:rate:${sessionTag(sessionId)}`,
  monthlyUsage: (serialNumber: string, month: string) => `svc:usage:${chatbotTag(serialNumber)}:${month}`,
  sequence: (name: 'session' | 'message' | 'file' | 'listing') => `svc:seq:${name}`,
};

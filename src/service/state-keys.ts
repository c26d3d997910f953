/**
 * Every key the embedded service keeps in the StateStore (which adds its own
 * `cb:` prefix). The README's key table lists these.
 */
export const svcKeys = {
  chatbot: (serialNumber: string) => `svc:chatbot:${serialNumber}`,
  session: (sessionId: number) => `svc:session:${sessionId}`,
  history: (sessionId: number) => `svc:history:${sessionId}`,
  listings: (serialNumber: string) => `svc:listings:${serialNumber}`,
  listingsVersion: (serialNumber: string) => `svc:listings-version:${serialNumber}`,
  file: (fileId: number) => `svc:file:${fileId}`,
  fileData: (fileId: number) => `svc:filedata:${fileId}`,
  /** Held while one PUT of the file's bytes is being read, so a URL buffers one body at a time. */
  uploadClaim: (fileId: number) => `svc:upload-claim:${fileId}`,
  rateWindow: (sessionId: number) => `svc:rate:${sessionId}`,
  monthlyUsage: (serialNumber: string, month: string) => `svc:usage:${serialNumber}:${month}`,
  sequence: (name: 'session' | 'message' | 'file' | 'listing') => `svc:seq:${name}`,
};

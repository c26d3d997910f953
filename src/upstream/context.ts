import type { HttpTransport } from './http.js';
import type { UpstreamPaths } from './paths.js';

/** What every operation module needs from the client. */
export interface UpstreamContext {
  http: HttpTransport;
  paths: UpstreamPaths;
  /** Longest silence between two chunks of a streamed answer (ms). */
  streamIdleTimeoutMs: number;
  /** Path of the upload's confirm step; null skips it. */
  uploadConfirmPath: string | null;
}

import type { Logger } from '../logger.js';
import type { StateStore } from '../state/types.js';
import { CLIENT_ASK_CONTENT_MAX_CHARS } from '../upstream/limits.js';

export type EngineOptions =
  | {
      kind: 'builtin';
      /**
       * Streaming speed of the answer (estimated at four characters per token); 0 = all
       * at once, for benchmarks and tests that need speed. Default DEFAULT_TOKENS_PER_SECOND
       * (engines/pace.ts), like a hosted model, so users see an answer being written.
       */
      tokensPerSecond?: number;
    }
  | {
      kind: 'openai';
      /** `https://api.openai.com/v1`, `http://localhost:11434` (Ollama) …; `/v1` is added when missing. */
      baseUrl: string;
      apiKey?: string;
      /** The default model; also ModelList entry "1". */
      model: string;
      /** Further model names offered by ModelList (Keys "2", "3", … in this order). */
      extraModels?: string[];
      /** Per-request timeout of the upstream completion (ms). */
      timeoutMs?: number;
    };

export interface ServiceLimits {
  /** Largest accepted image, video and audio file in ClientAsk (bytes). */
  imageBytes: number;
  videoBytes: number;
  audioBytes: number;
  /** Largest PUT to a pre-upload URL (bytes); default 100 MB, the largest media limit. */
  uploadBytes: number;
  /** Most files in one Image-mode ClientAsk. */
  imagesPerAsk: number;
  /** Longest accepted ClientAsk `content` (characters). */
  contentChars: number;
  /** Question/answer entries kept per session for the openai engine. */
  historyEntries: number;
  /** Largest RealEstateList PageSize. */
  maxPageSize: number;
  /** Lifetime of a pre-upload URL (ms). */
  uploadUrlTtlMs: number;
  /** A chat session (and its history) is forgotten after this long without a message (ms). */
  sessionTtlMs: number;
  /** How long uploaded files are kept (ms). */
  fileTtlMs: number;
  /** Largest JSON request body (bytes). */
  jsonBodyBytes: number;
}

export const DEFAULT_LIMITS: ServiceLimits = {
  imageBytes: 20 * 1024 * 1024,
  videoBytes: 100 * 1024 * 1024,
  audioBytes: 40 * 1024 * 1024,
  uploadBytes: 100 * 1024 * 1024,
  imagesPerAsk: 10,
  // The rule the gateway checks before asking (src/upstream/limits.ts): one number for both.
  contentChars: CLIENT_ASK_CONTENT_MAX_CHARS,
  historyEntries: 20,
  maxPageSize: 100,
  uploadUrlTtlMs: 5 * 60 * 1000,
  sessionTtlMs: 30 * 24 * 60 * 60 * 1000,
  fileTtlMs: 7 * 24 * 60 * 60 * 1000,
  jsonBodyBytes: 1024 * 1024,
};

export interface ServiceOptions {
  state: StateStore;
  /** Checked against `Authorization` (Edit, ClientAsk, GetSession, uploads, …). */
  secretKey: string;
  /** Checked against `chatrobot-sessionkey` (RealEstateList; Create/Delete accept either key). */
  sessionKey: string;
  /** Base of the pre-upload URLs; by default the scheme and Host of the GetPreUploadUrl request. */
  publicBaseUrl?: string;
  engine?: EngineOptions;
  logger?: Logger;
  /** Creates the demo chatbot and its listings (idempotent) when the service starts. */
  seedDemo?: boolean;
  limits?: Partial<ServiceLimits>;
}

export function resolveLimits(limits: Partial<ServiceLimits> | undefined): ServiceLimits {
  return { ...DEFAULT_LIMITS, ...limits };
}

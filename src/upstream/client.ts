import type { Dispatcher } from 'undici';
import type {
  AskStreamEvent,
  CallOptions,
  ChatAnswer,
  ChatbotServiceApi,
  ChatbotSettingsEdit,
  ClientAskRequest,
  DeleteKeyType,
  ListingInput,
  ListingPage,
  ListingQuery,
  ModelInfo,
  UploadInput,
} from './api.js';
import { askStream } from './ask-stream.js';
import { ask, getSession } from './chat.js';
import { addChatbot, edit, modelList, removeChatbot } from './chatbot.js';
import type { UpstreamContext } from './context.js';
import { HttpTransport } from './http.js';
import { createListing, deleteListings, listListings } from './listings.js';
import { DEFAULT_UPSTREAM_PATHS, type UpstreamPaths } from './paths.js';
import { uploadFile } from './upload.js';

export interface ChatbotServiceClientOptions {
  /** e.g. `https://usapi.hottask.com`; may carry a path prefix. */
  baseUrl: string;
  /** Sent raw (no "Bearer") as `Authorization`. */
  secretKey: string;
  /** Sent as `chatrobot-sessionkey`. */
  sessionKey: string;
  /** Per call; for a streamed answer, the wait for the response headers. Default 30 s. */
  timeoutMs?: number;
  /** Longest silence between two chunks of a streamed answer. Default: timeoutMs. */
  streamIdleTimeoutMs?: number;
  /** Overrides for white-label hosts that moved an operation. */
  paths?: Partial<UpstreamPaths>;
  /** Path of the upload's confirm step (the embedded service: `/chat/User/ConfirmUpload`); null or unset skips it. */
  uploadConfirmPath?: string | null;
  /** Extra attempts for idempotent operations (Edit, RealEstateList, RealEstateDelete, ModelList). Default 2. */
  retries?: number;
  /** First delay between attempts, doubled each time; a Retry-After header wins. Default 500 ms. */
  retryDelayMs?: number;
  /** Another undici dispatcher (a proxy, a mock pool); the client then leaves closing it to the caller. */
  dispatcher?: Dispatcher;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 2;
const DEFAULT_RETRY_DELAY_MS = 500;

/** The Chatbot Service API over HTTP (docs/chatbot-service-api.md). */
export class ChatbotServiceClient implements ChatbotServiceApi {
  private readonly ctx: UpstreamContext;

  constructor(options: ChatbotServiceClientOptions) {
    const timeoutMs = positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
    if (!/^https?:\/\//i.test(options.baseUrl)) {
      throw new Error(
        `upstream baseUrl must be an absolute http(s) URL, got "${options.baseUrl}" (set UPSTREAM_BASE_URL)`,
      );
    }
    const http = new HttpTransport({
      baseUrl: options.baseUrl,
      secretKey: options.secretKey,
      sessionKey: options.sessionKey,
      timeoutMs,
      retries: Math.max(0, Math.floor(options.retries ?? DEFAULT_RETRIES)),
      retryDelayMs: positive(options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS, 'retryDelayMs'),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
    this.ctx = {
      http,
      paths: resolvePaths(options.paths),
      streamIdleTimeoutMs: positive(options.streamIdleTimeoutMs ?? timeoutMs, 'streamIdleTimeoutMs'),
      uploadConfirmPath: options.uploadConfirmPath ?? null,
    };
  }

  getSession(serialNumber: string, options?: CallOptions): Promise<{ sessionId: number }> {
    return getSession(this.ctx, serialNumber, options);
  }

  ask(request: ClientAskRequest, options?: CallOptions): Promise<ChatAnswer> {
    return ask(this.ctx, request, options);
  }

  askStream(request: ClientAskRequest, options?: CallOptions): AsyncIterable<AskStreamEvent> {
    return askStream(this.ctx, request, options);
  }

  edit(settings: ChatbotSettingsEdit, options?: CallOptions): Promise<void> {
    return edit(this.ctx, settings, options);
  }

  createListing(listing: ListingInput, options?: CallOptions): Promise<string> {
    return createListing(this.ctx, listing, options);
  }

  listListings(query: ListingQuery, options?: CallOptions): Promise<ListingPage> {
    return listListings(this.ctx, query, options);
  }

  deleteListings(
    request: { SerialNumber: string; Keys: string[]; KeyType: DeleteKeyType },
    options?: CallOptions,
  ): Promise<{ successCount: number }> {
    return deleteListings(this.ctx, request, options);
  }

  modelList(options?: CallOptions): Promise<ModelInfo[]> {
    return modelList(this.ctx, options);
  }

  addChatbot(request: { timeZone?: string; type?: number }, options?: CallOptions): Promise<string> {
    return addChatbot(this.ctx, request, options);
  }

  removeChatbot(serialNumber: string, options?: CallOptions): Promise<void> {
    return removeChatbot(this.ctx, serialNumber, options);
  }

  uploadFile(file: UploadInput, options?: CallOptions): Promise<{ fileId: number }> {
    return uploadFile(this.ctx, file, options);
  }

  /** Closes the keep-alive connections (not a dispatcher passed in by the caller). */
  close(): Promise<void> {
    return this.ctx.http.close();
  }
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`upstream ${name} must be a positive number of milliseconds, got ${value}`);
  return value;
}

/** Overrides merged onto the defaults; an unknown key is a typo in the configuration, not something to ignore. */
function resolvePaths(overrides: Partial<UpstreamPaths> | undefined): UpstreamPaths {
  const paths: UpstreamPaths = { ...DEFAULT_UPSTREAM_PATHS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (!Object.hasOwn(DEFAULT_UPSTREAM_PATHS, key)) {
      throw new Error(
        `unknown upstream path "${key}" (upstream.paths); known: ${Object.keys(DEFAULT_UPSTREAM_PATHS).join(', ')}`,
      );
    }
    if (value === undefined) continue;
    if (typeof value !== 'string' || !value.startsWith('/')) {
      throw new Error(`upstream.paths.${key} must be a path starting with "/", got ${JSON.stringify(value)}`);
    }
    paths[key as keyof UpstreamPaths] = value;
  }
  return paths;
}

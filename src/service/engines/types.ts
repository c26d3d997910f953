import type { ChatAskType } from '../../upstream/api.js';
import type { ChatbotRecord } from '../repos/chatbots.js';
import type { UploadedFile } from '../repos/files.js';
import type { HistoryEntry } from '../repos/sessions.js';
import type { Listing } from '../validation/listing.js';

export interface AttachedFile {
  meta: UploadedFile;
  bytes(): Promise<Buffer>;
}

export interface AnswerRequest {
  chatbot: ChatbotRecord;
  /** The model name the chatbot's `Model` key maps to (ModelList). */
  model: string;
  question: string;
  askType: ChatAskType;
  files: AttachedFile[];
  listings: Listing[];
  /** Earlier exchanges of the session, oldest first; loaded only by engines that use it. */
  history(): Promise<HistoryEntry[]>;
  signal: AbortSignal;
}

export interface EngineOutcome {
  /** True when the engine had nothing grounded to say (our extension of the spec). */
  noAnswer: boolean;
  /** Tokens the engine's backend reported; when absent the service counts them itself. */
  totalTokens?: number;
}

/**
 * An engine yields the answer as text fragments, in order; joined they are the
 * whole answer. The generator's return value says how it went.
 */
export interface AnswerEngine {
  /** Model names offered by ModelList; Key "1" is the first. */
  readonly models: readonly string[];
  answer(request: AnswerRequest): AsyncGenerator<string, EngineOutcome, void>;
}
